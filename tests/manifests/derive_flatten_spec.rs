//! `#[resource(flatten_spec)]`: a kind whose fields sit at the root of the object, beside
//! `metadata` (Go: a root type with fields of its own and no `Spec`). The wire form, the CRD's
//! schema, and an API server holding the object to that schema.

use kube::api::{Api, PostParams};
use serde_json::json;
use webop::prelude::*;
use webop_testkit::ApiServer;

/// Quota is the Schema for the quotas API.
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(
    group = "app.example.com",
    version = "v1",
    kind = "Quota",
    flatten_spec
)]
#[subresource(status, scale(spec_path = ".limit", status_path = ".status.used"))]
#[printcolumn(name = "Limit", type = "integer", json_path = ".limit")]
#[x_validation(
    rule = "self.limit >= self.reserved",
    message = "reserved exceeds the limit"
)]
#[serde(rename_all = "camelCase")]
pub struct QuotaSpec {
    /// How many units may be used.
    #[validate(minimum = 1, maximum = 100)]
    pub limit: i32,
    /// How many units are held back.
    #[schema(default = 0)]
    pub reserved: i32,
    /// Who pays.
    pub owner_team: Option<String>,
}

/// QuotaStatus reports the use of a Quota.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QuotaStatus {
    pub used: i32,
}

fn quota(limit: i32) -> Quota {
    Quota::new(
        "team-a",
        QuotaSpec {
            limit,
            reserved: 2,
            owner_team: Some("a".into()),
        },
    )
}

#[test]
fn the_fields_are_on_the_wire_at_the_root_after_metadata() {
    let mut object = quota(10);
    object.status = Some(QuotaStatus { used: 3 });
    let text = serde_json::to_string(&object).unwrap();
    assert_eq!(
        text,
        r#"{"apiVersion":"app.example.com/v1","kind":"Quota","metadata":{"name":"team-a"},"limit":10,"reserved":2,"ownerTeam":"a","status":{"used":3}}"#
    );
    let back: Quota = serde_json::from_str(&text).unwrap();
    assert_eq!(back.spec, object.spec);
    assert_eq!(back.status, object.status);
}

#[test]
fn an_absent_defaulted_field_reads_as_its_default_and_no_status_is_none() {
    let object: Quota = serde_json::from_value(json!({
        "apiVersion": "app.example.com/v1", "kind": "Quota",
        "metadata": {"name": "q"}, "limit": 5,
    }))
    .unwrap();
    assert_eq!(object.spec.reserved, 0);
    assert_eq!(object.status, None);
    let missing = serde_json::from_value::<Quota>(json!({"metadata": {"name": "q"}}));
    let error = missing.unwrap_err().to_string();
    assert!(error.contains("limit"), "{error}");
}

#[test]
fn the_schema_has_the_fields_at_the_root_with_the_spec_rules() {
    let crd = serde_json::to_value(Quota::crd()).unwrap();
    let version = &crd["spec"]["versions"][0];
    let root = &version["schema"]["openAPIV3Schema"];
    let names: Vec<&str> = root["properties"]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        names,
        [
            "apiVersion",
            "kind",
            "limit",
            "metadata",
            "ownerTeam",
            "reserved",
            "status"
        ]
    );
    assert_eq!(root["required"], json!(["limit"]));
    assert_eq!(root["properties"]["limit"]["maximum"], json!(100.0));
    assert_eq!(root["properties"]["reserved"]["default"], json!(0));
    assert_eq!(
        root["x-kubernetes-validations"][0]["rule"],
        "self.limit >= self.reserved"
    );
    // The spec's doc comment is the root's: there is no `spec` property to describe.
    assert_eq!(
        root["description"],
        "Quota is the Schema for the quotas API."
    );
    assert_eq!(
        version["subresources"]["scale"]["specReplicasPath"],
        ".limit"
    );
    assert_eq!(version["additionalPrinterColumns"][0]["jsonPath"], ".limit");
}

#[tokio::test]
async fn an_api_server_validates_defaults_and_keeps_the_root_fields() {
    let server = ApiServer::new();
    server.install_crd(Quota::crd()).unwrap();
    let api: Api<Quota> = Api::namespaced(server.client(), "default");

    let rejection = async |limit| {
        let created = api.create(&PostParams::default(), &quota(limit)).await;
        created.unwrap_err().to_string()
    };
    let error = rejection(101).await;
    assert!(error.contains("limit"), "{error}");
    assert!(error.contains("less than or equal to 100"), "{error}");

    let error = rejection(1).await;
    assert!(error.contains("reserved exceeds the limit"), "{error}");

    let created = api
        .create(&PostParams::default(), &quota(10))
        .await
        .unwrap();
    assert_eq!(created.spec, quota(10).spec);
    let raw: Api<kube::api::DynamicObject> = Api::namespaced_with(
        server.client(),
        "default",
        &kube::api::ApiResource::erase::<Quota>(&()),
    );
    let stored = raw.get("team-a").await.unwrap();
    assert_eq!(stored.data.get("limit"), Some(&json!(10)));
    assert!(stored.data.get("spec").is_none(), "{:?}", stored.data);

    // A client that leaves the defaulted field out gets the schema's default back.
    let sparse: kube::api::DynamicObject = serde_json::from_value(json!({
        "apiVersion": "app.example.com/v1", "kind": "Quota",
        "metadata": {"name": "sparse"}, "limit": 5,
    }))
    .unwrap();
    raw.create(&PostParams::default(), &sparse).await.unwrap();
    assert_eq!(api.get("sparse").await.unwrap().spec.reserved, 0);
}

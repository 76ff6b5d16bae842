//! webop's Serialize/Deserialize follow Go's JSON conventions, as the CRD schema describes the data.

use serde_json::json;
use webop::prelude::*;

#[derive(Schema, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Payload {
    /// Go's []byte: base64.
    data: Vec<u8>,
    checksum: Option<Vec<u8>>,
    #[schema(default = 3)]
    retries: Option<i32>,
    #[schema(default = ["a", "b"])]
    tags: Vec<String>,
    #[schema(nullable)]
    note: Option<String>,
    comment: Option<String>,
    /// A []byte default is base64, as the API server stores it.
    #[schema(default = "aGk=")]
    salt: Option<Vec<u8>>,
    #[schema(default = "AAE=")]
    pepper: Vec<u8>,
}

#[test]
fn bytes_are_base64_and_none_is_omitted_unless_nullable() {
    let payload = Payload {
        data: b"hi".to_vec(),
        checksum: None,
        retries: Some(1),
        tags: vec![],
        note: None,
        comment: None,
        salt: Some(vec![7]),
        pepper: vec![],
    };
    let value = serde_json::to_value(&payload).unwrap();
    assert_eq!(
        value,
        json!({"data": "aGk=", "retries": 1, "tags": [], "note": null, "salt": "Bw==", "pepper": ""})
    );
    assert_eq!(serde_json::from_value::<Payload>(value).unwrap(), payload);
}

#[test]
fn absent_fields_take_their_schema_defaults() {
    let payload: Payload = serde_json::from_value(json!({"data": "", "checksum": "AAE="})).unwrap();
    assert_eq!(payload.retries, Some(3));
    assert_eq!(payload.tags, ["a", "b"]);
    assert_eq!(payload.checksum, Some(vec![0, 1]));
    assert_eq!(payload.salt.as_deref(), Some(&b"hi"[..]));
    assert_eq!(payload.pepper, [0, 1]);
}

#[test]
fn the_schema_matches_the_data() {
    let schema = serde_json::to_value(Payload::schema()).unwrap();
    assert_eq!(
        schema["properties"]["data"],
        json!({"description": "Go's []byte: base64.", "format": "byte", "type": "string"})
    );
    assert_eq!(schema["properties"]["tags"]["default"], json!(["a", "b"]));
    assert_eq!(schema["required"], json!(["data"]));
}

/// controller-gen's package-level `+kubebuilder:validation:Optional`, on a struct.
#[derive(Schema)]
#[validate(optional)]
#[allow(dead_code)]
struct Loose {
    a: i32,
    #[validate(required)]
    b: i32,
}

#[test]
fn a_struct_can_make_its_fields_optional_by_default() {
    assert_eq!(Loose::schema().required, Some(vec!["b".to_owned()]));
}

/// A one-of constraint may name fields that are optional because their struct says so (Go: a
/// field without `omitempty` in a package marked optional).
#[derive(Schema)]
#[validate(optional)]
#[validate(exactly_one_of = ["git", "oci"])]
#[allow(dead_code)]
struct Source {
    git: String,
    oci: String,
}

#[test]
fn a_one_of_may_name_fields_optional_by_the_structs_default() {
    let schema = Source::schema();
    assert_eq!(schema.required, None);
    assert_eq!(
        schema.x_kubernetes_validations.unwrap()[0].rule,
        "[has(self.git),has(self.oci)].filter(x,x==true).size() == 1"
    );
}

/// serde's container `default`: missing fields come from the struct's `Default` impl.
#[derive(Schema, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
struct Tuning {
    level: i32,
    mode: String,
}

impl Default for Tuning {
    fn default() -> Self {
        Tuning {
            level: 7,
            mode: "fast".into(),
        }
    }
}

#[test]
fn a_container_default_fills_missing_fields_from_the_default_impl() {
    let tuning: Tuning = serde_json::from_value(json!({"mode": "slow"})).unwrap();
    assert_eq!(
        tuning,
        Tuning {
            level: 7,
            mode: "slow".into()
        }
    );
    let schema = serde_json::to_value(Tuning::schema()).unwrap();
    assert_eq!(schema.get("required"), None);
}

/// A kind without a status.
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "example.com", version = "v1", kind = "Note")]
struct NoteSpec {
    text: String,
}

#[test]
fn a_kind_without_status_reads_objects_that_have_one() {
    let note: Note = serde_json::from_value(json!({
        "apiVersion": "example.com/v1",
        "kind": "Note",
        "metadata": {"name": "a"},
        "spec": {"text": "hi"},
        "status": {"anything": [1, 2]},
    }))
    .unwrap();
    assert_eq!(note.metadata.name.as_deref(), Some("a"));
    assert_eq!(note.spec.text, "hi");
}

#[test]
fn a_custom_resource_needs_its_spec_but_not_its_metadata() {
    let err = serde_json::from_value::<Note>(json!({"metadata": {}})).unwrap_err();
    assert_eq!(err.to_string(), "missing field `spec`");
    let note: Note = serde_json::from_value(json!({"spec": {"text": ""}})).unwrap();
    assert_eq!(note.metadata, Default::default());
    let err = serde_json::from_value::<Note>(json!(3)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "invalid type: integer `3`, expected a custom resource object"
    );
}

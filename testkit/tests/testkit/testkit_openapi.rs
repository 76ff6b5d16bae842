//! `/openapi/v2` and `/openapi/v3` as kube-apiserver serves them: documents per group-version
//! for built-in kinds and installed CRDs, content negotiation, ETags and `?hash=` URLs; and
//! strict field validation of built-in kinds against the same schemas.

use crate::testkit_common;

use bytes::Bytes;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use testkit_common::webapp_crd;
use webop_testkit::ApiServer;

struct Reply {
    status: u16,
    headers: http::HeaderMap,
    body: Bytes,
}

impl Reply {
    fn header(&self, name: &str) -> &str {
        self.headers
            .get(name)
            .map_or("", |v| v.to_str().unwrap_or_default())
    }

    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).expect("a JSON body")
    }
}

async fn send(
    server: &ApiServer,
    request: http::request::Builder,
    headers: &[(&str, &str)],
    body: Bytes,
) -> Reply {
    let mut request = request;
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let (parts, ()) = request.body(()).unwrap().into_parts();
    let response = server.service().respond(parts, body).await;
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.into_body().collect().await.unwrap().to_bytes();
    Reply {
        status,
        headers,
        body,
    }
}

async fn get(server: &ApiServer, uri: &str, headers: &[(&str, &str)]) -> Reply {
    send(server, http::Request::get(uri), headers, Bytes::new()).await
}

async fn post(server: &ApiServer, uri: &str, body: &Value) -> Reply {
    let json = [("content-type", "application/json")];
    send(
        server,
        http::Request::post(uri),
        &json,
        body.to_string().into(),
    )
    .await
}

/// The v3 discovery document's URL for a group-version.
async fn v3_url(server: &ApiServer, key: &str) -> String {
    let discovery = get(server, "/openapi/v3", &[]).await.json();
    discovery["paths"][key]["serverRelativeURL"]
        .as_str()
        .unwrap_or_else(|| panic!("no {key} in {discovery}"))
        .to_string()
}

#[tokio::test]
async fn v3_discovery_lists_every_group_version_with_the_hash_of_its_document() {
    let server = ApiServer::new();
    let discovery = get(&server, "/openapi/v3", &[]).await.json();
    for key in [
        "api/v1",
        "apis/apps/v1",
        "apis/rbac.authorization.k8s.io/v1",
    ] {
        assert!(discovery["paths"].get(key).is_some(), "{key}");
    }
    assert!(discovery["paths"].get("apis/app.example.com/v1").is_none());

    server.install_crd(webapp_crd()).unwrap();
    let url = v3_url(&server, "apis/app.example.com/v1").await;
    let document = get(&server, &url, &[]).await;
    assert_eq!(document.status, 200);
    let hash = url.split("hash=").nth(1).unwrap();
    assert_eq!(document.header("etag"), format!("\"{hash}\""));
    assert_eq!(document.header("cache-control"), "public, immutable");
    assert!(!document.header("expires").is_empty());
}

#[tokio::test]
async fn a_stale_hash_is_redirected_and_a_held_document_is_not_sent_again() {
    let server = ApiServer::new();
    let url = v3_url(&server, "apis/apps/v1").await;
    let stale = get(&server, "/openapi/v3/apis/apps/v1?hash=0BSOLETE", &[]).await;
    assert_eq!(stale.status, 301);
    assert_eq!(stale.header("location"), url);

    let fresh = get(&server, &url, &[]).await;
    let etag = fresh.header("etag").to_string();
    let held = get(
        &server,
        "/openapi/v3/apis/apps/v1",
        &[("if-none-match", &etag)],
    )
    .await;
    assert_eq!(held.status, 304);
    assert!(held.body.is_empty());
    let unhashed = get(&server, "/openapi/v3/apis/apps/v1", &[]).await;
    assert_eq!(unhashed.status, 200);
    assert_eq!(unhashed.header("cache-control"), "");

    let discovery = get(&server, "/openapi/v3", &[]).await;
    let held = [("if-none-match", discovery.header("etag"))];
    assert_eq!(get(&server, "/openapi/v3", &held).await.status, 304);
    server.install_crd(webapp_crd()).unwrap();
    let changed = get(&server, "/openapi/v3", &held).await;
    assert_eq!(
        changed.status, 200,
        "a new CRD changes the discovery document"
    );
}

#[tokio::test]
async fn media_types_are_negotiated_as_kube_openapi_does() {
    let server = ApiServer::new();
    let protobuf_v3 = [(
        "accept",
        "application/com.github.proto-openapi.spec.v3@v1.0+protobuf",
    )];
    assert_eq!(
        get(&server, "/openapi/v3/api/v1", &protobuf_v3)
            .await
            .status,
        406
    );
    assert_eq!(
        get(&server, "/openapi/v3/apis/nothing/v1", &[])
            .await
            .status,
        404
    );

    let protobuf_v2 = [(
        "accept",
        "application/com.github.proto-openapi.spec.v2@v1.0+protobuf",
    )];
    let binary = get(&server, "/openapi/v2", &protobuf_v2).await;
    assert_eq!(binary.status, 200);
    assert_eq!(
        binary.header("content-type"),
        "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"
    );
    // The Document message starts with field 1, `swagger`: "2.0".
    assert_eq!(&binary.body[..5], b"\x0a\x032.0");
    let json = get(&server, "/openapi/v2", &[("accept", "application/json")]).await;
    assert_eq!(json.header("etag"), binary.header("etag"));
    assert_eq!(json.json()["swagger"], "2.0");
    assert_eq!(
        get(&server, "/openapi/v2", &[("accept", "text/html")])
            .await
            .status,
        406
    );
}

#[tokio::test]
async fn a_crd_is_published_as_the_api_server_publishes_it() {
    let server = ApiServer::new();
    server.install_crd(webapp_crd()).unwrap();
    let url = v3_url(&server, "apis/app.example.com/v1").await;
    let document = get(&server, &url, &[]).await.json();
    let schemas = &document["components"]["schemas"];
    let webapp = &schemas["com.example.app.v1.WebApp"];
    assert_eq!(
        webapp["x-kubernetes-group-version-kind"],
        json!([{"group": "app.example.com", "kind": "WebApp", "version": "v1"}])
    );
    assert_eq!(
        webapp["properties"]["metadata"]["$ref"],
        "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
    assert_eq!(webapp["properties"]["spec"]["required"], json!(["image"]));
    let object_meta = &schemas["io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"];
    assert_eq!(object_meta["properties"]["labels"]["type"], "object");

    let item = &document["paths"]["/apis/app.example.com/v1/namespaces/{namespace}/webapps/{name}"];
    let patch = &item["patch"];
    assert_eq!(patch["x-kubernetes-group-version-kind"]["kind"], "WebApp");
    let parameters: Vec<&str> = patch["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert!(parameters.contains(&"fieldValidation"), "{parameters:?}");
    let content = patch["requestBody"]["content"].as_object().unwrap();
    assert!(content.contains_key("application/apply-patch+yaml"));
    assert!(!content.contains_key("application/strategic-merge-patch+json"));
    assert!(
        document["paths"]
            .get("/apis/app.example.com/v1/namespaces/{namespace}/webapps/{name}/status")
            .is_some()
    );

    let swagger = get(&server, "/openapi/v2", &[("accept", "application/json")])
        .await
        .json();
    let v2 = &swagger["definitions"]["com.example.app.v1.WebApp"];
    assert_eq!(
        v2["properties"]["metadata"]["$ref"],
        "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
    );
}

#[tokio::test]
async fn built_in_kinds_are_published_with_their_schemas_and_merge_keys() {
    let server = ApiServer::new();
    let url = v3_url(&server, "apis/apps/v1").await;
    let document = get(&server, &url, &[]).await.json();
    let deployment = &document["components"]["schemas"]["io.k8s.api.apps.v1.Deployment"];
    let spec = &deployment["properties"]["spec"];
    assert_eq!(spec["properties"]["replicas"]["format"], "int32");
    assert_eq!(spec["required"], json!(["selector", "template"]));
    let containers =
        &spec["properties"]["template"]["properties"]["spec"]["properties"]["containers"];
    assert_eq!(containers["x-kubernetes-patch-merge-key"], "name");
    let patch =
        &document["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"]["patch"];
    assert!(
        patch["requestBody"]["content"]
            .get("application/strategic-merge-patch+json")
            .is_some()
    );
    assert_eq!(patch["operationId"], "patchAppsV1NamespacedDeployment");
}

#[tokio::test]
async fn strict_field_validation_refuses_unknown_fields_of_built_in_kinds() {
    let server = ApiServer::new();
    let config_maps = "/api/v1/namespaces/default/configmaps";
    let typo = json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "typo"}, "date": {"a": "1"}});
    let refused = post(
        &server,
        &format!("{config_maps}?fieldValidation=Strict"),
        &typo,
    )
    .await;
    assert_eq!(refused.status, 400);
    assert_eq!(
        refused.json()["message"],
        r#"ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "date""#
    );
    assert_eq!(post(&server, config_maps, &typo).await.status, 201);

    // A complete Deployment, with its status, int-or-strings, quantities and embedded metadata,
    // passes.
    let deployment = json!({
        "apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "labels": {"app": "web"}},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "web"}},
            "strategy": {"rollingUpdate": {"maxSurge": "25%", "maxUnavailable": 1}},
            "template": {
                "metadata": {"labels": {"app": "web"}, "annotations": {"a": "b"}},
                "spec": {"containers": [{
                    "name": "nginx", "image": "nginx",
                    "ports": [{"containerPort": 80, "protocol": "TCP"}],
                    "resources": {"limits": {"cpu": "500m", "memory": "128Mi"}},
                    "env": [{"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]
                }]}
            }
        },
        "status": {"replicas": 2, "conditions": [{"type": "Available", "status": "True"}]}
    });
    let uri = "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict";
    let created = post(&server, uri, &deployment).await;
    assert_eq!(created.status, 201, "{}", created.json());
    let mut nested = deployment.clone();
    nested["metadata"]["name"] = json!("nested");
    nested["spec"]["template"]["spec"]["containers"][0]["imagePullPolice"] = json!("Always");
    let refused = post(&server, uri, &nested).await.json();
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .ends_with(r#"unknown field "spec.template.spec.containers[0].imagePullPolice""#),
        "{refused}"
    );
}

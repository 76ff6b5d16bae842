use super::*;
use serde_json::json;

#[test]
fn the_patch_adds_defaults_and_keeps_what_the_type_cannot_hold() {
    let raw = json!({
        "apiVersion": "app.example.com/v1", "kind": "WebApp",
        "metadata": {"name": "web", "creationTimestamp": null},
        "spec": {"image": "nginx", "futureField": 1, "ports": [80]},
    });
    // What a type without `futureField` and `creationTimestamp` decodes.
    let decoded = json!({
        "apiVersion": "app.example.com/v1", "kind": "WebApp",
        "metadata": {"name": "web"},
        "spec": {"image": "nginx", "ports": [80]},
    });
    let mut defaulted = decoded.clone();
    defaulted["spec"]["replicas"] = json!(1);
    defaulted["spec"]["ports"] = json!([80, 443]);
    defaulted["spec"]["image"] = json!("nginx:1.27");
    let patch = defaulting_patch(&raw, defaulted, || decoded);
    assert_eq!(
        serde_json::to_value(&patch).unwrap(),
        json!([
            {"op": "replace", "path": "/spec/image", "value": "nginx:1.27"},
            {"op": "add", "path": "/spec/ports/1", "value": 443},
            {"op": "add", "path": "/spec/replicas", "value": 1},
        ])
    );
    let mut applied = raw.clone();
    json_patch::patch(&mut applied, &patch).unwrap();
    assert_eq!(applied["spec"]["futureField"], 1, "unknown fields survive");
    assert_eq!(applied["spec"]["replicas"], 1);
}

#[test]
fn a_removal_the_defaulter_makes_is_kept() {
    let raw = json!({"spec": {"legacy": true, "image": "nginx"}});
    let defaulted = json!({"spec": {"image": "nginx"}});
    let patch = defaulting_patch(&raw, defaulted, || raw.clone());
    assert_eq!(
        serde_json::to_value(&patch).unwrap(),
        json!([{"op": "remove", "path": "/spec/legacy"}])
    );
    assert!(
        defaulting_patch(&raw, raw.clone(), || raw.clone())
            .0
            .is_empty()
    );
}

/// The object of issue 29's attack: tens of thousands of fields the type drops. Each
/// removal of the defaulted diff used to be searched for among the decoding's removals
/// (60,000 × 60,000 comparisons: minutes in a debug build); looked up by path, it is
/// linear (`manager/tests/hostile_load` times it in a whole webhook server).
#[test]
fn many_unknown_fields_are_kept_and_only_the_default_is_patched() {
    const UNKNOWN: usize = 60_000;
    let mut spec: serde_json::Map<String, Value> = (0..UNKNOWN)
        .map(|i| (format!("unknown{i:05}"), json!(i)))
        .collect();
    spec.insert("image".into(), json!("nginx"));
    let raw = json!({"metadata": {"name": "web"}, "spec": spec});
    let decoded = json!({"metadata": {"name": "web"}, "spec": {"image": "nginx"}});
    let mut defaulted = decoded.clone();
    defaulted["spec"]["replicas"] = json!(1);

    assert_eq!(RemovedByDecoding::between(&raw, &decoded).0.len(), UNKNOWN);
    let patch = defaulting_patch(&raw, defaulted, || decoded);
    assert_eq!(
        serde_json::to_value(&patch).unwrap(),
        json!([{"op": "add", "path": "/spec/replicas", "value": 1}])
    );
}

#[test]
fn responses_serialize_as_admission_v1() {
    let mut response = AdmissionResponse::allowed(vec!["replicas defaulted".into()]);
    response.uid = "u1".into();
    response.patch =
        Some(serde_json::from_value(json!([{"op": "add", "path": "/a", "value": 1}])).unwrap());
    response.patch_type = Some("JSONPatch");
    let json = serde_json::to_value(&response).unwrap();
    use base64::Engine;
    let patch = base64::engine::general_purpose::STANDARD
        .decode(json["patch"].as_str().unwrap())
        .unwrap();
    assert_eq!(
        serde_json::from_slice::<Value>(&patch).unwrap(),
        json!([{"op": "add", "path": "/a", "value": 1}])
    );
    assert_eq!(json["patchType"], "JSONPatch");
    assert_eq!(json["status"], json!({"code": 200}));
    assert_eq!(json["warnings"], json!(["replicas defaulted"]));
}

use serde_json::{Value, json};

use super::*;

const MANAGER: &str = "op-controller";

fn service(port: i64) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Service",
        "metadata": {"name": "demo-svc", "namespace": "default",
            "labels": {"app": "demo"},
            "ownerReferences": [{"apiVersion": "app.example.com/v1", "kind": "WebApp",
                "name": "demo", "uid": "u1", "controller": true, "blockOwnerDeletion": true}]},
        "spec": {"selector": {"app": "demo"}, "type": "ClusterIP",
            "ports": [{"name": "http", "port": port, "targetPort": port, "protocol": "TCP"}]},
    })
}

/// What a real kube-apiserver records for applying `service(port)`.
fn applied_fields(port: i64) -> Value {
    let key = format!("k:{{\"port\":{port},\"protocol\":\"TCP\"}}");
    json!({
        "f:metadata": {"f:labels": {"f:app": {}},
            "f:ownerReferences": {"k:{\"uid\":\"u1\"}": {}}},
        "f:spec": {"f:selector": {}, "f:type": {}, "f:ports": {key: {
            ".": {}, "f:name": {}, "f:port": {}, "f:protocol": {}, "f:targetPort": {}}}},
    })
}

/// `service(port)` as the API server stores it: defaults, other fields, our managed fields.
fn live(port: i64, fields: Value) -> Value {
    let mut live = service(port);
    live["metadata"]["uid"] = json!("s1");
    live["metadata"]["resourceVersion"] = json!("7");
    live["metadata"]["managedFields"] = json!([
        {"manager": MANAGER, "operation": "Apply", "apiVersion": "v1", "fieldsType": "FieldsV1",
         "fieldsV1": fields},
    ]);
    live["spec"]["clusterIP"] = json!("10.0.0.7");
    live["spec"]["sessionAffinity"] = json!("None");
    live
}

#[test]
fn an_unchanged_child_is_in_sync() {
    let drift = Drift::of(&service(8080), &live(8080, applied_fields(8080)), MANAGER);
    assert_eq!(
        drift,
        Drift {
            in_sync: true,
            foreign_lists: vec![]
        }
    );
}

#[test]
fn a_child_without_our_apply_entry_or_with_a_new_spec_is_applied() {
    let mut unowned = live(8080, applied_fields(8080));
    unowned["metadata"]["managedFields"] = json!([]);
    assert!(!Drift::of(&service(8080), &unowned, MANAGER).in_sync);
    assert!(!Drift::of(&service(9090), &live(8080, applied_fields(8080)), MANAGER).in_sync);
}

#[test]
fn a_field_the_owner_no_longer_sets_is_drift() {
    let mut fields = applied_fields(8080);
    fields["f:spec"]["f:sessionAffinity"] = json!({});
    assert!(!Drift::of(&service(8080), &live(8080, fields), MANAGER).in_sync);
}

#[test]
fn a_field_someone_else_removed_or_took_is_drift() {
    // `kubectl label svc demo-svc app-`: the label is gone, and from our set.
    let mut fields = applied_fields(8080);
    fields["f:metadata"]["f:labels"] = json!({});
    let mut edited = live(8080, fields);
    edited["metadata"]["labels"] = json!({});
    assert!(!Drift::of(&service(8080), &edited, MANAGER).in_sync);
    // A zero value someone deleted: the value check alone would accept it.
    let mut desired = service(8080);
    desired["spec"]["allocateLoadBalancerNodePorts"] = json!(false);
    let mut fields = applied_fields(8080);
    fields["f:spec"]["f:allocateLoadBalancerNodePorts"] = json!({});
    assert!(Drift::of(&desired, &live(8080, fields.clone()), MANAGER).in_sync);
    fields["f:spec"]
        .as_object_mut()
        .unwrap()
        .remove("f:allocateLoadBalancerNodePorts");
    assert!(!Drift::of(&desired, &live(8080, fields), MANAGER).in_sync);
}

#[test]
fn a_foreign_list_item_names_its_list() {
    // `kubectl patch --type merge` replaced the ports: ours is gone, a foreign one is there.
    let mut fields = applied_fields(8080);
    fields["f:spec"]["f:ports"] = json!({});
    let mut edited = live(8080, fields);
    edited["spec"]["ports"] =
        json!([{"name": "http", "port": 9999, "targetPort": 9999, "protocol": "TCP"}]);
    let drift = Drift::of(&service(8080), &edited, MANAGER);
    assert!(!drift.in_sync);
    assert_eq!(
        drift.foreign_lists,
        vec![vec!["spec".to_owned(), "ports".to_owned()]]
    );
    assert_eq!(
        at_path(&service(8080), &drift.foreign_lists[0]).unwrap()[0]["port"],
        8080
    );
}

#[test]
fn a_foreign_item_inside_an_item_names_the_outer_list() {
    let desired = json!({"spec": {"containers": [{"name": "app", "image": "nginx",
        "ports": [{"containerPort": 8080, "protocol": "TCP"}]}]}});
    let fields = json!({"f:spec": {"f:containers": {"k:{\"name\":\"app\"}": {".": {},
        "f:name": {}, "f:image": {}, "f:ports": {"k:{\"containerPort\":8080,\"protocol\":\"TCP\"}":
        {".": {}, "f:containerPort": {}, "f:protocol": {}}}}}}});
    let mut live = desired.clone();
    live["metadata"] = json!({"managedFields": [{"manager": MANAGER, "operation": "Apply",
        "fieldsV1": fields}]});
    assert!(Drift::of(&desired, &live, MANAGER).in_sync);
    live["spec"]["containers"][0]["ports"]
        .as_array_mut()
        .unwrap()
        .push(json!({"containerPort": 9999, "protocol": "TCP"}));
    let drift = Drift::of(&desired, &live, MANAGER);
    assert_eq!(
        drift.foreign_lists,
        vec![vec!["spec".to_owned(), "containers".to_owned()]]
    );
    // A sidecar is foreign too; a port without a protocol is keyed as TCP.
    let mut live = desired.clone();
    live["spec"]["containers"][0]["ports"][0]
        .as_object_mut()
        .unwrap()
        .remove("protocol");
    assert!(Drift::of(&desired, &live, MANAGER).foreign_lists.is_empty());
}

#[test]
fn set_lists_own_their_values() {
    let desired = json!({"metadata": {"finalizers": ["a", "b"]}});
    let fields = json!({"f:metadata": {"f:finalizers": {".": {}, "v:\"a\"": {}, "v:\"b\"": {}}}});
    let live = json!({"metadata": {"finalizers": ["a", "b"],
        "managedFields": [{"manager": MANAGER, "operation": "Apply", "fieldsV1": fields}]}});
    assert!(Drift::of(&desired, &live, MANAGER).in_sync);
    let fewer = json!({"metadata": {"finalizers": ["a"]}});
    assert!(!Drift::of(&fewer, &live, MANAGER).in_sync);
}

#[test]
fn an_old_item_of_our_own_is_not_foreign() {
    // The spec's port changed: apply removes the old entry, as this manager owns it.
    let drift = Drift::of(&service(9090), &live(8080, applied_fields(8080)), MANAGER);
    assert!(!drift.in_sync);
    assert!(drift.foreign_lists.is_empty());
}

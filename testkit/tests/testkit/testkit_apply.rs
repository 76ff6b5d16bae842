//! Server-side apply: managedFields per manager, conflicts with Kubernetes' message, `force`,
//! shared ownership, removal of fields a manager stops applying, list-map merges by key, and
//! status-only applies. Every test is a `scenario!`: the same body runs on the testkit and on a
//! real kube-apiserver.

use crate::testkit_common;

use k8s_openapi::api::apps::v1::Deployment;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use serde_json::{Value, json};
use testkit_common::{environment, plain, status_of, webapp, webapp_crd, webapps};

fn apply(manager: &str) -> PatchParams {
    PatchParams::apply(manager)
}

fn fields_of(object: &impl ResourceExt, manager: &str, subresource: Option<&str>) -> Value {
    let entry = object
        .managed_fields()
        .iter()
        .find(|m| m.manager.as_deref() == Some(manager) && m.subresource.as_deref() == subresource)
        .unwrap_or_else(|| panic!("no managedFields entry for {manager}"));
    entry
        .fields_v1
        .as_ref()
        .map(|f| f.0.clone())
        .unwrap_or_default()
}

fn cm(data: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "cfg"}, "data": data})
}

scenario!(apply_creates_and_records_ownership, async |backend| {
    let env = plain(backend).await;
    let api: Api<ConfigMap> = Api::default_namespaced(env.client());
    let created = api
        .patch("cfg", &apply("alice"), &Patch::Apply(cm(json!({"a": "1"}))))
        .await
        .unwrap();
    assert_eq!(created.data.as_ref().unwrap()["a"], "1");
    assert_eq!(
        fields_of(&created, "alice", None),
        json!({"f:data": {"f:a": {}}})
    );
    assert_eq!(
        created.managed_fields()[0].operation.as_deref(),
        Some("Apply")
    );

    // Re-applying the same configuration changes nothing, not even the resourceVersion.
    let again = api
        .patch("cfg", &apply("alice"), &Patch::Apply(cm(json!({"a": "1"}))))
        .await
        .unwrap();
    assert_eq!(again.resource_version(), created.resource_version());

    let missing_manager = status_of(
        api.patch("cfg", &PatchParams::default(), &Patch::Apply(cm(json!({}))))
            .await,
    );
    assert_eq!(missing_manager.code, 422);
    assert!(
        missing_manager
            .message
            .contains("fieldManager: Required value"),
        "{}",
        missing_manager.message
    );
});

scenario!(
    conflicts_name_the_manager_and_field_and_force_takes_over,
    async |backend| {
        let env = plain(backend).await;
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        api.patch(
            "cfg",
            &apply("alice"),
            &Patch::Apply(cm(json!({"a": "1", "b": "1"}))),
        )
        .await
        .unwrap();

        // The same value is shared ownership, not a conflict.
        let shared = api
            .patch("cfg", &apply("bob"), &Patch::Apply(cm(json!({"a": "1"}))))
            .await
            .unwrap();
        assert_eq!(
            fields_of(&shared, "bob", None),
            json!({"f:data": {"f:a": {}}})
        );

        let status = status_of(
            api.patch(
                "cfg",
                &apply("bob"),
                &Patch::Apply(cm(json!({"a": "2", "b": "2"}))),
            )
            .await,
        );
        assert_eq!(status.code, 409);
        assert_eq!(status.reason, "Conflict");
        assert_eq!(
            status.message,
            "Apply failed with 2 conflicts: conflicts with \"alice\":\n- .data.a\n- .data.b"
        );
        let causes: Vec<(String, String)> = status
            .details
            .unwrap()
            .causes
            .into_iter()
            .map(|c| (c.field, c.message))
            .collect();
        assert_eq!(
            causes[0],
            (".data.a".to_string(), "conflict with \"alice\"".to_string())
        );

        let single = status_of(
            api.patch(
                "cfg",
                &apply("bob"),
                &Patch::Apply(cm(json!({"a": "1", "b": "3"}))),
            )
            .await,
        );
        assert_eq!(
            single.message,
            "Apply failed with 1 conflict: conflict with \"alice\": .data.b"
        );

        let forced = api
            .patch(
                "cfg",
                &apply("bob").force(),
                &Patch::Apply(cm(json!({"a": "2", "b": "2"}))),
            )
            .await
            .unwrap();
        assert_eq!(forced.data.as_ref().unwrap()["a"], "2");
        assert!(
            forced
                .managed_fields()
                .iter()
                .all(|m| m.manager.as_deref() != Some("alice")),
            "alice lost every field"
        );
        assert_eq!(
            fields_of(&forced, "bob", None),
            json!({"f:data": {"f:a": {}, "f:b": {}}})
        );
    }
);

scenario!(
    updates_take_ownership_and_conflict_with_appliers,
    async |backend| {
        let env = plain(backend).await;
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        api.patch("cfg", &apply("alice"), &Patch::Apply(cm(json!({"a": "1"}))))
            .await
            .unwrap();
        let params = PatchParams {
            field_manager: Some("kubectl-edit".into()),
            ..Default::default()
        };
        let edited = api
            .patch(
                "cfg",
                &params,
                &Patch::Merge(json!({"data": {"a": "edited"}})),
            )
            .await
            .unwrap();
        let edit = edited
            .managed_fields()
            .iter()
            .find(|m| m.manager.as_deref() == Some("kubectl-edit"))
            .unwrap();
        assert_eq!(edit.operation.as_deref(), Some("Update"));
        let status = status_of(
            api.patch("cfg", &apply("alice"), &Patch::Apply(cm(json!({"a": "1"}))))
                .await,
        );
        // An update manager is named with its apiVersion (the identifier has no time).
        assert_eq!(
            status.message,
            "Apply failed with 1 conflict: conflict with \"kubectl-edit\" using v1: .data.a"
        );
    }
);

scenario!(
    fields_a_manager_stops_applying_are_removed_unless_owned_by_others,
    async |backend| {
        let env = plain(backend).await;
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        api.patch(
            "cfg",
            &apply("alice"),
            &Patch::Apply(cm(json!({"a": "1", "b": "1", "c": "1"}))),
        )
        .await
        .unwrap();
        api.patch("cfg", &apply("bob"), &Patch::Apply(cm(json!({"c": "1"}))))
            .await
            .unwrap();
        let after = api
            .patch("cfg", &apply("alice"), &Patch::Apply(cm(json!({"a": "1"}))))
            .await
            .unwrap();
        let data = after.data.unwrap();
        assert_eq!(
            data.keys().collect::<Vec<_>>(),
            ["a", "c"],
            "b was removed; c stays, bob still owns it"
        );
    }
);

scenario!(list_maps_merge_by_key_across_managers, async |backend| {
    let env = plain(backend).await;
    let api: Api<Deployment> = Api::default_namespaced(env.client());
    let deployment = |containers: Value| {
        json!({
            "apiVersion": "apps/v1",
            "kind": "Deployment",
            "metadata": {"name": "web"},
            "spec": {"selector": {"matchLabels": {"app": "web"}}, "template": {"metadata": {"labels": {"app": "web"}}, "spec": {"containers": containers}}}
        })
    };
    api.patch(
        "web",
        &apply("app-team"),
        &Patch::Apply(deployment(
            json!([{"name": "app", "image": "app:1", "ports": [{"containerPort": 8080}]}]),
        )),
    )
    .await
    .unwrap();
    let both = api
        .patch(
            "web",
            &apply("mesh"),
            &Patch::Apply(deployment(json!([{"name": "proxy", "image": "envoy:1"}]))),
        )
        .await
        .unwrap();
    let names: Vec<String> = both
        .spec
        .template
        .spec
        .as_ref()
        .unwrap()
        .containers
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(names, ["app", "proxy"]);
    let mesh_fields = fields_of(&both, "mesh", None);
    assert!(
        mesh_fields["f:spec"]["f:template"]["f:spec"]["f:containers"]
            .get("k:{\"name\":\"proxy\"}")
            .is_some(),
        "{mesh_fields}"
    );

    // Each manager dropping its own container removes only that one.
    let pruned = api
        .patch("web", &apply("mesh"), &Patch::Apply(deployment(json!([]))))
        .await
        .unwrap();
    let names: Vec<String> = pruned
        .spec
        .template
        .spec
        .as_ref()
        .unwrap()
        .containers
        .iter()
        .map(|c| c.name.clone())
        .collect();
    assert_eq!(names, ["app"]);
    // A different image for someone else's container conflicts, naming the keyed path.
    let status = status_of(
        api.patch(
            "web",
            &apply("mesh"),
            &Patch::Apply(deployment(json!([{"name": "app", "image": "app:2"}]))),
        )
        .await,
    );
    assert_eq!(
        status.message,
        "Apply failed with 1 conflict: conflict with \"app-team\": .spec.template.spec.containers[name=\"app\"].image"
    );
});

scenario!(
    status_applies_touch_only_status_and_merge_conditions_by_type,
    async |backend| {
        let env = environment(backend)
            .crd(webapp_crd())
            .start()
            .await
            .unwrap();
        let api = webapps(env.client(), "default");
        api.create(
            &PostParams::default(),
            &webapp("web", json!({"image": "nginx"})),
        )
        .await
        .unwrap();
        let status = |conditions: Value| json!({"apiVersion": "app.example.com/v1", "kind": "WebApp", "spec": {"replicas": 7}, "status": {"phase": "Running", "conditions": conditions}});
        let ready = status(json!([{"type": "Ready", "status": "True"}]));
        let first: DynamicObject = api
            .patch_status("web", &apply("ready-controller"), &Patch::Apply(&ready))
            .await
            .unwrap();
        assert_eq!(
            first.data["spec"]["replicas"], 1,
            "a status apply cannot change spec"
        );
        assert_eq!(
            fields_of(&first, "ready-controller", Some("status"))["f:status"]["f:conditions"]["k:{\"type\":\"Ready\"}"]
                ["f:status"],
            json!({})
        );

        let degraded = json!({"apiVersion": "app.example.com/v1", "kind": "WebApp", "status": {"conditions": [{"type": "Degraded", "status": "False"}]}});
        let second: DynamicObject = api
            .patch_status("web", &apply("health-controller"), &Patch::Apply(&degraded))
            .await
            .unwrap();
        let types: Vec<&str> = second.data["status"]["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["type"].as_str().unwrap())
            .collect();
        assert_eq!(types, ["Ready", "Degraded"]);
        assert_eq!(second.metadata.generation, Some(1));

        // A main-resource apply ignores status.
        let main = json!({"apiVersion": "app.example.com/v1", "kind": "WebApp", "spec": {"image": "nginx", "replicas": 2}, "status": {"phase": "Failed"}});
        let third: DynamicObject = api
            .patch("web", &apply("deployer").force(), &Patch::Apply(&main))
            .await
            .unwrap();
        assert_eq!(
            (
                third.data["spec"]["replicas"].clone(),
                third.data["status"]["phase"].clone()
            ),
            (json!(2), json!("Running"))
        );
        assert_eq!(third.metadata.generation, Some(2));
    }
);

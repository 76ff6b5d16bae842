//! `kubectl get` asks for a `Table`: the server answers with the CRD's printer columns, so
//! `#[printcolumn]`s show as they will on a cluster. Every test is a `scenario!`: the same body
//! runs on the testkit and on a real kube-apiserver.

use crate::webapp;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, ObjectMeta, PostParams};
use serde_json::{Value, json};
use webapp::{WebApp, WebAppSpec};

use crate::testkit_common;

use testkit_common::{environment, known_difference, plain};

const TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json";

async fn get_table(client: &kube::Client, path: &str) -> Value {
    let request = http::Request::get(path)
        .header(http::header::ACCEPT, TABLE)
        .body(Vec::new())
        .unwrap();
    client.request::<Value>(request).await.unwrap()
}

fn names(table: &Value) -> Vec<&str> {
    table["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect()
}

scenario!(
    custom_resources_are_rows_of_their_printer_columns,
    async |backend| {
        let env = environment(backend)
            .crd(WebApp::crd())
            .start()
            .await
            .unwrap();
        let api: Api<WebApp> = Api::namespaced(env.client(), "default");
        let spec = WebAppSpec {
            image: "nginx:1.25".into(),
            replicas: 3,
            port: 80,
            resources: None,
        };
        api.create(&PostParams::default(), &WebApp::new("demo", spec))
            .await
            .unwrap();

        let table = get_table(
            &env.client(),
            "/apis/app.example.com/v1/namespaces/default/webapps",
        )
        .await;
        assert_eq!(table["kind"], "Table");
        assert_eq!(
            names(&table),
            ["Name", "Image", "Replicas", "Available", "Phase", "Age"]
        );
        let row = &table["rows"][0];
        let cells = row["cells"].as_array().unwrap();
        assert_eq!(
            cells[..4],
            [json!("demo"), json!("nginx:1.25"), json!(3), Value::Null]
        );
        assert_eq!(cells[4], Value::Null, "no status yet");
        let age = cells[5].as_str().unwrap();
        assert!(age.ends_with('s'), "{age}");
        assert_eq!(row["object"]["kind"], "PartialObjectMetadata");
        assert!(table["metadata"]["resourceVersion"].is_string(), "{table}");

        let one = get_table(
            &env.client(),
            "/apis/app.example.com/v1/namespaces/default/webapps/demo",
        )
        .await;
        assert_eq!(one["rows"].as_array().unwrap().len(), 1);
    }
);

// A known difference: kube-apiserver prints each built-in kind's own columns (a ConfigMap's
// Data count); the testkit prints Name and Age only.
scenario!(built_in_kinds_get_name_and_age, async |backend| {
    let env = plain(backend).await;
    let api: Api<ConfigMap> = Api::namespaced(env.client(), "default");
    let config_map = ConfigMap {
        metadata: ObjectMeta {
            name: Some("settings".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    api.create(&PostParams::default(), &config_map)
        .await
        .unwrap();
    let table = get_table(&env.client(), "/api/v1/namespaces/default/configmaps").await;
    assert_eq!(
        names(&table),
        known_difference(&env, vec!["Name", "Data", "Age"], vec!["Name", "Age"])
    );
    assert_eq!(table["rows"][0]["cells"][0], "settings");
});

scenario!(
    a_table_watch_sends_one_row_per_event_and_the_columns_once,
    async |backend| {
        use futures::{StreamExt, TryStreamExt};
        use kube::api::WatchEvent;

        let env = environment(backend)
            .crd(WebApp::crd())
            .start()
            .await
            .unwrap();
        let api: Api<WebApp> = Api::namespaced(env.client(), "default");
        for name in ["one", "two"] {
            let spec = WebAppSpec {
                image: "nginx".into(),
                replicas: 1,
                port: 80,
                resources: None,
            };
            api.create(&PostParams::default(), &WebApp::new(name, spec))
                .await
                .unwrap();
        }
        let request =
            http::Request::get("/apis/app.example.com/v1/webapps?watch=true&resourceVersion=0")
                .header(http::header::ACCEPT, TABLE)
                .body(Vec::new())
                .unwrap();
        let events = env.client().request_events::<Value>(request).await.unwrap();
        let tables: Vec<Value> = events
            .take(2)
            .map_ok(|event| match event {
                WatchEvent::Added(table) => table,
                other => panic!("{other:?}"),
            })
            .try_collect()
            .await
            .unwrap();
        assert_eq!(tables[0]["kind"], "Table");
        assert_eq!(names(&tables[0]).len(), 6);
        assert!(tables[1]["columnDefinitions"].is_null(), "{}", tables[1]);
        let rows: Vec<&Value> = tables.iter().map(|t| &t["rows"][0]["cells"][0]).collect();
        assert_eq!(rows, [&json!("one"), &json!("two")]);
    }
);

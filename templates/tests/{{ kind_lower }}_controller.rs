//! Offline tests of the {{ kind }} controller, against an in-memory API server
//! (`webop::testkit`) on a paused clock.

use std::time::Duration;

use kube::Resource;
use kube::api::{Api, PostParams};
use webop::manager::{Manager, Options};
use webop::testkit::ApiServer;

use {{ crate_name }}::controller::{{ kind_lower }}_controller;
use {{ api_crate }}::{{ version }}::{ {{- kind }}, {{ kind }}Spec};

#[test]
fn the_kind_is_served_where_the_controller_watches_it() {
    assert_eq!({{ kind }}::group(&()), "{{ group_domain }}");
    assert_eq!({{ kind }}::version(&()), "{{ version }}");
    assert_eq!({{ kind }}::plural(&()), "{{ plural }}");
}

#[tokio::test(start_paused = true)]
async fn a_new_{{ kind_lower }}_is_reconciled() {
    let server = ApiServer::new();
    server.install_crd({{ kind }}::crd()).unwrap();
    let manager = Manager::with_client(server.client(), Options::default(), "test");
    let controller = tokio::spawn({{ kind_lower }}_controller::run(manager.clone()));

    let spec = {{ kind }}Spec {
        foo: Some("bar".to_owned()),
    };
{%- if namespaced %}
    let api = Api::<{{ kind }}>::namespaced(server.client(), "default");
{%- else %}
    let api = Api::<{{ kind }}>::all(server.client());
{%- endif %}
    api.create(&PostParams::default(), &{{ kind }}::new("sample", spec))
        .await
        .unwrap();
    let reconciled = format!(
        {% raw %}"reconcile_total{{controller=\"{}\",result=\"success\"}} 1",{% endraw %}
        {{ kind_lower }}_controller::NAME
    );
    let waiting = async {
        while !manager.metrics().encode().lines().any(|l| l == reconciled) {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(60), waiting)
        .await
        .expect("the new object is reconciled once");

    manager.shutdown();
    controller.await.unwrap();
}

// TODO(user): test what the reconcile does: create objects through the testkit's client, then
// wait (bounded) for the state the controller should reach (see `webop create api --image`).

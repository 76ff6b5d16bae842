//! Tests of the {{ kind }} controller: on a real kube-apiserver when `KUBEBUILDER_ASSETS` names
//! its binaries (`make setup-envtest`), otherwise offline on webop's in-memory API server, on a
//! paused clock (a simulated minute takes no time).

use std::time::Duration;

use kube::Resource;
use kube::api::{Api, PostParams};
use webop::envtest::Environment;
use webop::manager::{Manager, Options};

use {{ crate_name }}::controller::{{ controller_module }};
use {{ api_crate }}::{{ version_module }} as {{ api_alias }};

#[test]
fn the_kind_is_served_where_the_controller_watches_it() {
    assert_eq!({{ api_alias }}::{{ kind }}::group(&()), "{{ group_domain }}");
    assert_eq!({{ api_alias }}::{{ kind }}::version(&()), "{{ version }}");
    assert_eq!({{ api_alias }}::{{ kind }}::plural(&()), "{{ plural }}");
}

#[tokio::test]
async fn a_new_{{ kind_lower }}_is_reconciled() {
    let env = Environment::builder()
        .crd_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/config/crd/bases"))
        .paused_clock()
        .start()
        .await
        .expect("the test API server starts");
    let manager = Manager::with_client(env.client(), Options::default(), "test");
    let controller = tokio::spawn({{ controller_file }}_controller::run(manager.clone()));

    let spec = {{ api_alias }}::{{ kind }}Spec {
        foo: Some("bar".to_owned()),
    };
{%- if namespaced %}
    let api = Api::<{{ api_alias }}::{{ kind }}>::namespaced(env.client(), "default");
{%- else %}
    let api = Api::<{{ api_alias }}::{{ kind }}>::all(env.client());
{%- endif %}
    api.create(&PostParams::default(), &{{ api_alias }}::{{ kind }}::new("sample", spec))
        .await
        .unwrap();
    let reconciled = format!(
        {% raw %}"controller_runtime_reconcile_total{{controller=\"{}\",result=\"success\"}} 1",{% endraw %}
        {{ controller_file }}_controller::NAME
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

// TODO(user): test what the reconcile does: create objects through the environment's client,
// then wait (bounded) for the state the controller should reach (see `webop create api --image`).

//! Tests of the {{ kind }} controller, for a kind this project does not define
//! (`{{ api_crate }}::{{ version_module }}::{{ kind }}`): on a real kube-apiserver when
//! `KUBEBUILDER_ASSETS` names its binaries (`make setup-envtest`), otherwise offline on webop's
//! in-memory API server, on a paused clock.

{% if core %}use std::time::Duration;

use {{ api_crate }}::{{ version_module }} as {{ api_alias }};
use kube::Resource;
use webop::envtest::Environment;
use webop::manager::{Manager, Options};

use {{ crate_name }}::controller::{{ controller_module }};
{% else %}use kube::Resource;

use {{ api_crate }}::{{ version_module }} as {{ api_alias }};
{% endif %}
#[test]
fn the_kind_is_the_one_the_controller_is_granted() {
    assert_eq!({{ api_alias }}::{{ kind }}::group(&()), "{{ group_domain }}");
    assert_eq!({{ api_alias }}::{{ kind }}::version(&()), "{{ version }}");
    assert_eq!({{ api_alias }}::{{ kind }}::plural(&()), "{{ plural }}");
}

{% if core %}#[tokio::test]
async fn the_controller_runs_until_the_manager_shuts_down() {
    let env = Environment::builder()
        .start()
        .await
        .expect("the test API server starts");
    if !env.is_real() {
        tokio::time::pause();
    }
    let manager = Manager::with_client(env.client(), Options::default(), "test");
    let controller = tokio::spawn({{ controller_file }}_controller::run(manager.clone()));
    tokio::time::sleep(Duration::from_secs(1)).await;
    assert!(!controller.is_finished(), "the controller stopped on its own");
    manager.shutdown();
    tokio::time::timeout(Duration::from_secs(30), controller)
        .await
        .expect("the controller stops with the manager")
        .unwrap();
}
{% else %}// The test API server does not serve {{ kind }}: its CRD is another project's (install it in the
// environment with `Environment::builder().crd_dir(...)` to run the controller against it).
{% endif %}
// TODO(user): test what the reconcile does: create {{ kind }}s through the environment's
// client, then wait (bounded) for the state the controller should reach.

//! A namespace-scoped project (`webop edit --namespaced`): its manager is granted a Role in its
//! own namespace only, and the scaffolded tests run it as that Role allows. On a real
//! kube-apiserver (`KUBEBUILDER_ASSETS`), where RBAC is enforced, this is what proves that the
//! Role is enough for a manager that watches one namespace.

use crate::support;

use support::{
    build_test_and_lint, create_webapp, init_webapp, manifests, project_dir, run_ok, workspace,
};

#[test]
fn a_namespaced_project_passes_its_tests_with_its_role() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    run_ok(&dir, &["edit", "--namespaced"]);
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    manifests(&dir);
    let role = std::fs::read_to_string(dir.join("config/rbac/role.yaml")).unwrap();
    assert!(
        role.contains("kind: Role\n") && !role.contains("kind: ClusterRole"),
        "{role}"
    );
    build_test_and_lint(&dir);
}

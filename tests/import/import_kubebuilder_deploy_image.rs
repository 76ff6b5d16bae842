//! `webop import kubebuilder` of the deploy-image plugin's kinds (issue 25 item 5):
//! project-v4-with-plugins' Memcached and Busybox are `create api --image ... --kubebuilder-spec`
//! with the plugin's options, so their controllers are webop's deploy-image controller on
//! kubebuilder's spec. (Equal manifests, the build and the controllers' tests:
//! `kubebuilder_reference_projects_import_with_their_committed_manifests_and_build`.)

use crate::support;

use support::{read, run_ok, workspace};

#[test]
fn project_v4_with_plugins_deploy_image_kinds_get_the_deploy_image_controller_with_the_options() {
    let go_project = workspace().join("../shared/kubebuilder-projects/project-v4-with-plugins");
    if !go_project.join("PROJECT").is_file() {
        eprintln!("skipped: no {}", go_project.display());
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("imported");
    let args = [
        "import",
        "kubebuilder",
        go_project.to_str().unwrap(),
        out.to_str().unwrap(),
    ];
    let report = run_ok(temp.path(), &args);
    assert!(
        report.contains(
            "Memcached example.com/v1alpha1: `webop create api --image memcached:1.6.26-alpine3.19 \
             --port 11211 --run-as-user 1001 --container-command memcached,--memory-limit=64,-o,modern,-v \
             --kubebuilder-spec`"
        ),
        "{report}"
    );
    assert!(!report.contains("plain scaffold's controller"), "{report}");
    let project = read(&out, "PROJECT");
    assert!(
        project.contains(
            "      kind: Memcached\n      options:\n        containerCommand: \"memcached,--memory-limit=64,-o,modern,-v\"\n        \
             containerPort: \"11211\"\n        image: memcached:1.6.26-alpine3.19\n        kubebuilderSpec: true\n        runAsUser: \"1001\"\n"
        ),
        "{project}"
    );
    assert!(project.contains("      kind: Busybox\n      options:\n        image: busybox:1.36.1\n        kubebuilderSpec: true\n"));
    let memcached = read(&out, "src/controller/memcached_controller.rs");
    for line in [
        r#"pub const IMAGE: &str = "memcached:1.6.26-alpine3.19";"#,
        r#"pub const COMMAND: &[&str] = &["memcached", "--memory-limit=64", "-o", "modern", "-v"];"#,
        "            run_as_user: Some(1001),",
        "            container_port: spec.container_port,",
        "/// `internal/controller/memcached_controller.go`; the `#[rbac]` attributes are its `+kubebuilder:rbac` markers.",
    ] {
        assert!(memcached.contains(line), "{line} in:\n{memcached}");
    }
    let busybox = read(&out, "src/controller/busybox_controller.rs");
    assert!(
        busybox.contains(r#"pub const IMAGE: &str = "busybox:1.36.1";"#),
        "{busybox}"
    );
    assert!(
        !busybox.contains("COMMAND") && !busybox.contains("container_port"),
        "{busybox}"
    );
    // The Go types are the contract: kubebuilder's spec, not webop's image, replicas and port.
    let types = read(&out, "api/src/v1alpha1/memcached_types.rs");
    assert!(
        types.contains("pub size: i32,") && !types.contains("pub replicas"),
        "{types}"
    );
    assert!(read(&out, "tests/memcached_controller.rs").contains("memcached_controller::COMMAND"));
}

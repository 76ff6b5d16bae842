//! `webop create webhook` for Kubernetes' own kinds (kubebuilder's "webhooks for core types"):
//! the PROJECT entry kubebuilder records, the webhook module naming k8s-openapi's type, the
//! paths and groups of controller-runtime, the test's admitted object, and `delete webhook` as
//! the exact inverse. The project built and tested with them is in
//! `tests/projects/create_webhook_built.rs`.

use crate::support;

use support::{gvk_command, init_webapp, project_dir, read, refused, run_ok, tree};

const CREATE: [&str; 2] = ["create", "webhook"];

#[test]
fn a_pod_webhook_is_recorded_as_kubebuilder_records_it_and_names_k8s_openapis_type() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let before = tree(&dir);
    let pod = ["core", "v1", "Pod"];
    run_ok(&dir, &gvk_command(&CREATE, pod, &["--defaulting"]));

    let project = read(&dir, "PROJECT");
    assert!(
        project.contains(
            "- core: true\n  group: core\n  kind: Pod\n  path: k8s_openapi::api::core::v1\n  \
             version: v1\n  webhooks:\n    defaulting: true\n    webhookVersion: v1\n"
        ),
        "{project}"
    );
    let module = read(&dir, "src/webhook/v1/pod_webhook.rs");
    for line in [
        "use k8s_openapi::api::core::v1::Pod;",
        "webhooks = webhooks.defaulter::<Pod, _>(PodCustomDefaulter);",
        "path = \"/mutate--v1-pod\",",
        "groups = [\"\"],",
        "resources = [\"pods\"],",
        "name = \"mpod-v1.kb.io\",",
    ] {
        assert!(module.contains(line), "{line}: {module}");
    }
    let tests = read(&dir, "tests/pod_webhook.rs");
    // A Pod the API server admits, and only the Pod's webhooks: no CRD is needed.
    assert!(tests.contains("\"apiVersion\": \"v1\""), "{tests}");
    assert!(tests.contains("\"containers\": ["), "{tests}");
    assert!(
        tests.contains(".webhooks(setup(webop::webhook::Webhooks::new()))"),
        "{tests}"
    );
    assert!(!tests.contains("crd_dir"), "{tests}");
    let registry = read(&dir, "src/webhook/mod.rs");
    assert!(
        registry.contains("webhooks = v1::pod_webhook::setup(webhooks);"),
        "{registry}"
    );

    // The validator joins the same file; deleting both gives back the tree, PROJECT entry
    // included.
    run_ok(
        &dir,
        &gvk_command(&CREATE, pod, &["--programmatic-validation"]),
    );
    let module = read(&dir, "src/webhook/v1/pod_webhook.rs");
    assert!(module.contains("path = \"/validate--v1-pod\","), "{module}");
    run_ok(&dir, &gvk_command(&["delete", "webhook"], pod, &[]));
    assert_eq!(tree(&dir), before);
}

#[test]
fn a_deployment_with_a_controller_gets_its_webhooks_on_the_same_entry() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let deployment = ["apps", "v1", "Deployment"];
    let controller = ["--resource=false", "--controller"];
    run_ok(
        &dir,
        &gvk_command(&["create", "api"], deployment, &controller),
    );
    let with_controller = tree(&dir);
    run_ok(&dir, &gvk_command(&CREATE, deployment, &["--defaulting"]));
    let project = read(&dir, "PROJECT");
    assert_eq!(project.matches("kind: Deployment").count(), 1, "{project}");
    assert!(
        project.contains("- controller: true\n  core: true\n  group: apps\n"),
        "{project}"
    );
    let module = read(&dir, "src/webhook/v1/deployment_webhook.rs");
    assert!(module.contains("use k8s_openapi::api::apps::v1::Deployment;"));
    assert!(module.contains("groups = [\"apps\"],"), "{module}");
    // Deleting the webhook keeps the controller's entry.
    run_ok(&dir, &gvk_command(&["delete", "webhook"], deployment, &[]));
    assert_eq!(tree(&dir), with_controller);
}

#[test]
fn a_group_kubernetes_does_not_have_and_conversion_are_refused() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let unknown = refused(
        &dir,
        &gvk_command(&CREATE, ["ship", "v1", "Frigate"], &["--defaulting"]),
    );
    assert!(
        unknown.contains("the project has no kind Frigate in ship/v1, and ship is not one of"),
        "{unknown}"
    );
    let conversion = refused(
        &dir,
        &gvk_command(
            &CREATE,
            ["core", "v1", "Pod"],
            &["--conversion", "--spoke", "v2"],
        ),
    );
    assert!(
        conversion.contains("Pod is one of Kubernetes' own kinds, whose versions the API server"),
        "{conversion}"
    );
    let kind = refused(
        &dir,
        &gvk_command(&CREATE, ["core", "v1", "pod"], &["--defaulting"]),
    );
    assert!(kind.contains("\"pod\""), "{kind}");
}

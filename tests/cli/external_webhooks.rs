//! `webop create webhook` for external kinds (another operator's, kubebuilder's
//! `create webhook --external-api-path`): on the types `import crd --external` wrote, or on a
//! type named by its Rust module; the PROJECT entry kubebuilder records, controller-runtime's
//! paths and names, a project that builds and passes its tests with the webhook, refusals, and
//! `delete webhook` as the exact inverse.

use crate::support;

use support::{
    ISSUER_CRD, build_test_offline_and_lint, gvk_command, init_webapp, manifests, project_dir,
    read, refused, run_ok, tree,
};

const CREATE: [&str; 2] = ["create", "webhook"];
const ISSUER: [&str; 3] = ["cert-manager", "v1", "Issuer"];

fn import_issuer(dir: &std::path::Path) {
    std::fs::write(dir.join("cert-manager.io_issuers.yaml"), ISSUER_CRD).unwrap();
    run_ok(
        dir,
        &[
            "import",
            "crd",
            "--external",
            "cert-manager.io_issuers.yaml",
        ],
    );
}

#[test]
fn an_imported_external_kind_gets_webhooks_that_build_and_serve() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    import_issuer(&dir);
    let before = tree(&dir);
    let both = ["--defaulting", "--programmatic-validation"];
    run_ok(&dir, &gvk_command(&CREATE, ISSUER, &both));

    let project = read(&dir, "PROJECT");
    assert!(
        project.contains(
            "  domain: io\n  external: true\n  group: cert-manager\n  kind: Issuer\n  \
             path: webapp_operator_api::v1\n  version: v1\n  webhooks:\n    defaulting: true\n    \
             validation: true\n    webhookVersion: v1\n"
        ),
        "{project}"
    );
    let module = read(&dir, "src/webhook/v1/issuer_webhook.rs");
    for line in [
        "use webapp_operator_api::v1::Issuer;",
        "path = \"/mutate-cert-manager-io-v1-issuer\",",
        "path = \"/validate-cert-manager-io-v1-issuer\",",
        "groups = [\"cert-manager.io\"],",
        "resources = [\"issuers\"],",
        "name = \"missuer-v1.kb.io\",",
        "name = \"vissuer-v1.kb.io\",",
    ] {
        assert!(module.contains(line), "{line}: {module}");
    }
    // No CRD of the project's has the kind: its test installs the one its types describe and
    // serves the kind's webhooks alone.
    let tests = read(&dir, "tests/issuer_webhook.rs");
    assert!(tests.contains("..Issuer::crd_version()"), "{tests}");
    assert!(
        tests.contains(".webhooks(setup(webop::webhook::Webhooks::new()))"),
        "{tests}"
    );
    assert!(!tests.contains("crd_dir"), "{tests}");

    run_ok(&dir, &gvk_command(&["delete", "webhook"], ISSUER, &[]));
    assert_eq!(tree(&dir), before);

    run_ok(&dir, &gvk_command(&CREATE, ISSUER, &["--defaulting"]));
    manifests(&dir);
    let webhooks = read(&dir, "config/webhook/manifests.yaml");
    assert!(
        webhooks.contains("path: /mutate-cert-manager-io-v1-issuer\n"),
        "{webhooks}"
    );
    assert!(webhooks.contains("name: missuer-v1.kb.io\n"), "{webhooks}");
    assert!(
        !dir.join("config/crd/bases/cert-manager.io_issuers.yaml")
            .exists(),
        "an external kind has no CRD of the project's"
    );
    build_test_offline_and_lint(&dir);
}

#[test]
fn an_external_kind_named_by_its_module_is_recorded_as_kubebuilder_records_it() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let before = tree(&dir);
    let external = [
        "--defaulting",
        "--external-api-path",
        "cert_manager_types::v1",
        "--external-api-domain",
        "io",
    ];
    run_ok(&dir, &gvk_command(&CREATE, ISSUER, &external));
    let project = read(&dir, "PROJECT");
    assert!(
        project.contains(
            "- domain: io\n  external: true\n  group: cert-manager\n  kind: Issuer\n  \
             path: cert_manager_types::v1\n  version: v1\n  webhooks:\n    defaulting: true\n    \
             webhookVersion: v1\n"
        ),
        "{project}"
    );
    let module = read(&dir, "src/webhook/v1/issuer_webhook.rs");
    assert!(
        module.contains("use cert_manager_types::v1::Issuer;"),
        "{module}"
    );
    assert!(
        module.contains("path = \"/mutate-cert-manager-io-v1-issuer\","),
        "{module}"
    );
    // A second webhook type needs no flag: the entry has the path.
    run_ok(
        &dir,
        &gvk_command(&CREATE, ISSUER, &["--programmatic-validation"]),
    );
    run_ok(&dir, &gvk_command(&["delete", "webhook"], ISSUER, &[]));
    assert_eq!(tree(&dir), before);
}

#[test]
fn conversion_other_paths_and_bad_values_are_refused_naming_the_value_and_the_rule() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    import_issuer(&dir);
    let conversion = refused(
        &dir,
        &gvk_command(&CREATE, ISSUER, &["--conversion", "--spoke", "v2"]),
    );
    assert!(
        conversion.contains("Issuer is an external kind, whose CRD and its conversion are"),
        "{conversion}"
    );
    let elsewhere = refused(
        &dir,
        &gvk_command(
            &CREATE,
            ISSUER,
            &[
                "--defaulting",
                "--external-api-path",
                "cert_manager_types::v1",
            ],
        ),
    );
    assert!(
        elsewhere.contains(
            "invalid external-api-path \"cert_manager_types::v1\": the project already has \
             Issuer cert-manager/v1 as an external kind at webapp_operator_api::v1"
        ),
        "{elsewhere}"
    );
    let bad_path = refused(
        &dir,
        &gvk_command(
            &CREATE,
            ["acme", "v1", "Order"],
            &["--defaulting", "--external-api-path", "acme-types/v1"],
        ),
    );
    assert!(
        bad_path.contains("invalid external-api-path \"acme-types/v1\""),
        "{bad_path}"
    );
    let bad_domain = refused(
        &dir,
        &gvk_command(
            &CREATE,
            ["acme", "v1", "Order"],
            &[
                "--defaulting",
                "--external-api-path",
                "acme::v1",
                "--external-api-domain",
                "Not_A_Domain",
            ],
        ),
    );
    assert!(bad_domain.contains("\"Not_A_Domain\""), "{bad_domain}");
    let unknown = refused(
        &dir,
        &gvk_command(&CREATE, ["acme", "v1", "Order"], &["--defaulting"]),
    );
    assert!(
        unknown.contains("`webop import crd --external` its CRD, or name its Rust type's module with --external-api-path"),
        "{unknown}"
    );
}

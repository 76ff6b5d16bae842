//! `webop edit --multigroup[=false]`: a single-group project's APIs, controllers, tests and
//! roles moved to the multigroup layout and the paths that name them rewritten; back again to
//! the same bytes; refused, changing nothing, when a file needs a hand.

use crate::support;

use std::path::Path;

use support::{
    build_test_offline_and_lint, create_webapp, files, gvk_command, init_webapp, manifests,
    project_dir, read, refused, run_ok, workspace,
};

/// A copy of the golden WebApp project in a temporary directory.
fn golden_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let (temp, dir) = project_dir();
    for (path, bytes) in files(&workspace().join("testdata/webapp-operator")) {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
    (temp, dir)
}

fn create(dir: &Path, group: &str, version: &str, kind: &str) {
    run_ok(
        dir,
        &gvk_command(&["create", "api"], [group, version, kind], &[]),
    );
}

#[test]
fn the_golden_moves_to_multigroup_and_back_to_the_same_bytes() {
    let (_temp, dir) = golden_copy();
    let golden = files(&dir);

    let dry = run_ok(&dir, &["edit", "--multigroup", "--dry-run"]);
    assert!(dry.contains("moved api/src/v1/webapp_types.rs -> api/src/app/v1/webapp_types.rs"));
    assert_eq!(files(&dir), golden, "--dry-run wrote");

    let report = run_ok(&dir, &["edit", "--multigroup"]);
    for line in [
        "moved src/controller/webapp_controller.rs -> src/controller/app/webapp_controller.rs",
        "moved tests/webapp_controller.rs -> tests/app_webapp_controller.rs",
        "moved config/rbac/webapp_editor_role.yaml -> config/rbac/app_webapp_editor_role.yaml",
        "created api/src/app/mod.rs",
        "deleted api/src/v1/mod.rs",
        "updated api/src/lib.rs",
        "updated README.md",
    ] {
        assert!(report.lines().any(|l| l == line), "{line} in {report}");
    }
    assert!(read(&dir, "PROJECT").contains("\nmultigroup: true\n"));
    assert!(read(&dir, "PROJECT").contains("path: webapp_operator_api::app::v1\n"));
    let lib = read(&dir, "api/src/lib.rs");
    assert!(
        lib.contains("pub mod app;\n// +webop:scaffold:apiversions"),
        "{lib}"
    );
    assert!(
        lib.contains("        app::v1::WebApp::crd_version(),"),
        "{lib}"
    );
    let tests = read(&dir, "tests/app_webapp_controller.rs");
    assert!(tests.contains("use webapp_operator::controller::app::webapp_controller;"));
    assert!(tests.contains("use webapp_operator_api::app::v1 as appv1;"));
    assert!(!dir.join("api/src/v1").exists() && !dir.join("tests/webapp_controller.rs").exists());
    let role = read(&dir, "config/rbac/app_webapp_editor_role.yaml");
    assert!(role.contains("  name: app-webapp-editor-role\n"), "{role}");
    assert!(
        read(&dir, "config/rbac/kustomization.yaml").contains("\n- app_webapp_admin_role.yaml\n")
    );

    let again = run_ok(&dir, &["edit", "--multigroup"]);
    assert!(
        again.contains("The project is already multigroup."),
        "{again}"
    );

    run_ok(&dir, &["edit", "--multigroup=false"]);
    assert_eq!(
        files(&dir),
        golden,
        "back to single-group is not the golden"
    );
}

#[test]
fn the_cronjob_golden_with_webhooks_and_a_hand_written_module_moves_and_back() {
    let (_temp, dir) = project_dir();
    for (path, bytes) in files(&workspace().join("testdata/cronjob-operator")) {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
    let golden = files(&dir);
    let report = run_ok(&dir, &["edit", "--multigroup"]);
    for line in [
        "moved src/webhook/v1/cronjob_webhook.rs -> src/webhook/batch/v1/cronjob_webhook.rs",
        "moved api/src/v2/cronjob_conversion.rs -> api/src/batch/v2/cronjob_conversion.rs",
        "created config/crd/patches/webhook_in_batch_cronjobs.yaml",
        "updated src/jobs.rs",
    ] {
        assert!(report.lines().any(|l| l == line), "{line} in {report}");
    }
    // The user's own module and the spoke's conversion name the moved modules.
    let jobs = read(&dir, "src/jobs.rs");
    assert!(
        jobs.contains("use cronjob_operator_api::batch::v1::{"),
        "{jobs}"
    );
    assert!(
        jobs.contains("use k8s_openapi::api::batch::v1::Job;"),
        "{jobs}"
    );
    let spoke = read(&dir, "api/src/batch/v2/cronjob_conversion.rs");
    assert!(spoke.contains("use crate::batch::v1;"), "{spoke}");
    let webhooks = read(&dir, "src/webhook/mod.rs");
    assert!(
        webhooks.contains("pub mod batch {\n    pub mod v1;\n}")
            && webhooks.contains("batch::v1::cronjob_webhook::setup(webhooks)"),
        "{webhooks}"
    );
    run_ok(&dir, &["edit", "--multigroup=false"]);
    assert_eq!(
        files(&dir),
        golden,
        "back to single-group is not the golden"
    );
}

#[test]
fn a_file_webop_cannot_place_refuses_the_whole_edit() {
    let (_temp, dir) = project_dir();
    run_ok(&dir, &["init", "--domain", "example.com"]);
    create(&dir, "app", "v1", "Frigate");
    create(&dir, "web", "v1", "Captain");
    // The version module holds both groups' kinds: split by webop, as it wrote it.
    // A module of the user's in it cannot be split, nor can a path naming the version.
    std::fs::write(dir.join("api/src/v1/common.rs"), "pub struct Shared;\n").unwrap();
    std::fs::write(
        dir.join("src/fleet.rs"),
        "pub use webapp_operator_api::v1::Frigate;\n",
    )
    .unwrap();
    let stderr = refused(&dir, &["edit", "--multigroup", "--namespaced"]);
    for line in [
        "2 file(s) need a change webop cannot make safely; nothing was changed",
        "  api/src/v1/common.rs: api/src/v1/ holds kinds of the groups app, web",
        "  src/fleet.rs: names `webapp_operator_api::v1`, whose kinds the multigroup layout splits",
    ] {
        assert!(stderr.contains(line), "{line} in {stderr}");
    }

    // Without them, the shared version module is split by group.
    std::fs::remove_file(dir.join("api/src/v1/common.rs")).unwrap();
    std::fs::remove_file(dir.join("src/fleet.rs")).unwrap();
    run_ok(&dir, &["edit", "--multigroup"]);
    let app = read(&dir, "api/src/app/v1/mod.rs");
    assert!(
        app.contains("mod frigate_types;") && !app.contains("captain"),
        "{app}"
    );
    let web = read(&dir, "api/src/web/v1/mod.rs");
    assert!(
        web.contains("pub use captain_types::*;") && !web.contains("frigate"),
        "{web}"
    );

    let stderr = refused(&dir, &["edit", "--multigroup=false"]);
    assert!(
        stderr.contains("--multigroup=false: the project has kinds of the groups app, web"),
        "{stderr}"
    );
}

#[test]
fn a_moved_project_takes_the_same_kind_in_another_group_builds_and_passes_its_tests() {
    // Scaffolded rather than copied: `init` writes the machine-local .cargo/config.toml that
    // builds the project against this webop.
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    run_ok(&dir, &["edit", "--multigroup"]);
    create(&dir, "ship", "v1", "WebApp");
    assert!(
        dir.join("src/controller/ship/webapp_controller.rs")
            .is_file()
    );
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    manifests(&dir);
    assert!(
        dir.join("config/crd/bases/ship.example.com_webapps.yaml")
            .is_file()
    );
    // The layout is what is tested here: tests/cli/multigroup.rs runs a project with one kind in
    // two groups on the real server.
    build_test_offline_and_lint(&dir);
}

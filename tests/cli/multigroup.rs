//! kubebuilder's multigroup layout (`init --multigroup`): each group's API modules under
//! `api/src/<group>/<version>/`, its controllers under `src/controller/<group>/`, so two groups
//! may have kinds of the same name, as kubebuilder's testdata/project-v4-multigroup has.

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::{
    build_test_and_lint, gvk_command, kustomize, manifests, read, refused, run_ok, workspace,
};

/// A multigroup project: Frigate in apps/v1 and in ship/v1 (both with controllers), ship/v2
/// Frigate (a spoke), and crew/v1 Captain (the `--image` controller).
fn fleet() -> (tempfile::TempDir, std::path::PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("fleet-operator");
    std::fs::create_dir(&dir).unwrap();
    run_ok(
        &dir,
        &["init", "--domain", "testproject.org", "--multigroup"],
    );
    for (group, version, kind, more) in [
        ("apps", "v1", "Frigate", &[][..]),
        ("ship", "v1", "Frigate", &[]),
        ("ship", "v2", "Frigate", &["--controller=false"]),
        ("crew", "v1", "Captain", &["--image", "nginx:1.25"]),
    ] {
        let mut args = vec![
            "create",
            "api",
            "--group",
            group,
            "--version",
            version,
            "--kind",
            kind,
        ];
        args.extend(more);
        run_ok(&dir, &args);
    }
    (temp, dir)
}

#[test]
fn each_group_has_its_own_modules_files_and_names() {
    let (_temp, dir) = fleet();
    assert!(read(&dir, "PROJECT").contains("\nmultigroup: true\n"));
    for path in [
        "api/src/apps/mod.rs",
        "api/src/apps/v1/frigate_types.rs",
        "api/src/ship/v1/frigate_types.rs",
        "api/src/ship/v2/frigate_types.rs",
        "api/src/crew/v1/captain_types.rs",
        "src/controller/apps/frigate_controller.rs",
        "src/controller/ship/frigate_controller.rs",
        "src/controller/crew/captain_controller.rs",
        "tests/apps_frigate_controller.rs",
        "tests/ship_frigate_controller.rs",
        "config/rbac/apps_frigate_editor_role.yaml",
        "config/rbac/ship_frigate_editor_role.yaml",
        "config/samples/ship_v2_frigate.yaml",
    ] {
        assert!(dir.join(path).is_file(), "{path} is missing");
    }
    assert!(!dir.join("api/src/v1").exists());
    let lib = read(&dir, "api/src/lib.rs");
    assert!(
        lib.contains("pub mod apps;\npub mod crew;\npub mod ship;\n// +webop:scaffold:apiversions"),
        "{lib}"
    );
    assert!(
        lib.contains("        ship::v2::Frigate::crd_version(),\n"),
        "{lib}"
    );
    assert_eq!(
        read(&dir, "api/src/ship/mod.rs")
            .lines()
            .filter(|l| l.starts_with("pub mod"))
            .collect::<Vec<_>>(),
        ["pub mod v1;", "pub mod v2;"]
    );
    let controllers = read(&dir, "src/controller/mod.rs");
    assert!(
        controllers.contains("pub mod ship {\n    pub mod frigate_controller;\n}"),
        "{controllers}"
    );
    assert!(
        controllers.contains("        ship::frigate_controller::run(manager.clone()),"),
        "{controllers}"
    );
    // controller-runtime needs unique controller names; kubebuilder names them `<group>-<kind>`.
    let ship = read(&dir, "src/controller/ship/frigate_controller.rs");
    assert!(
        ship.contains("pub const NAME: &str = \"ship-frigate\";"),
        "{ship}"
    );
    assert!(
        ship.contains("use fleet_operator_api::ship::v1 as shipv1;"),
        "{ship}"
    );
    let role = read(&dir, "config/rbac/ship_frigate_editor_role.yaml");
    assert!(
        role.contains("  name: ship-frigate-editor-role\n"),
        "{role}"
    );
    let project = read(&dir, "PROJECT");
    assert!(
        project.contains("path: fleet_operator_api::ship::v2\n"),
        "{project}"
    );
    // The registrations the layout changes are as `cargo fmt` writes them.
    for file in [
        "api/src/lib.rs",
        "api/src/ship/mod.rs",
        "api/src/ship/v1/mod.rs",
        "src/controller/mod.rs",
    ] {
        rustfmt_clean(&dir, file);
    }
}

/// `file` is as rustfmt (edition 2024) writes it; through stdin, so that rustfmt checks this
/// file alone and does not follow its `mod`s.
fn rustfmt_clean(dir: &Path, file: &str) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    let mut rustfmt = Command::new("rustfmt")
        .args(["--edition", "2024", "--check"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("rustfmt is installed");
    let source = std::fs::read(dir.join(file)).unwrap();
    rustfmt.stdin.take().unwrap().write_all(&source).unwrap();
    let output = rustfmt.wait_with_output().unwrap();
    assert!(
        output.status.success(),
        "{file}:\n{}",
        String::from_utf8_lossy(&output.stdout)
    );
}

#[test]
fn create_then_delete_api_in_a_new_group_gives_back_the_tree() {
    let (_temp, dir) = fleet();
    let before = support::tree(&dir);
    let kind = [
        "--group",
        "sea-creatures",
        "--version",
        "v1beta1",
        "--kind",
        "Kraken",
    ];
    run_ok(&dir, &[&["create", "api"][..], &kind].concat());
    assert!(
        dir.join("api/src/sea_creatures/v1beta1/kraken_types.rs")
            .is_file()
    );
    assert!(
        dir.join("config/rbac/sea-creatures_kraken_admin_role.yaml")
            .is_file()
    );
    run_ok(&dir, &[&["delete", "api"][..], &kind].concat());
    assert_eq!(support::tree(&dir), before);
}

#[test]
fn create_then_delete_webhook_of_one_frigate_gives_back_the_tree() {
    let (_temp, dir) = fleet();
    let before = support::tree(&dir);
    let kind = ["--group", "ship", "--version", "v1", "--kind", "Frigate"];
    let more = ["--defaulting", "--conversion", "--spoke", "v2"];
    run_ok(&dir, &[&["create", "webhook"][..], &kind, &more].concat());
    assert!(dir.join("src/webhook/ship/v1/frigate_webhook.rs").is_file());
    assert!(
        dir.join("config/crd/patches/webhook_in_ship_frigates.yaml")
            .is_file()
    );
    run_ok(&dir, &[&["delete", "webhook"][..], &kind].concat());
    // The hub keeps the storage version create webhook marked; all else is as before.
    let types = "api/src/ship/v1/frigate_types.rs";
    let mut after = support::tree(&dir);
    let (mode, text) = after.remove(types).unwrap();
    let text = String::from_utf8(text.unwrap()).unwrap();
    assert!(text.contains("#[storage_version]\n"), "{text}");
    let unmarked = text.replacen("#[storage_version]\n", "", 1).into_bytes();
    let mut expected = before;
    assert_eq!(expected.remove(types), Some((mode, Some(unmarked))));
    assert_eq!(after, expected);
}

#[test]
fn a_kind_twice_in_one_group_and_version_is_still_refused() {
    let (_temp, dir) = fleet();
    let args = [
        "create",
        "api",
        "--group",
        "ship",
        "--version",
        "v1",
        "--kind",
        "Frigate",
    ];
    let stderr = refused(&dir, &args);
    assert!(
        stderr.contains("already has Frigate in ship.testproject.org/v1"),
        "{stderr}"
    );
    // A second controller of Frigate in the same group is refused; another group's is not.
    let stderr = refused(
        &dir,
        &gvk_command(&["create", "api"], ["ship", "v2", "Frigate"], &["--force"]),
    );
    assert!(stderr.contains("a kind has one controller"), "{stderr}");
    // Two groups whose modules would be the same directory.
    run_ok(
        &dir,
        &gvk_command(&["create", "api"], ["sea-life", "v1", "Kraken"], &[]),
    );
    let stderr = refused(
        &dir,
        &gvk_command(&["create", "api"], ["sea.life", "v1", "Squid"], &[]),
    );
    assert!(
        stderr.contains("its module would be `sea_life`, which group sea-life already has"),
        "{stderr}"
    );
}

#[test]
fn a_single_group_project_points_to_edit_multigroup_for_the_same_kind_in_two_groups() {
    let (_temp, dir) = support::project_dir();
    run_ok(&dir, &["init", "--domain", "testproject.org"]);
    run_ok(
        &dir,
        &gvk_command(&["create", "api"], ["apps", "v1", "Frigate"], &[]),
    );
    let stderr = refused(
        &dir,
        &gvk_command(&["create", "api"], ["ship", "v1", "Frigate"], &[]),
    );
    assert!(stderr.contains("webop edit --multigroup"), "{stderr}");
}

fn find<'a>(docs: &'a [Value], kind: &str, name: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["kind"] == kind && d["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name} in the build"))
}

#[test]
fn the_same_kind_in_two_groups_builds_passes_its_tests_and_lints() {
    let (_temp, dir) = fleet();
    for group in ["apps", "ship"] {
        run_ok(
            &dir,
            &gvk_command(
                &["create", "webhook"],
                [group, "v1", "Frigate"],
                &["--defaulting", "--programmatic-validation"],
            ),
        );
    }
    run_ok(
        &dir,
        &gvk_command(
            &["create", "webhook"],
            ["ship", "v1", "Frigate"],
            &["--conversion", "--spoke", "v2"],
        ),
    );
    assert!(dir.join("src/webhook/ship/v1/frigate_webhook.rs").is_file());
    assert!(dir.join("api/src/ship/v2/frigate_conversion.rs").is_file());
    assert!(dir.join("tests/ship_frigate_conversion.rs").is_file());
    rustfmt_clean(&dir, "src/webhook/mod.rs");

    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    manifests(&dir);
    for crd in [
        "config/crd/bases/apps.testproject.org_frigates.yaml",
        "config/crd/bases/ship.testproject.org_frigates.yaml",
        "config/crd/bases/crew.testproject.org_captains.yaml",
    ] {
        assert!(dir.join(crd).is_file(), "{crd}");
    }
    let webhooks = read(&dir, "config/webhook/manifests.yaml");
    for name in ["mapps-frigate-v1.kb.io", "mship-frigate-v1.kb.io"] {
        assert!(webhooks.contains(name), "{webhooks}");
    }
    // Both Frigates' roles and CRDs are objects of their own in the deployed tree.
    let docs = kustomize(&dir.join("config/default"));
    for group in ["apps", "ship"] {
        find(
            &docs,
            "CustomResourceDefinition",
            &format!("frigates.{group}.testproject.org"),
        );
        find(
            &docs,
            "ClusterRole",
            &format!("fleet-operator-{group}-frigate-editor-role"),
        );
    }
    build_test_and_lint(&dir);
}

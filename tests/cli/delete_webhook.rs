//! `webop delete webhook`: what `create webhook` wrote and edited goes again, the tree byte for
//! byte as before, one webhook type at a time or all of a kind's; nothing the user edited is
//! lost without `--force`; bad requests change nothing.

use crate::support;

use std::path::Path;

use support::{create_webapp, gvk_command, init_webapp, project_dir, refused, run_ok, tree};

const KIND: [&str; 6] = ["--group", "app", "--version", "v1", "--kind", "WebApp"];

fn webhook(dir: &Path, command: &str, more: &[&str]) -> String {
    let mut args = vec![command, "webhook"];
    args.extend(KIND);
    args.extend(more);
    run_ok(dir, &args)
}

fn refused_delete(dir: &Path, more: &[&str]) -> String {
    let mut args = vec!["delete", "webhook"];
    args.extend(KIND);
    args.extend(more);
    refused(dir, &args)
}

fn webapp() -> (tempfile::TempDir, std::path::PathBuf) {
    let (temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    (temp, dir)
}

#[test]
fn create_then_delete_gives_back_the_tree_byte_for_byte() {
    let (_temp, dir) = webapp();
    let initial = tree(&dir);

    webhook(
        &dir,
        "create",
        &["--defaulting", "--programmatic-validation"],
    );
    // What `make manifests` would have written from the #[webhook]s.
    std::fs::write(
        dir.join("config/webhook/manifests.yaml"),
        "# the webhooks\n",
    )
    .unwrap();
    let report = webhook(&dir, "delete", &[]);
    for line in [
        "deleted src/webhook/v1/webapp_webhook.rs",
        "deleted tests/webapp_webhook.rs",
        "deleted src/webhook/mod.rs",
        "deleted config/webhook/manifests.yaml",
        "updated config/default/kustomization.yaml",
        "updated Cargo.toml",
    ] {
        assert!(report.lines().any(|l| l == line), "{line} in {report}");
    }
    assert_eq!(tree(&dir), initial);

    // Created one type at a time, deleted one type at a time, in the other order.
    webhook(&dir, "create", &["--programmatic-validation"]);
    webhook(&dir, "create", &["--defaulting"]);
    webhook(&dir, "delete", &["--programmatic-validation"]);
    let module = std::fs::read_to_string(dir.join("src/webhook/v1/webapp_webhook.rs")).unwrap();
    assert!(
        module.contains("CustomDefaulter") && !module.contains("CustomValidator"),
        "{module}"
    );
    webhook(&dir, "delete", &["--defaulting"]);
    assert_eq!(tree(&dir), initial);
}

#[test]
fn a_conversion_goes_with_its_spokes_files_and_lines() {
    let (_temp, dir) = webapp();
    run_ok(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["app", "v2", "WebApp"],
            &["--controller=false"],
        ),
    );
    // A kind with two versions has a storage version (`make manifests` needs one): delete
    // webhook keeps it, so the tree is as before only when the user had marked it.
    let types = dir.join("api/src/v1/webapp_types.rs");
    let text = std::fs::read_to_string(&types).unwrap().replacen(
        "kind = \"WebApp\")]\n",
        "kind = \"WebApp\")]\n#[storage_version]\n",
        1,
    );
    std::fs::write(&types, text).unwrap();
    let initial = tree(&dir);

    webhook(&dir, "create", &["--conversion", "--spoke", "v2"]);
    let message = refused(
        &dir,
        &gvk_command(&["delete", "webhook"], ["app", "v2", "WebApp"], &[]),
    );
    assert!(
        message.contains("WebApp v2 is a spoke of the conversion webhook of its hub v1"),
        "{message}"
    );
    let message = refused(
        &dir,
        &gvk_command(&["delete", "api"], ["app", "v2", "WebApp"], &[]),
    );
    assert!(
        message
            .contains("`webop delete webhook --group app --version v1 --kind WebApp --conversion`"),
        "{message}"
    );

    let report = webhook(&dir, "delete", &["--conversion"]);
    for line in [
        "deleted api/src/v1/webapp_conversion.rs",
        "deleted api/src/v2/webapp_conversion.rs",
        "deleted tests/webapp_conversion.rs",
        "deleted config/crd/patches/webhook_in_webapps.yaml",
        "updated config/crd/kustomization.yaml",
    ] {
        assert!(report.lines().any(|l| l == line), "{line} in {report}");
    }
    assert_eq!(tree(&dir), initial);
}

#[test]
fn edited_files_bad_requests_and_dry_runs_change_nothing() {
    let (_temp, dir) = webapp();
    let message = refused_delete(&dir, &[]);
    assert!(message.contains("WebApp v1 has no webhook"), "{message}");

    webhook(&dir, "create", &["--defaulting"]);
    let message = refused_delete(&dir, &["--programmatic-validation"]);
    assert!(
        message.contains("WebApp v1 has no validation webhook; it has: defaulting"),
        "{message}"
    );
    let mut args = vec![
        "delete",
        "webhook",
        "--group",
        "app",
        "--version",
        "v1",
        "--kind",
    ];
    args.push("Frontend");
    let message = refused(&dir, &args);
    assert!(message.contains("no kind Frontend in app/v1"), "{message}");

    let before = tree(&dir);
    let report = webhook(&dir, "delete", &["--dry-run"]);
    assert!(
        report.contains("deleted src/webhook/v1/webapp_webhook.rs"),
        "{report}"
    );
    assert!(report.contains("dry run: no file was written"), "{report}");
    assert_eq!(tree(&dir), before);

    // The user filled the defaulter in: kept unless --force.
    let module = dir.join("src/webhook/v1/webapp_webhook.rs");
    let mut text = std::fs::read_to_string(&module).unwrap();
    text.push_str("\n// my defaulting rules\n");
    std::fs::write(&module, text).unwrap();
    let message = refused_delete(&dir, &[]);
    assert!(
        message.contains("src/webhook/v1/webapp_webhook.rs was edited")
            && message.contains("--force"),
        "{message}"
    );
    let report = webhook(&dir, "delete", &["--force"]);
    assert!(
        report.contains("deleted src/webhook/v1/webapp_webhook.rs (you had edited it"),
        "{report}"
    );
    assert!(!module.exists());
}

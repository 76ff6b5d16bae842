//! `webop delete api`: what `create api` wrote goes again, the tree byte for byte as before, and
//! nothing the user edited is lost without `--force`.

use crate::support;

use std::path::Path;

use support::{create_webapp, init_webapp, project_dir, refused, run_ok, tree};

fn kind_args<'a>(command: &'a str, group: &'a str, kind: &'a str) -> Vec<&'a str> {
    vec![
        command,
        "api",
        "--group",
        group,
        "--version",
        "v1",
        "--kind",
        kind,
    ]
}

fn delete(dir: &Path, group: &str, kind: &str) -> String {
    run_ok(dir, &kind_args("delete", group, kind))
}

/// `webop args` fails in `dir`, changes nothing, and says why.
#[test]
fn create_then_delete_gives_back_the_tree_byte_for_byte() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let initial = tree(&dir);

    create_webapp(&dir);
    // What `make manifests` would have written for the kind.
    std::fs::create_dir_all(dir.join("config/crd/bases")).unwrap();
    std::fs::write(
        dir.join("config/crd/bases/app.example.com_webapps.yaml"),
        "# the CRD\n",
    )
    .unwrap();
    let report = delete(&dir, "app", "WebApp");
    assert!(
        report.contains("deleted api/src/v1/webapp_types.rs"),
        "{report}"
    );
    assert!(
        report.contains("deleted config/crd/bases/app.example.com_webapps.yaml"),
        "{report}"
    );
    assert!(report.contains("make manifests"), "{report}");
    assert_eq!(tree(&dir), initial);
}

#[test]
fn deleting_one_of_two_kinds_of_a_version_keeps_the_other() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let with_webapp = tree(&dir);

    run_ok(&dir, &kind_args("create", "cache", "Redis"));
    run_ok(&dir, &kind_args("create", "cache", "Memcached"));
    delete(&dir, "cache", "Redis");
    delete(&dir, "cache", "Memcached");
    assert_eq!(tree(&dir), with_webapp);

    // The version module stays while a kind of it is left.
    run_ok(&dir, &kind_args("create", "cache", "Redis"));
    delete(&dir, "app", "WebApp");
    let lib = std::fs::read_to_string(dir.join("api/src/v1/mod.rs")).unwrap();
    assert!(lib.contains("redis") && !lib.contains("webapp"), "{lib}");
}

#[test]
fn an_edited_file_is_kept_unless_forced() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let types = dir.join("api/src/v1/webapp_types.rs");
    let mut edited = std::fs::read_to_string(&types).unwrap();
    edited.push_str("\n// my own note\n");
    std::fs::write(&types, &edited).unwrap();

    let message = refused(&dir, &kind_args("delete", "app", "WebApp"));
    assert!(
        message.contains("api/src/v1/webapp_types.rs was edited") && message.contains("--force"),
        "{message}"
    );

    let mut args = kind_args("delete", "app", "WebApp");
    args.push("--force");
    let report = run_ok(&dir, &args);
    assert!(
        report.contains("deleted api/src/v1/webapp_types.rs (you had edited it"),
        "{report}"
    );
    assert!(!types.exists());
}

#[test]
fn a_dry_run_changes_nothing_and_an_unknown_kind_is_named() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let before = tree(&dir);
    let mut args = kind_args("delete", "app", "WebApp");
    args.push("--dry-run");
    let report = run_ok(&dir, &args);
    assert!(
        report.contains("deleted src/controller/webapp_controller.rs"),
        "{report}"
    );
    assert!(report.contains("dry run: no file was written"), "{report}");
    assert_eq!(tree(&dir), before);

    let message = refused(&dir, &kind_args("delete", "app", "Frontend"));
    assert!(
        message.contains("no kind Frontend in app/v1; it has: app/v1 WebApp"),
        "{message}"
    );
}

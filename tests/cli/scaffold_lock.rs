//! The scaffold lock (`.webop-scaffold/`, `docs/upgrade.md`) as the commands keep it.

use crate::support;

use support::{gvk_command, run_ok};
use webop_cli::upgrade::lock;

/// Right after the commands, the lock describes the tree exactly: every file it records has the
/// hash it records, so an upgrade sees no edit that is not the user's. The CronJob tutorial's
/// commands add its webhooks in two calls, where the lock's replay makes one.
#[test]
fn after_the_commands_the_lock_describes_the_tree() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("cronjob-operator");
    std::fs::create_dir(&dir).unwrap();
    let cronjob = |version, command: &[&'static str], extra| {
        gvk_command(command, ["batch", version, "CronJob"], extra)
    };
    let init = ["init", "--domain", "tutorial.kubebuilder.io"];
    run_ok(&dir, &[&init[..], &["--license", "none"]].concat());
    run_ok(&dir, &cronjob("v1", &["create", "api"], &[]));
    run_ok(
        &dir,
        &cronjob("v2", &["create", "api"], &["--controller=false"]),
    );
    let validation = ["--defaulting", "--programmatic-validation"];
    run_ok(&dir, &cronjob("v1", &["create", "webhook"], &validation));
    let conversion = ["--conversion", "--spoke", "v2"];
    run_ok(&dir, &cronjob("v1", &["create", "webhook"], &conversion));

    let locked: lock::Lock =
        serde_json::from_slice(&std::fs::read(dir.join(lock::FILE)).unwrap()).unwrap();
    assert_eq!(locked.licensed(), None);
    assert!(
        locked
            .files
            .contains_key("api/src/v2/cronjob_conversion.rs")
    );
    for (path, entry) in &locked.files {
        let bytes = std::fs::read(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(lock::sha256(&bytes), entry.sha256, "{path}");
    }
    let report = run_ok(&dir, &["upgrade"]);
    assert!(report.contains("unchanged: "), "{report}");
    assert!(!report.contains("  "), "nothing to upgrade: {report}");
}

fn read_lock(dir: &std::path::Path) -> lock::Lock {
    serde_json::from_slice(&std::fs::read(dir.join(lock::FILE)).unwrap()).unwrap()
}

/// Every file the lock records has the hash it records, the lock names this webop's templates,
/// and it is all `.webop-scaffold/` holds: no copy of the project's files.
fn assert_describes(dir: &std::path::Path, locked: &lock::Lock) {
    for (path, entry) in &locked.files {
        let bytes = std::fs::read(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(lock::sha256(&bytes), entry.sha256, "{path}");
    }
    let templates = webop_cli::scaffold::Templates::load().unwrap();
    assert_eq!(locked.templates.as_deref(), Some(templates.id()));
    let kept: Vec<_> = std::fs::read_dir(dir.join(lock::DIR))
        .unwrap()
        .map(|entry| entry.unwrap().file_name())
        .collect();
    assert_eq!(kept, ["lock.json"]);
}

/// `edit --owner` and `--license` change the one input of the scaffold PROJECT does not hold;
/// the lock follows, and still describes the tree.
#[test]
fn the_lock_follows_the_license_edit_changes() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("licensed-operator");
    std::fs::create_dir(&dir).unwrap();
    run_ok(&dir, &["init", "--domain", "example.com"]);
    run_ok(
        &dir,
        &gvk_command(&["create", "api"], ["app", "v1", "Site"], &[]),
    );
    let locked = read_lock(&dir);
    assert_eq!(
        locked.licensed(),
        Some("The licensed-operator Authors".into())
    );
    assert_describes(&dir, &locked);

    run_ok(&dir, &["edit", "--owner", "Jane Doe"]);
    let locked = read_lock(&dir);
    assert_eq!(locked.licensed(), Some("Jane Doe".into()));
    assert_describes(&dir, &locked);

    run_ok(&dir, &["edit", "--license", "none"]);
    let locked = read_lock(&dir);
    assert_eq!(locked.licensed(), None);
    assert_describes(&dir, &locked);
    // The manager's scope is PROJECT's: the replay scaffolds it as `edit --namespaced` does.
    run_ok(&dir, &["edit", "--namespaced"]);
    assert_describes(&dir, &read_lock(&dir));
    // A later command keeps the lock's license.
    run_ok(
        &dir,
        &gvk_command(&["create", "api"], ["app", "v1", "Page"], &[]),
    );
    let locked = read_lock(&dir);
    assert_eq!(locked.licensed(), None);
    assert_describes(&dir, &locked);
}

//! The scaffold lock (`.webop-scaffold/`, `docs/upgrade.md`) as the commands keep it.

mod support;

use support::run_ok;
use webop::upgrade::lock;

/// Right after the commands, the lock describes the tree exactly: every file it records has the
/// hash it records, so an upgrade sees no edit that is not the user's. The CronJob tutorial's
/// commands add its webhooks in two calls, where the lock's replay makes one.
#[test]
fn after_the_commands_the_lock_describes_the_tree() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("cronjob-operator");
    std::fs::create_dir(&dir).unwrap();
    let gvk = ["--group", "batch", "--version", "v1", "--kind", "CronJob"];
    let with = |command: &[&'static str], extra: &[&'static str]| -> Vec<&'static str> {
        command.iter().chain(&gvk).chain(extra).copied().collect()
    };
    run_ok(
        &dir,
        &[
            "init",
            "--domain",
            "tutorial.kubebuilder.io",
            "--license",
            "none",
        ],
    );
    run_ok(&dir, &with(&["create", "api"], &[]));
    let v2 = [
        "create",
        "api",
        "--group",
        "batch",
        "--version",
        "v2",
        "--kind",
        "CronJob",
    ];
    run_ok(&dir, &[&v2[..], &["--controller=false"]].concat());
    run_ok(
        &dir,
        &with(
            &["create", "webhook"],
            &["--defaulting", "--programmatic-validation"],
        ),
    );
    run_ok(
        &dir,
        &with(&["create", "webhook"], &["--conversion", "--spoke", "v2"]),
    );

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

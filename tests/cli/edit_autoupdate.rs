//! `webop edit --plugins autoupdate` and `webop init --plugins autoupdate`:
//! `.github/workflows/auto_update.yml`, a GitHub Actions workflow that installs the newest webop
//! and runs `webop upgrade` once a week (kubebuilder's autoupdate/v1-alpha runs `kubebuilder alpha
//! update`), recorded in PROJECT; the user's file from then on: kept through every command and
//! re-run, rewritten by `--force` only, recorded in the scaffold lock so `webop upgrade` merges it.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::{CACHE, create_webapp, files, init_webapp, project_dir, read, run_ok};

const WORKFLOW: &str = ".github/workflows/auto_update.yml";

/// The workflow is YAML, scheduled, and its job installs webop and runs `webop upgrade`, then
/// proposes the result in an issue.
fn check_workflow(text: &str) {
    let workflow: serde_json::Value = serde_saphyr::from_str(text).unwrap();
    assert_eq!(workflow["name"], "Auto Update", "{workflow:#}");
    assert!(
        workflow["on"]["schedule"][0]["cron"].is_string(),
        "{workflow:#}"
    );
    assert!(workflow["on"].get("workflow_dispatch").is_some());
    let job = &workflow["jobs"]["auto-update"];
    assert_eq!(job["permissions"]["contents"], "write", "{job:#}");
    assert_eq!(job["permissions"]["issues"], "write", "{job:#}");
    let runs: Vec<&str> = job["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|step| step["run"].as_str())
        .collect();
    let script = runs.join("\n");
    for command in [
        "cargo install --locked webop-cli",
        "webop upgrade",
        "git push origin \"$branch\"",
        "gh issue create",
    ] {
        assert!(script.contains(command), "{command} in:\n{script}");
    }
}

/// `cargo fmt`'s edits: rustfmt over the project's Rust files, as `make build` runs it.
fn cargo_fmt(dir: &Path) {
    let rust: Vec<String> = files(dir)
        .into_keys()
        .filter(|p| p.ends_with(".rs") && !p.starts_with(".webop-scaffold/"))
        .collect();
    let status = Command::new("rustfmt")
        .args(["--edition", "2024"])
        .args(rust)
        .current_dir(dir)
        .status()
        .expect("rustfmt runs");
    assert!(status.success());
}

#[test]
fn the_workflow_is_written_recorded_and_kept_through_a_sequence() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let before = files(&dir);
    let plan = run_ok(&dir, &["edit", "--plugins", "autoupdate", "--dry-run"]);
    assert!(
        plan.lines().any(|l| l == format!("created {WORKFLOW}")),
        "{plan}"
    );
    assert_eq!(files(&dir), before, "--dry-run wrote");

    let report = run_ok(&dir, &["edit", "--plugins", "autoupdate"]);
    assert!(
        report.lines().any(|l| l == format!("created {WORKFLOW}")),
        "{report}"
    );
    let project = read(&dir, "PROJECT");
    assert!(
        project.contains("plugins:\n  autoupdate.webop.dev/v1-alpha: {}\n"),
        "{project}"
    );
    let written = read(&dir, WORKFLOW);
    check_workflow(&written);
    // The lock records it as the user's, so `webop upgrade` merges a newer workflow into it.
    let lock: serde_json::Value =
        serde_json::from_str(&read(&dir, ".webop-scaffold/lock.json")).unwrap();
    assert_eq!(lock["files"][WORKFLOW]["owner"], "user", "{lock:#}");

    // Again: nothing changes.
    let again = files(&dir);
    run_ok(&dir, &["edit", "--plugins", "autoupdate"]);
    assert_eq!(files(&dir), again, "a second edit --plugins autoupdate");

    // A kind, cargo fmt, the user's schedule, a second kind: the workflow is theirs.
    create_webapp(&dir);
    assert_eq!(read(&dir, WORKFLOW), written);
    cargo_fmt(&dir);
    let mine = written.replace("0 0 * * 2", "30 6 * * 1");
    assert_ne!(mine, written);
    std::fs::write(dir.join(WORKFLOW), &mine).unwrap();
    let report = run_ok(&dir, CACHE);
    assert!(!report.contains(WORKFLOW), "{report}");
    assert_eq!(read(&dir, WORKFLOW), mine);
    let report = run_ok(&dir, &["edit", "--plugins", "autoupdate,grafana"]);
    assert!(
        report
            .lines()
            .any(|l| l.starts_with(&format!("skipped {WORKFLOW}"))),
        "{report}"
    );
    assert_eq!(read(&dir, WORKFLOW), mine);
    let project = read(&dir, "PROJECT");
    for plugin in ["autoupdate", "grafana"] {
        let line = format!("\n  {plugin}.webop.dev/v1-alpha: {{}}\n");
        assert!(project.contains(&line), "{project}");
    }
    // `webop upgrade` to the same templates keeps the user's workflow.
    run_ok(&dir, &["upgrade"]);
    assert_eq!(read(&dir, WORKFLOW), mine);

    // --force rewrites it, as every file of the user's.
    let report = run_ok(&dir, &["edit", "--plugins", "autoupdate", "--force"]);
    assert!(
        report
            .lines()
            .any(|l| l.starts_with(&format!("overwritten {WORKFLOW}"))),
        "{report}"
    );
    assert_eq!(read(&dir, WORKFLOW), written);

    // A deleted workflow stays deleted until the plugin is asked for again.
    std::fs::remove_file(dir.join(WORKFLOW)).unwrap();
    run_ok(&dir, &["edit", "--namespaced"]);
    assert!(!dir.join(WORKFLOW).exists());
    run_ok(&dir, &["edit", "--plugins", "autoupdate"]);
    assert_eq!(read(&dir, WORKFLOW), written);
}

#[test]
fn init_with_the_plugin_writes_the_same_workflow() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    run_ok(&dir, &["edit", "--plugins", "autoupdate"]);
    let (_other, fresh) = project_dir();
    let report = run_ok(
        &fresh,
        &[
            "init",
            "--domain",
            "example.com",
            "--repo",
            "github.com/example/webapp-operator",
            "--plugins",
            "autoupdate",
        ],
    );
    assert!(
        report.lines().any(|l| l == format!("created {WORKFLOW}")),
        "{report}"
    );
    // The same project as init, then edit --plugins: every file, the lock included.
    assert_eq!(files(&fresh), files(&dir));
}

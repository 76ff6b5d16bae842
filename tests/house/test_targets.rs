//! Every test target sits where `.ci/run` finds it: `<member>/tests/<name>.rs` or
//! `<member>/tests/<name>/main.rs`. CI runs the targets that build generated projects beside the
//! others, which it lists from those two shapes; a target elsewhere would not run there.

use std::path::Path;
use std::process::Command;

use crate::workspace;

#[test]
fn every_test_target_is_where_ci_lists_it() {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let output = Command::new(cargo)
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(workspace::root())
        .output()
        .expect("cargo metadata runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
    let mut targets = 0;
    let mut elsewhere = Vec::new();
    for package in metadata["packages"].as_array().unwrap() {
        let manifest = Path::new(package["manifest_path"].as_str().unwrap());
        let member = manifest.parent().unwrap();
        for target in package["targets"].as_array().unwrap() {
            if target["kind"] != serde_json::json!(["test"]) {
                continue;
            }
            targets += 1;
            let name = target["name"].as_str().unwrap();
            let path = Path::new(target["src_path"].as_str().unwrap());
            let tests = member.join("tests");
            if path != tests.join(format!("{name}.rs")) && path != tests.join(name).join("main.rs")
            {
                elsewhere.push(format!("{name}: {}", workspace::shown(path)));
            }
        }
    }
    assert!(targets > 10, "only {targets} test targets found");
    assert!(
        elsewhere.is_empty(),
        "test targets .ci/run does not list:\n{}",
        elsewhere.join("\n")
    );
}

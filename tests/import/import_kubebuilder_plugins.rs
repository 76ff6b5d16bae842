//! `webop import kubebuilder` of kubebuilder's optional plugins: getting-started and
//! project-v4-with-plugins record `autoupdate.kubebuilder.io/v1-alpha`, which becomes webop's
//! `autoupdate` plugin (`webop edit --plugins autoupdate`): PROJECT records it and the workflow
//! that runs `webop upgrade` is written, in place of kubebuilder's that runs `kubebuilder alpha
//! update`.

use crate::support;

use support::{read, run_ok, workspace};

const WORKFLOW: &str = ".github/workflows/auto_update.yml";

#[test]
fn the_autoupdate_plugin_imports_as_webop_s() {
    for name in ["book-getting-started", "project-v4-with-plugins"] {
        let go_project = workspace()
            .join("../shared/kubebuilder-projects")
            .join(name);
        if !go_project.join("PROJECT").is_file() {
            eprintln!("skipped: no {}", go_project.display());
            continue;
        }
        assert!(
            read(&go_project, "PROJECT").contains("autoupdate.kubebuilder.io/v1-alpha: {}"),
            "{name}"
        );
        let temp = tempfile::tempdir().unwrap();
        let out = temp.path().join("imported");
        let report = run_ok(
            temp.path(),
            &[
                "import",
                "kubebuilder",
                go_project.to_str().unwrap(),
                out.to_str().unwrap(),
                "--webop-path",
                workspace().to_str().unwrap(),
            ],
        );
        assert!(
            report.contains(
                "plugin autoupdate.kubebuilder.io/v1-alpha: `webop edit --plugins autoupdate`"
            ),
            "{name}: a note:\n{report}"
        );
        assert!(
            !report.contains("webop has no such plugin"),
            "{name}: nothing left out:\n{report}"
        );
        let project = read(&out, "PROJECT");
        assert!(
            project.contains("\n  autoupdate.webop.dev/v1-alpha: {}\n"),
            "{name}:\n{project}"
        );
        let text = read(&out, WORKFLOW);
        let workflow: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
        let steps = workflow["jobs"]["auto-update"]["steps"].as_array().unwrap();
        let script: Vec<&str> = steps.iter().filter_map(|s| s["run"].as_str()).collect();
        let script = script.join("\n");
        assert!(
            script.contains("cargo install --locked webop-cli"),
            "{name}: {script}"
        );
        assert!(script.contains("webop upgrade"), "{name}: {script}");
        assert!(!text.contains("kubebuilder alpha update"), "{name}: {text}");
        // The lock records it as the user's, so `webop upgrade` merges a newer one into it.
        let lock = read(&out, ".webop-scaffold/lock.json");
        assert!(lock.contains(&format!("\"{WORKFLOW}\"")), "{name}: {lock}");
    }
}

//! The `webop` command line: help, version, completion, the report, dry runs, and the
//! ownership rules (tool-owned files regenerated but never over a user's edit, user-owned files
//! written once, insertions at `+webop:scaffold:` markers). What the commands lay out is in
//! cli_layout.rs.

use crate::support;

use std::path::Path;

use support::{
    CACHE, create_webapp, gvk_command, init_webapp, project_dir, read, refused, run, run_ok, tree,
};

fn stdout(dir: &Path, args: &[&str]) -> String {
    let output = run(dir, args);
    assert!(
        output.status.success(),
        "webop {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn every_command_shows_an_example() {
    let dir = tempfile::tempdir().unwrap();
    for command in [
        &["--help"][..],
        &["init", "--help"],
        &["create", "--help"],
        &["create", "api", "--help"],
        &["create", "webhook", "--help"],
        &["manifests", "--help"],
        &["version", "--help"],
        &["completion", "--help"],
    ] {
        let help = stdout(dir.path(), command);
        assert!(
            help.contains("Examples:\n  webop")
                || help.contains("Examples:\n  #")
                || help.contains("Examples:\n  mkdir"),
            "{command:?}:\n{help}"
        );
    }
}

#[test]
fn a_boolean_flag_with_a_separate_value_gets_a_tip() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let stderr = refused(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["infra", "v1", "Cluster"],
            &["--namespaced", "false"],
        ),
    );
    assert!(stderr.contains("unexpected argument 'false'"), "{stderr}");
    assert!(stderr.contains("`--namespaced=false`"), "{stderr}");
}

#[test]
fn make_manifests_runs_only_the_webop_that_scaffolded_the_project() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let make = |webop: &str| {
        std::process::Command::new("make")
            .args(["--no-print-directory", "webop-version"])
            .arg(format!("WEBOP={webop}"))
            .current_dir(&dir)
            .output()
            .expect("make runs")
    };
    let ours = make(env!("CARGO_BIN_EXE_webop"));
    assert!(
        ours.status.success(),
        "{}",
        String::from_utf8_lossy(&ours.stderr)
    );
    let other = make("/nonexistent/webop");
    let stderr = String::from_utf8_lossy(&other.stderr);
    assert!(!other.status.success());
    assert!(
        stderr.contains(&format!(
            "this project was scaffolded by webop {}, but /nonexistent/webop is not installed",
            env!("CARGO_PKG_VERSION")
        )),
        "{stderr}"
    );
}

#[test]
fn version_and_completion() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(
        stdout(dir.path(), &["version"]),
        format!("webop {}\n", env!("CARGO_PKG_VERSION"))
    );
    for (shell, marker) in [
        ("bash", "_webop()"),
        ("zsh", "#compdef webop"),
        ("fish", "complete -c webop"),
    ] {
        let script = stdout(dir.path(), &["completion", shell]);
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(script.contains("manifests"), "{shell}");
    }
}

#[test]
fn dry_run_prints_the_plan_and_writes_nothing() {
    let (_temp, dir) = project_dir();
    let before = tree(&dir);
    let plan = stdout(&dir, &["init", "--domain", "example.com", "--dry-run"]);
    assert!(plan.contains("created Cargo.toml\n"), "{plan}");
    assert!(plan.contains("created PROJECT\n"), "{plan}");
    assert!(plan.ends_with("dry run: no file was written\n"), "{plan}");
    assert_eq!(tree(&dir), before);

    init_webapp(&dir);
    let before = tree(&dir);
    let mut args = CACHE.to_vec();
    args.push("--dry-run");
    let plan = stdout(&dir, &args);
    assert!(
        plan.contains("created api/src/v1/cache_types.rs\n"),
        "{plan}"
    );
    assert!(plan.contains("updated PROJECT\n"), "{plan}");
    // Files the command renders and finds as they should be are not named.
    assert!(!plan.contains("unchanged "), "{plan}");
    assert_eq!(tree(&dir), before);
}

#[test]
fn the_report_says_what_happened_to_each_file() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let report = create_webapp(&dir);
    for line in [
        "updated PROJECT\n",
        "updated api/src/lib.rs\n",
        "created api/src/v1/mod.rs\n",
        "created api/src/v1/webapp_types.rs\n",
        "created src/controller/webapp_controller.rs\n",
    ] {
        assert!(report.contains(line), "{line:?} not in\n{report}");
    }
    // The CRD is listed in config/crd/ once `webop manifests` writes it.
    assert!(
        !report.contains("config/crd/kustomization.yaml"),
        "{report}"
    );
    assert!(!report.contains("unchanged "), "{report}");
    // Again, with --force: user-owned files are rewritten only where they differ, and the
    // report names each file whose content it replaced.
    std::fs::write(dir.join("src/controller/webapp_controller.rs"), "// mine\n").unwrap();
    let report = run_ok(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["app", "v1", "WebApp"],
            &[
                "--image",
                "nginxinc/nginx-unprivileged:1.27",
                "--port",
                "8080",
                "--force",
            ],
        ),
    );
    assert!(
        report.contains(
            "overwritten src/controller/webapp_controller.rs (its content was yours: replaced because of --force)\n"
        ),
        "{report}"
    );
    // Files the command renders and finds as they should be are not named.
    for path in ["api/src/v1/webapp_types.rs", "PROJECT"] {
        assert!(
            !report.lines().any(|l| l.ends_with(&format!(" {path}"))),
            "{report}"
        );
    }
}

#[test]
fn an_edited_tool_owned_file_is_never_overwritten_without_force() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let edited = read(&dir, "src/controller/mod.rs") + "pub mod extra;\n";
    std::fs::write(dir.join("src/controller/mod.rs"), &edited).unwrap();
    let stderr = refused(&dir, CACHE);
    assert!(
        stderr.contains("src/controller/mod.rs was edited"),
        "{stderr}"
    );
    assert!(stderr.contains("--force"), "{stderr}");

    let mut forced = CACHE.to_vec();
    forced.push("--force");
    let report = run_ok(&dir, &forced);
    assert!(
        report.contains("overwritten src/controller/mod.rs (its content was yours"),
        "{report}"
    );
    assert!(!read(&dir, "src/controller/mod.rs").contains("pub mod extra;"));
}

#[test]
fn user_owned_files_keep_their_edits() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let main = read(&dir, "src/main.rs") + "// my change\n";
    std::fs::write(dir.join("src/main.rs"), &main).unwrap();
    let rbac = read(&dir, "config/rbac/kustomization.yaml")
        .replace("- role.yaml\n", "- role.yaml\n- my_role.yaml\n");
    std::fs::write(dir.join("config/rbac/kustomization.yaml"), &rbac).unwrap();
    let report = run_ok(&dir, CACHE);
    assert!(!report.contains("src/main.rs"), "{report}");
    assert_eq!(read(&dir, "src/main.rs"), main);
    let after = read(&dir, "config/rbac/kustomization.yaml");
    assert!(after.contains("- my_role.yaml\n"), "{after}");
    assert!(
        after.contains("- cache_viewer_role.yaml\n# +webop:scaffold:rbackustomizeroles\n"),
        "{after}"
    );
}

#[test]
fn a_kustomize_line_the_user_commented_out_stays_out() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let rbac = read(&dir, "config/rbac/kustomization.yaml")
        .replace("- webapp_admin_role.yaml\n", "# - webapp_admin_role.yaml\n");
    std::fs::write(dir.join("config/rbac/kustomization.yaml"), &rbac).unwrap();
    let second_version = [
        "create",
        "api",
        "--group",
        "app",
        "--version",
        "v2",
        "--kind",
        "WebApp",
        "--controller=false",
    ];
    run_ok(&dir, &second_version);
    let mut again = second_version.to_vec();
    again.push("--force");
    run_ok(&dir, &again);
    assert_eq!(read(&dir, "config/rbac/kustomization.yaml"), rbac);
}

#[test]
fn a_missing_marker_is_an_error_naming_file_and_marker() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let rbac = read(&dir, "config/rbac/kustomization.yaml")
        .replace("# +webop:scaffold:rbackustomizeroles\n", "");
    std::fs::write(dir.join("config/rbac/kustomization.yaml"), rbac).unwrap();
    let stderr = refused(&dir, CACHE);
    assert!(
        stderr.contains(
            "config/rbac/kustomization.yaml has no `+webop:scaffold:rbackustomizeroles` line"
        ),
        "{stderr}"
    );
}

#[test]
fn a_read_only_project_root_is_named_and_nothing_is_reported_as_written() {
    use std::os::unix::fs::PermissionsExt;
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    // Files are written atomically (a temporary file renamed over them): PROJECT, at the top,
    // needs a writable root.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let output = support::run(
        &dir,
        &gvk_command(&["create", "api"], ["app", "v1", "WebApp"], &[]),
    );
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr),
    );
    assert!(!output.status.success());
    assert!(
        stderr.contains(&format!("{} is read-only", dir.display())),
        "{stderr}"
    );
    assert!(!stdout.contains("created"), "{stdout}");
}

#[test]
fn a_read_only_target_is_refused_before_anything_is_written() {
    use std::os::unix::fs::PermissionsExt;
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    // A file the command updates late in the plan (sorted by path): nothing before it is written.
    let target = dir.join("src/controller/mod.rs");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o444)).unwrap();
    let stderr = refused(&dir, CACHE);
    assert!(
        stderr.contains("src/controller/mod.rs is read-only"),
        "{stderr}"
    );
}

//! `webop edit --namespaced`: the manager's scope changed in every file it touches (PROJECT, the
//! manager's Role and RoleBinding, WATCH_NAMESPACE in config/manager), all or nothing, with the
//! kustomize build of the result checked. Needs `kubectl` (with its built-in kustomize).

use crate::support;

use std::path::Path;

use serde_json::Value;
use support::{
    create_webapp, files, gvk_command, init_webapp, kustomize, project_dir, run, run_ok, tree,
    workspace,
};

fn find<'a>(docs: &'a [Value], kind: &str, name: &str) -> Option<&'a Value> {
    docs.iter()
        .find(|d| d["kind"] == kind && d["metadata"]["name"] == name)
}

/// `webop args` in `dir` fails; returns its stderr.
fn fails(dir: &Path, args: &[&str]) -> String {
    let output = run(dir, args);
    assert!(
        !output.status.success(),
        "webop {} succeeded",
        args.join(" ")
    );
    String::from_utf8(output.stderr).unwrap()
}

/// A copy of the golden WebApp project (init, create api --image, manifests) in a temporary
/// directory.
fn golden_copy() -> (tempfile::TempDir, std::path::PathBuf) {
    let (temp, dir) = project_dir();
    for (path, bytes) in files(&workspace().join("testdata/webapp-operator")) {
        let target = dir.join(path);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::write(target, bytes).unwrap();
    }
    (temp, dir)
}

#[test]
fn namespaced_builds_a_role_binding_and_watch_namespace_and_goes_back() {
    let (_temp, dir) = golden_copy();
    let golden = files(&dir);
    let cluster = kustomize(&dir.join("config/default"));
    let cluster_role = find(&cluster, "ClusterRole", "webapp-operator-manager-role").unwrap();

    let report = run_ok(&dir, &["edit", "--namespaced"]);
    for line in [
        "updated PROJECT",
        "updated config/manager/manager.yaml",
        "updated config/rbac/role.yaml",
        "updated config/rbac/role_binding.yaml",
    ] {
        assert!(report.lines().any(|l| l == line), "{line} in {report}");
    }
    let project = std::fs::read_to_string(dir.join("PROJECT")).unwrap();
    assert!(
        project.lines().any(|l| l == "namespaced: true"),
        "{project}"
    );

    let docs = kustomize(&dir.join("config/default"));
    // The same rules, in a Role of the manager's namespace; no ClusterRole for the manager.
    assert!(find(&docs, "ClusterRole", "webapp-operator-manager-role").is_none());
    let role = find(&docs, "Role", "webapp-operator-manager-role").expect("the manager's Role");
    assert_eq!(role["metadata"]["namespace"], "webapp-operator-system");
    assert_eq!(role["rules"], cluster_role["rules"]);
    assert!(
        find(
            &docs,
            "ClusterRoleBinding",
            "webapp-operator-manager-rolebinding"
        )
        .is_none()
    );
    let binding = find(&docs, "RoleBinding", "webapp-operator-manager-rolebinding").unwrap();
    assert_eq!(binding["metadata"]["namespace"], "webapp-operator-system");
    assert_eq!(binding["roleRef"]["kind"], "Role");
    assert_eq!(binding["roleRef"]["name"], "webapp-operator-manager-role");
    assert_eq!(
        binding["subjects"][0]["name"],
        "webapp-operator-controller-manager"
    );
    let manager = find(&docs, "Deployment", "webapp-operator-controller-manager").unwrap();
    let env = &manager["spec"]["template"]["spec"]["containers"][0]["env"];
    assert_eq!(env[0]["name"], "WATCH_NAMESPACE");
    assert_eq!(
        env[0]["valueFrom"]["fieldRef"]["fieldPath"],
        "metadata.namespace"
    );
    // The metrics auth role stays a ClusterRole: token and access reviews are cluster-scoped.
    assert!(find(&docs, "ClusterRole", "webapp-operator-metrics-auth-role").is_some());

    // Again: nothing to change, and it says so.
    let before = tree(&dir);
    let again = run_ok(&dir, &["edit", "--namespaced"]);
    assert!(
        again.starts_with("The manager is already namespace-scoped.\n"),
        "{again}"
    );
    assert_eq!(tree(&dir), before);

    // And back: the project as it was, byte for byte.
    run_ok(&dir, &["edit", "--namespaced=false"]);
    assert_eq!(files(&dir), golden);
}

#[test]
fn a_new_project_becomes_namespaced_before_its_first_api() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    run_ok(&dir, &["edit", "--namespaced"]);
    // Without a controller there are no rules yet: init's placeholder becomes a Role.
    let docs = kustomize(&dir.join("config/default"));
    let role = find(&docs, "Role", "webapp-operator-manager-role").expect("the manager's Role");
    assert_eq!(role["metadata"]["namespace"], "webapp-operator-system");
    assert_eq!(
        find(&docs, "RoleBinding", "webapp-operator-manager-rolebinding").unwrap()["roleRef"]["kind"],
        "Role"
    );
    // create api in a namespaced project keeps it so.
    create_webapp(&dir);
    let project = std::fs::read_to_string(dir.join("PROJECT")).unwrap();
    assert!(
        project.lines().any(|l| l == "namespaced: true"),
        "{project}"
    );
    // ... and refuses a cluster-scoped kind with a controller, writing nothing.
    let before = tree(&dir);
    let stderr = fails(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["infra", "v1", "Cluster"],
            &["--namespaced=false"],
        ),
    );
    assert!(
        stderr.contains("Cluster (infra.example.com/v1) is cluster-scoped"),
        "{stderr}"
    );
    assert_eq!(tree(&dir), before);
}

#[test]
fn dry_run_prints_the_plan_and_writes_nothing() {
    let (_temp, dir) = golden_copy();
    let before = tree(&dir);
    let report = run_ok(&dir, &["edit", "--namespaced", "--dry-run"]);
    assert!(
        report.contains("updated config/rbac/role_binding.yaml\n"),
        "{report}"
    );
    assert!(
        report.ends_with("dry run: no file was written\n"),
        "{report}"
    );
    assert_eq!(tree(&dir), before);
}

#[test]
fn each_bad_input_writes_nothing() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    run_ok(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["infra", "v1", "Cluster"],
            &["--namespaced=false"],
        ),
    );
    let before = tree(&dir);

    let stderr = fails(&dir, &["edit"]);
    assert!(
        stderr.contains("nothing to edit: pass --multigroup[=false], --namespaced"),
        "{stderr}"
    );
    let stderr = fails(&dir, &["edit", "--namespaced=maybe"]);
    assert!(stderr.contains("maybe"), "{stderr}");
    // A controller of a cluster-scoped kind cannot live on a Role.
    let stderr = fails(&dir, &["edit", "--namespaced"]);
    assert!(
        stderr.contains("Cluster (infra.example.com/v1) is cluster-scoped and has a controller"),
        "{stderr}"
    );
    assert_eq!(tree(&dir), before);
}

#[test]
fn an_edited_file_is_kept_unless_forced() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let binding = dir.join("config/rbac/role_binding.yaml");
    let mut text = std::fs::read_to_string(&binding).unwrap();
    text.push_str("# ours\n");
    std::fs::write(&binding, &text).unwrap();
    let before = tree(&dir);

    let stderr = fails(&dir, &["edit", "--namespaced"]);
    assert!(
        stderr.contains("config/rbac/role_binding.yaml was edited since webop wrote it; refusing to rewrite it for a namespace-scoped manager"),
        "{stderr}"
    );
    // All or nothing: PROJECT and config/manager are untouched too.
    assert_eq!(tree(&dir), before);

    let report = run_ok(&dir, &["edit", "--namespaced", "--force"]);
    assert!(report.contains("config/rbac/role_binding.yaml"), "{report}");
    let written = std::fs::read_to_string(&binding).unwrap();
    assert!(written.starts_with("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\n"));
}

#[test]
fn owner_and_license_change_only_their_lines() {
    let (_temp, dir) = golden_copy();
    let golden = files(&dir);
    // The user's own changes to the files edit touches stay.
    let cargo = dir.join("Cargo.toml");
    let mut manifest = std::fs::read_to_string(&cargo).unwrap();
    manifest.push_str("\n[profile.release]\nlto = true\n");
    std::fs::write(&cargo, &manifest).unwrap();

    let report = run_ok(&dir, &["edit", "--owner", "Example Corp", "--dry-run"]);
    assert!(report.contains("updated README.md\n"), "{report}");
    run_ok(&dir, &["edit", "--owner", "Example Corp"]);
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(
        readme.contains("\n## License\n\nCopyright Example Corp.\n"),
        "{readme}"
    );
    assert!(!readme.contains("The webapp-operator Authors"));

    run_ok(&dir, &["edit", "--license", "none"]);
    let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
    assert!(!readme.contains("## License"), "{readme}");
    for path in ["Cargo.toml", "api/Cargo.toml"] {
        let text = std::fs::read_to_string(dir.join(path)).unwrap();
        assert!(!text.contains("license"), "{path}: {text}");
    }
    assert!(
        std::fs::read_to_string(&cargo)
            .unwrap()
            .ends_with("lto = true\n")
    );

    // Back to Apache-2.0 (init's default owner): the golden again, with the user's change.
    run_ok(&dir, &["edit", "--license", "apache2"]);
    assert_eq!(std::fs::read_to_string(&cargo).unwrap(), manifest);
    std::fs::write(&cargo, &golden["Cargo.toml"]).unwrap();
    assert_eq!(files(&dir), golden);
}

#[test]
fn bad_license_edits_write_nothing() {
    let (_temp, dir) = golden_copy();
    let before = tree(&dir);
    let stderr = fails(
        &dir,
        &["edit", "--license", "none", "--owner", "Example Corp"],
    );
    assert!(
        stderr
            .contains("--owner \"Example Corp\": the owner is named only in the Apache-2.0 notice"),
        "{stderr}"
    );
    let stderr = fails(&dir, &["edit", "--license", "mit"]);
    assert!(stderr.contains("'mit'"), "{stderr}");
    assert_eq!(tree(&dir), before);

    // An edited License section is not rewritten without --force, and nothing else is either.
    let readme = dir.join("README.md");
    let text = std::fs::read_to_string(&readme).unwrap() + "Third-party notices: NOTICE.\n";
    std::fs::write(&readme, &text).unwrap();
    let before = tree(&dir);
    let stderr = fails(&dir, &["edit", "--license", "none"]);
    assert!(
        stderr.contains("README.md: its License section differs from the one webop wrote"),
        "{stderr}"
    );
    assert_eq!(tree(&dir), before);
    run_ok(&dir, &["edit", "--license", "none", "--force"]);
    assert!(
        !std::fs::read_to_string(&readme)
            .unwrap()
            .contains("License")
    );

    // Another license in a manifest is the user's: refused, whatever --force says.
    let cargo = dir.join("Cargo.toml");
    let text = std::fs::read_to_string(&cargo).unwrap().replace(
        "edition = \"2024\"\n",
        "edition = \"2024\"\nlicense = \"MIT\"\n",
    );
    std::fs::write(&cargo, text).unwrap();
    let before = tree(&dir);
    let stderr = fails(&dir, &["edit", "--license", "apache2", "--force"]);
    assert!(
        stderr.contains("Cargo.toml declares \"license = \\\"MIT\\\"\""),
        "{stderr}"
    );
    assert_eq!(tree(&dir), before);
}

/// Issue 24, defect 2: in a single-group project whose kinds span two groups, `edit` changes the
/// other settings (the layout's rule is checked only when `--multigroup` changes the layout).
#[test]
fn a_project_of_two_groups_edits_its_other_settings() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    for (group, kind) in [("app", "WebApp"), ("batch", "Cache")] {
        run_ok(
            &dir,
            &gvk_command(&["create", "api"], [group, "v1", kind], &[]),
        );
    }
    run_ok(&dir, &["edit", "--namespaced"]);
    run_ok(&dir, &["edit", "--license", "none"]);
    run_ok(
        &dir,
        &["edit", "--owner", "Acme Corp", "--license", "apache2"],
    );
    let same = run_ok(&dir, &["edit", "--multigroup=false"]);
    assert!(same.contains("already single-group"), "{same}");
    run_ok(&dir, &["edit", "--multigroup=false", "--namespaced=false"]);
}

//! SPEC §1's input rules, through the `webop` binary: every bad input exits non-zero, names the
//! bad value and the rule, and changes no file.

use crate::support;

use std::path::Path;

use support::{init_webapp, project_dir, run, tree};

/// Runs `webop args` in `dir`, which must fail with `expected` (and the value) on stderr and
/// leave the tree as it was.
fn refused(dir: &Path, args: &[&str], value: &str, expected: &str) {
    let before = tree(dir);
    let output = run(dir, args);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "webop {args:?} succeeded");
    assert!(stderr.starts_with("error: "), "{stderr}");
    assert!(
        stderr.contains(&format!("{value:?}")),
        "the value {value:?} is not named: {stderr}"
    );
    assert!(
        stderr.contains(expected),
        "the rule {expected:?} is not named: {stderr}"
    );
    assert_eq!(tree(dir), before, "webop {args:?} changed the tree");
}

fn create_api<'a>(group: &'a str, version: &'a str, kind: &'a str) -> Vec<&'a str> {
    vec![
        "create",
        "api",
        "--group",
        group,
        "--version",
        version,
        "--kind",
        kind,
    ]
}

#[test]
fn kinds() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    for (kind, rule) in [
        ("webApp", "a kind must be PascalCase"),
        ("Web-App", "a kind must be PascalCase"),
        ("9Lives", "a kind must be PascalCase"),
        ("Self", "a kind must not be a Rust keyword"),
        ("Option", "a kind must not be a name of Rust's prelude"),
        ("String", "a kind must not be a name of Rust's prelude"),
    ] {
        refused(&dir, &create_api("app", "v1", kind), kind, rule);
    }
}

const DNS_RULE: &str = "must be a DNS-1123 subdomain";

fn long_name() -> String {
    format!(
        "{}.{}.{}.{}",
        "a".repeat(63),
        "b".repeat(63),
        "c".repeat(63),
        "d".repeat(62)
    ) // 254
}

#[test]
fn groups() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let long = long_name();
    for group in ["Example.com", "-a.com", "a..b", long.as_str()] {
        refused(
            &dir,
            &create_api(group, "v1", "WebApp"),
            group,
            &format!("a group {DNS_RULE}"),
        );
    }
    // A valid group that is too long once the domain is appended.
    let group = format!(
        "{}.{}.{}.{}",
        "a".repeat(63),
        "b".repeat(63),
        "c".repeat(63),
        "d".repeat(50)
    );
    refused(
        &dir,
        &create_api(&group, "v1", "WebApp"),
        &group,
        "with domain \"example.com\" the full API group",
    );
}

#[test]
fn a_group_that_repeats_the_domain_is_refused() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    refused(
        &dir,
        &create_api("app.example.com", "v1", "WebApp"),
        "app.example.com",
        "would become \"app.example.com.example.com\"); pass --group app",
    );
}

#[test]
fn a_kind_whose_plural_is_no_resource_name_is_refused() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let kind = format!("W{}", "a".repeat(62)); // plural "waaa...as": 64 characters
    refused(
        &dir,
        &create_api("app", "v1", &kind),
        &kind,
        "is not a valid resource name",
    );
    let mut shorter = create_api("app", "v1", &kind);
    shorter.extend(["--plural", "was"]);
    support::run_ok(&dir, &shorter);
}

#[test]
fn domains() {
    let long = long_name();
    for domain in ["Example.com", "-a.com", "a..b", long.as_str()] {
        let (_temp, dir) = project_dir();
        refused(
            &dir,
            &["init", "--domain", domain],
            domain,
            &format!("a domain {DNS_RULE}"),
        );
    }
    let (_temp, dir) = project_dir();
    refused(
        &dir,
        &["init", "--domain", &long],
        &long,
        "it has 254 characters",
    );
}

#[test]
fn versions() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    for version in ["1", "V1", "v1beta", "v0x"] {
        refused(
            &dir,
            &create_api("app", version, "WebApp"),
            version,
            r"a version must match ^v\d+((alpha|beta)\d+)?$",
        );
    }
}

#[test]
fn project_names() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("My_Operator");
    std::fs::create_dir(&dir).unwrap();
    refused(
        &dir,
        &["init", "--domain", "example.com"],
        "My_Operator",
        "pass --project-name",
    );
    support::run_ok(
        &dir,
        &[
            "init",
            "--domain",
            "example.com",
            "--project-name",
            "my-operator",
        ],
    );
}

#[test]
fn a_duplicate_kind_is_refused_unless_forced() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    support::create_webapp(&dir);
    refused(
        &dir,
        &create_api("app", "v1", "WebApp"),
        "WebApp",
        "the project already has WebApp in app.example.com/v1; pass --force",
    );
    let mut forced = create_api("app", "v1", "WebApp");
    forced.push("--force");
    let output = run(&dir, &forced);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn bad_images_and_plurals() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let mut args = create_api("app", "v1", "WebApp");
    args.extend(["--image", "nginx 1.25"]);
    refused(
        &dir,
        &args,
        "nginx 1.25",
        "an image must be a container image reference",
    );
    let mut args = create_api("app", "v1", "WebApp");
    args.extend(["--plural", "WebApps"]);
    refused(&dir, &args, "WebApps", "a plural must be a DNS-1123 label");
}

#[test]
fn commands_outside_a_project_fail() {
    let dir = tempfile::tempdir().unwrap();
    for args in [create_api("app", "v1", "WebApp"), vec!["manifests"]] {
        let before = tree(dir.path());
        let output = run(dir.path(), &args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success());
        assert!(
            stderr.contains("not inside a webop project: no PROJECT file in"),
            "{stderr}"
        );
        assert!(stderr.contains("run `webop init` first"), "{stderr}");
        assert_eq!(tree(dir.path()), before);
    }
}

#[test]
fn a_kubebuilder_project_is_not_a_webop_project() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("PROJECT"),
        "layout:\n- go.kubebuilder.io/v4\nversion: \"3\"\n",
    )
    .unwrap();
    let output = run(dir.path(), &create_api("app", "v1", "WebApp"));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("its layout is [\"go.kubebuilder.io/v4\"], webop needs \"webop.dev/v1\""),
        "{stderr}"
    );
}

#[test]
fn init_refuses_a_non_empty_directory() {
    let (_temp, dir) = project_dir();
    std::fs::write(dir.join("notes.txt"), "mine").unwrap();
    let before = tree(&dir);
    let output = run(&dir, &["init", "--domain", "example.com"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(
        stderr.contains("is not empty (it has notes.txt)"),
        "{stderr}"
    );
    assert!(stderr.contains("pass --force"), "{stderr}");
    assert_eq!(tree(&dir), before);

    let output = run(&dir, &["init", "--domain", "example.com", "--force"]);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn init_refuses_an_existing_project_even_with_force() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    support::create_webapp(&dir);
    let before = tree(&dir);
    let output = run(&dir, &["init", "--domain", "example.com", "--force"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success());
    assert!(stderr.contains("is already a webop project"), "{stderr}");
    assert_eq!(tree(&dir), before);
}

#[test]
fn hidden_files_and_a_readme_do_not_make_a_directory_non_empty() {
    let (_temp, dir) = project_dir();
    std::fs::create_dir(dir.join(".git")).unwrap();
    std::fs::write(dir.join("README.md"), "# my operator\n").unwrap();
    let report = support::init_webapp(&dir);
    assert!(
        report.contains("skipped README.md (exists; --force to overwrite)\n"),
        "{report}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("README.md")).unwrap(),
        "# my operator\n"
    );
}

#[test]
fn image_options_need_an_image_and_a_namespaced_kind() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let before = tree(&dir);
    let mut args = create_api("app", "v1", "WebApp");
    args.extend(["--port", "80"]);
    let output = run(&dir, &args);
    assert_eq!(output.status.code(), Some(2), "a usage error");
    assert!(String::from_utf8_lossy(&output.stderr).contains("--image"));
    let mut args = create_api("app", "v1", "WebApp");
    args.extend(["--image", "nginx:1.25", "--namespaced=false"]);
    let output = run(&dir, &args);
    assert!(!output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("--namespaced=true"));
    let mut args = create_api("app", "v1", "WebApp");
    args.extend(["--image", "nginx:1.25", "--port", "0"]);
    assert_eq!(run(&dir, &args).status.code(), Some(2));
    assert_eq!(tree(&dir), before);
}

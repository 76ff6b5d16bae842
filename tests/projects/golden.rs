//! The golden project: `testdata/webapp-operator` is exactly what
//! `webop init --domain example.com --repo github.com/example/webapp-operator` (in a directory
//! named `webapp-operator`), `webop create api --group app --version v1 --kind WebApp --image
//! nginxinc/nginx-unprivileged:1.27 --port 8080` and `webop manifests` produce. `WEBOP_BLESS=1` rewrites it.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;

use support::{
    build_test_and_lint, create_webapp, files, init_webapp, manifests, project_dir, workspace,
};

/// Files `webop manifests` writes; before it runs, `config/rbac/role.yaml` is init's placeholder.
fn written_by_manifests(path: &str) -> bool {
    // config/crd/kustomization.yaml lists each CRD once `webop manifests` writes it.
    path.starts_with("config/crd/bases/")
        || path == "config/rbac/role.yaml"
        || path == "config/crd/kustomization.yaml"
}

/// Files of the machine or of Cargo, never part of the golden.
fn machine_local(path: &str) -> bool {
    path == ".cargo/config.toml" || path == "Cargo.lock"
}

/// Compares the generated files that `in_scope` selects with the golden's, or with
/// `WEBOP_BLESS=1` makes the golden's files in scope exactly the generated ones.
fn compare_or_bless(generated: &Path, in_scope: impl Fn(&str) -> bool) {
    let golden_dir = workspace().join("testdata/webapp-operator");
    let select = |files: BTreeMap<String, Vec<u8>>| -> BTreeMap<String, Vec<u8>> {
        files.into_iter().filter(|(p, _)| in_scope(p)).collect()
    };
    let generated = select(files(generated));
    if std::env::var_os("WEBOP_BLESS").is_some_and(|v| v == "1") {
        let existing = if golden_dir.exists() {
            select(files(&golden_dir))
        } else {
            BTreeMap::new()
        };
        for path in existing.keys().filter(|p| !generated.contains_key(*p)) {
            std::fs::remove_file(golden_dir.join(path)).unwrap();
        }
        for (path, bytes) in &generated {
            let target = golden_dir.join(path);
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            std::fs::write(target, bytes).unwrap();
        }
        return;
    }
    let golden = select(files(&golden_dir));
    let mut problems = Vec::new();
    for path in golden.keys().filter(|p| !generated.contains_key(*p)) {
        problems.push(format!("missing: {path} (in the golden, not generated)"));
    }
    for path in generated.keys().filter(|p| !golden.contains_key(*p)) {
        problems.push(format!("extra: {path} (generated, not in the golden)"));
    }
    for (path, bytes) in &generated {
        let Some(expected) = golden.get(path) else {
            continue;
        };
        if expected != bytes {
            let (expected, actual) = (
                String::from_utf8_lossy(expected),
                String::from_utf8_lossy(bytes),
            );
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(a, b)| a != b)
                .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
            problems.push(format!(
                "differs: {path} from line {}:\n  golden:    {:?}\n  generated: {:?}",
                line + 1,
                expected.lines().nth(line).unwrap_or("<end of file>"),
                actual.lines().nth(line).unwrap_or("<end of file>"),
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "the generated project differs from testdata/webapp-operator (WEBOP_BLESS=1 rewrites it):\n{}",
        problems.join("\n")
    );
}

/// The generated project, with the workspace's Cargo.lock so that dependencies compile once.
fn generate() -> (tempfile::TempDir, std::path::PathBuf) {
    let (temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    (temp, dir)
}

#[test]
fn the_scaffold_matches_the_golden() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    compare_or_bless(&dir, |p| !written_by_manifests(p) && !machine_local(p));
}

#[test]
fn init_patches_webop_to_the_source_it_was_built_from() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let config = std::fs::read_to_string(dir.join(".cargo/config.toml")).unwrap();
    let source = workspace().canonicalize().unwrap();
    let expected = format!(
        "[patch.crates-io]\nwebop = {{ path = {:?} }}\nwebop-core = {{ path = {:?} }}\n",
        source.join("webop").display().to_string(),
        source.join("core").display().to_string()
    );
    assert!(config.ends_with(&expected), "{config}");
    let gitignore = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
    assert!(
        gitignore.lines().any(|l| l == "/.cargo/config.toml"),
        "{gitignore}"
    );
}

#[test]
fn the_manifests_match_the_golden() {
    let (_temp, dir) = generate();
    manifests(&dir);
    compare_or_bless(&dir, |p| !machine_local(p));
}

#[test]
fn the_generated_project_builds_and_passes_its_tests() {
    let (_temp, dir) = generate();
    // As `make test` does: its tests install the CRDs of config/crd/bases.
    manifests(&dir);
    build_test_and_lint(&dir);
}

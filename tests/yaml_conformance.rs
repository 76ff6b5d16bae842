//! Conformance of `webop::yaml` with the YAML controller-gen v0.21 committed to its own and to
//! kubebuilder's repositories: every golden file is parsed, re-emitted, and compared byte for byte.
//!
//! The goldens are not part of webop: the test reads them at run time from bare git mirrors
//! (`$WEBOP_MIRRORS`, default `/work/.mirror`) and is ignored by default. Run it with
//! `cargo test --no-default-features --test yaml_conformance -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

struct GoldenSet {
    mirror: &'static str,
    revision: &'static str,
    /// Paths in the tree that hold golden YAML.
    selects: fn(&str) -> bool,
}

const GOLDEN_SETS: &[GoldenSet] = &[
    GoldenSet {
        mirror: "kubernetes-sigs+controller-tools/repo",
        revision: "v0.21.0",
        selects: |path| {
            let crd = (path.starts_with("pkg/crd/testdata/")
                || path.starts_with("pkg/applyconfiguration/testdata/"))
                && path.ends_with(".yaml");
            // (pkg/webhook/testdata is hand-written and compared semantically upstream.)
            crd || path == "pkg/rbac/testdata/role.yaml"
        },
    },
    GoldenSet {
        mirror: "kubernetes-sigs+kubebuilder/repo",
        revision: "HEAD",
        selects: |path| {
            path.starts_with("testdata/project-v4")
                && ((path.contains("/config/crd/bases/") && path.ends_with(".yaml"))
                    || path.ends_with("/config/rbac/role.yaml")
                    || path.ends_with("/config/webhook/manifests.yaml"))
        },
    },
];

fn mirrors() -> PathBuf {
    std::env::var_os("WEBOP_MIRRORS").map_or_else(|| PathBuf::from("/work/.mirror"), PathBuf::from)
}

fn git(repo: &Path, args: &[&str]) -> String {
    let output = Command::new("git")
        .arg("-C")
        .arg(repo)
        .args(args)
        .output()
        .expect("git runs");
    assert!(
        output.status.success(),
        "git {args:?} in {}: {}",
        repo.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("golden files are UTF-8")
}

/// The documents of a golden file. controller-gen starts each with a `---` line; a few goldens
/// were written without it and hold a single document.
fn split_documents(text: &str) -> (Vec<&str>, bool) {
    match text.strip_prefix("---\n") {
        Some(body) => (body.split("\n---\n").collect(), true),
        None => (vec![text], false),
    }
}

#[test]
#[ignore = "reads controller-gen's golden files from local git mirrors"]
fn emitter_reproduces_controller_gen_goldens() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for set in GOLDEN_SETS {
        let repo = mirrors().join(set.mirror);
        if !repo.exists() {
            panic!("mirror {} not found; set WEBOP_MIRRORS", repo.display());
        }
        let listing = git(&repo, &["ls-tree", "-r", "--name-only", set.revision]);
        for path in listing.lines().filter(|p| (set.selects)(p)) {
            let mut golden = git(&repo, &["show", &format!("{}:{path}", set.revision)]);
            if !golden.starts_with("---") && !golden.ends_with('\n') {
                // Hand-maintained goldens without `---` may also lack the final newline.
                golden.push('\n');
            }
            let (documents, separated) = split_documents(&golden);
            let values: Vec<serde_json::Value> = documents
                .into_iter()
                .map(|doc| serde_saphyr::from_str(doc).unwrap_or_else(|e| panic!("{path}: {e}")))
                .collect();
            let emitted = if separated {
                webop::yaml::documents(&values)
            } else {
                webop::yaml::to_string(&values[0])
            };
            checked += 1;
            if emitted != golden {
                let line = emitted
                    .lines()
                    .zip(golden.lines())
                    .position(|(a, b)| a != b)
                    .unwrap_or(0);
                failures.push(format!(
                    "{}:{path} line {}:\n  ours:   {:?}\n  golden: {:?}",
                    set.mirror,
                    line + 1,
                    emitted.lines().nth(line),
                    golden.lines().nth(line)
                ));
            }
        }
    }
    assert!(checked > 30, "only {checked} golden files found");
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!("{checked} golden files reproduced byte for byte");
}

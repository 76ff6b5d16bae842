//! Conformance with the files controller-gen v0.21 committed to its own and to kubebuilder's
//! repositories:
//!
//! - every golden YAML file is parsed and re-emitted by `webop::yaml`, byte for byte;
//! - every golden CRD goes through `webop::manifests::crd_file` unchanged;
//! - the `+kubebuilder:rbac` markers of the test projects, as `webop::rbac::Rule`s, produce
//!   their `role.yaml` through `webop::manifests::role_file`.
//!
//! webop's own conformance cases are checked against controller-gen itself, run on their Go
//! source: `tests/manifests/controller_gen_oracle.rs`.
//!
//! The goldens are not part of webop: the tests read them at run time from bare git mirrors
//! (`$WEBOP_MIRRORS`, default `/work/.mirror`) and are ignored by default. Run them with
//! `cargo test --no-default-features --test manifests controller_gen_conformance:: -- --ignored`.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;
use webop::rbac::Rule;

const CONTROLLER_TOOLS: &str = "kubernetes-sigs+controller-tools/repo";
const CONTROLLER_TOOLS_REVISION: &str = "v0.21.0";
const KUBEBUILDER: &str = "kubernetes-sigs+kubebuilder/repo";
const KUBEBUILDER_REVISION: &str = "HEAD";
const KUBEBUILDER_PROJECTS: [&str; 3] = [
    "project-v4",
    "project-v4-multigroup",
    "project-v4-with-plugins",
];

struct Mirror {
    dir: PathBuf,
    revision: &'static str,
}

impl Mirror {
    fn open(name: &str, revision: &'static str) -> Mirror {
        let root = std::env::var_os("WEBOP_MIRRORS")
            .map_or_else(|| PathBuf::from("/work/.mirror"), PathBuf::from);
        let dir = root.join(name);
        assert!(
            dir.exists(),
            "mirror {} not found; set WEBOP_MIRRORS",
            dir.display()
        );
        Mirror { dir, revision }
    }

    fn files(&self, selects: impl Fn(&str) -> bool) -> Vec<String> {
        git(&self.dir, &["ls-tree", "-r", "--name-only", self.revision])
            .lines()
            .filter(|p| selects(p))
            .map(str::to_owned)
            .collect()
    }

    fn read(&self, path: &str) -> String {
        git(&self.dir, &["show", &format!("{}:{path}", self.revision)])
    }
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

/// Golden YAML written by controller-gen's `WriteYAML`.
fn golden_yaml_files() -> Vec<(Mirror, Vec<String>)> {
    let tools = Mirror::open(CONTROLLER_TOOLS, CONTROLLER_TOOLS_REVISION);
    let tools_files = tools.files(|path| {
        // (pkg/webhook/testdata is hand-written and compared semantically upstream.)
        let crd = path.starts_with("pkg/crd/testdata/")
            || path.starts_with("pkg/applyconfiguration/testdata/");
        (crd && path.ends_with(".yaml")) || path == "pkg/rbac/testdata/role.yaml"
    });
    let kubebuilder = Mirror::open(KUBEBUILDER, KUBEBUILDER_REVISION);
    let kubebuilder_files = kubebuilder.files(|path| {
        path.starts_with("testdata/project-v4")
            && ((path.contains("/config/crd/bases/") && path.ends_with(".yaml"))
                || path.ends_with("/config/rbac/role.yaml")
                || path.ends_with("/config/webhook/manifests.yaml"))
    });
    vec![(tools, tools_files), (kubebuilder, kubebuilder_files)]
}

/// A golden file's documents. controller-gen starts each with a `---` line; a few goldens were
/// written by hand without it (one document, maybe without the final newline).
fn parse_golden(golden: &mut String) -> (Vec<Value>, bool) {
    let separated = golden.starts_with("---\n");
    if !separated && !golden.ends_with('\n') {
        golden.push('\n');
    }
    let documents: Vec<&str> = if separated {
        golden["---\n".len()..].split("\n---\n").collect()
    } else {
        vec![golden.as_str()]
    };
    let values = documents
        .into_iter()
        .map(|doc| serde_saphyr::from_str(doc).expect("golden YAML parses"))
        .collect();
    (values, separated)
}

fn first_difference(ours: &str, golden: &str) -> String {
    let line = ours
        .lines()
        .zip(golden.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(0);
    format!(
        "line {}:\n  ours:   {:?}\n  golden: {:?}",
        line + 1,
        ours.lines().nth(line),
        golden.lines().nth(line)
    )
}

#[test]
#[ignore = "reads controller-gen's golden files from local git mirrors"]
fn emitter_reproduces_every_golden_file() {
    let mut checked = 0;
    let mut failures = Vec::new();
    for (mirror, files) in golden_yaml_files() {
        for path in files {
            let mut golden = mirror.read(&path);
            let (values, separated) = parse_golden(&mut golden);
            let ours = if separated {
                webop::yaml::documents(&values)
            } else {
                webop::yaml::to_string(&values[0])
            };
            checked += 1;
            if ours != golden {
                failures.push(format!("{path} {}", first_difference(&ours, &golden)));
            }
        }
    }
    assert!(checked > 40, "only {checked} golden files found");
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
#[ignore = "reads controller-gen's golden files from local git mirrors"]
fn crd_files_match_golden_crds() {
    let mut checked = 0;
    for (mirror, files) in golden_yaml_files() {
        for path in files {
            let mut golden = mirror.read(&path);
            let (values, separated) = parse_golden(&mut golden);
            if !separated || values.len() != 1 || values[0]["kind"] != "CustomResourceDefinition" {
                continue;
            }
            let file = webop::manifests::crd_file(&values[0]);
            assert_eq!(file.contents, golden, "{path}");
            let name = file.path.file_name().unwrap().to_str().unwrap().to_owned();
            // Goldens of special cases (per-version files, option variants) are named differently.
            if path.ends_with(&format!("/{name}")) {
                checked += 1;
            }
        }
    }
    assert!(checked > 20, "only {checked} CRD file names checked");
}

/// The `+kubebuilder:rbac:k=v,k=a;b` markers of Go source, as webop rules.
fn rules_from_markers(source: &str) -> Vec<Rule> {
    let list = |value: &str| {
        value
            .split(';')
            .map(|item| item.trim_matches('"').to_owned())
            .collect()
    };
    source
        .lines()
        .filter_map(|line| line.trim().strip_prefix("// +kubebuilder:rbac:"))
        .map(|marker| {
            let mut rule = Rule::default();
            for argument in marker.split(',') {
                let (key, value) = argument.split_once('=').expect("key=value");
                match key {
                    "groups" => rule.groups = list(value),
                    "resources" => rule.resources = list(value),
                    "resourceNames" => rule.resource_names = list(value),
                    "verbs" => rule.verbs = list(value),
                    "urls" => rule.urls = list(value),
                    "namespace" => rule.namespace = Some(value.to_owned()),
                    "roleName" => rule.role_name = Some(value.to_owned()),
                    other => panic!("unknown rbac marker key {other}"),
                }
            }
            rule
        })
        .collect()
}

#[test]
#[ignore = "reads controller-gen's golden files from local git mirrors"]
fn role_files_match_golden_roles() {
    let tools = Mirror::open(CONTROLLER_TOOLS, CONTROLLER_TOOLS_REVISION);
    let rules = rules_from_markers(&tools.read("pkg/rbac/testdata/controller.go"));
    let ours = webop::manifests::role_file(&rules).contents;
    let golden = tools.read("pkg/rbac/testdata/role.yaml");
    assert!(
        ours == golden,
        "controller-tools role.yaml {}",
        first_difference(&ours, &golden)
    );

    let kubebuilder = Mirror::open(KUBEBUILDER, KUBEBUILDER_REVISION);
    for project in KUBEBUILDER_PROJECTS {
        let prefix = format!("testdata/{project}/");
        let sources = kubebuilder.files(|path| path.starts_with(&prefix) && path.ends_with(".go"));
        let rules: Vec<Rule> = sources
            .iter()
            .flat_map(|path| rules_from_markers(&kubebuilder.read(path)))
            .collect();
        assert!(!rules.is_empty(), "{project} has rbac markers");
        let ours = webop::manifests::role_file(&rules).contents;
        let golden = kubebuilder.read(&format!("{prefix}config/rbac/role.yaml"));
        assert!(
            ours == golden,
            "{project} role.yaml {}",
            first_difference(&ours, &golden)
        );
    }
}

//! Conformance with the files controller-gen v0.21 committed to its own and to kubebuilder's
//! repositories:
//!
//! - every golden YAML file is parsed and re-emitted by `webop::yaml`, byte for byte;
//! - every golden CRD goes through `webop::manifests::crd_file` unchanged;
//! - the `+kubebuilder:rbac` markers of the test projects, as `webop::rbac::Rule`s, produce
//!   their `role.yaml` through `webop::manifests::role_file`;
//! - webop's committed conformance cases (`tests/conformance/<case>/`, produced from Rust types)
//!   equal the goldens of the equivalent Go types, but for the version annotation and the
//!   properties a case documents as left out.
//!
//! The goldens are not part of webop: the tests read them at run time from bare git mirrors
//! (`$WEBOP_MIRRORS`, default `/work/.mirror`) and are ignored by default. Run them with
//! `cargo test --no-default-features --test controller_gen_conformance -- --ignored`.

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

/// A committed conformance case (`tests/conformance/<case>/`) and the controller-gen golden it
/// was verified against.
struct Case {
    /// Our expected file, relative to `tests/conformance/`.
    ours: &'static str,
    /// controller-gen's golden in controller-tools v0.21.0.
    golden: &'static str,
    /// Properties of the golden the Rust case leaves out (no Rust equivalent; each case's module
    /// doc says why): the JSON pointer of an object schema and a property name.
    left_out: &'static [(&'static str, &'static str)],
}

const CRD_CASES: &[Case] = &[
    Case {
        ours: "cronjob/testdata.kubebuilder.io_cronjobs.yaml",
        golden: "pkg/crd/testdata/testdata.kubebuilder.io_cronjobs.yaml",
        left_out: &[(
            "/spec/versions/0/schema/openAPIV3Schema/properties/spec",
            "jobTemplate",
        )],
    },
    Case {
        ours: "enums/testdata.kubebuilder.io_enums.yaml",
        golden: "pkg/crd/testdata/testdata.kubebuilder.io_enums.yaml",
        left_out: &[],
    },
    Case {
        ours: "external_docs/testdata.kubebuilder.io_externaldocs.yaml",
        golden: "pkg/crd/testdata/testdata.kubebuilder.io_externaldocs.yaml",
        left_out: &[],
    },
    Case {
        ours: "gen_foo/bar.example.com_foos.yaml",
        golden: "pkg/crd/testdata/gen/bar.example.com_foos.yaml",
        left_out: &[],
    },
    Case {
        ours: "gen_foo_maxdesclen/bar.example.com_foos.yaml",
        golden: "pkg/crd/testdata/gen/bar.example.com_foos_maxdesclen.yaml",
        left_out: &[],
    },
    Case {
        ours: "gen_zoo/bar.example.com_zoos.yaml",
        golden: "pkg/crd/testdata/gen/zoo/bar.example.com_zoos.yaml",
        left_out: &[],
    },
    Case {
        ours: "immutable/testdata.kubebuilder.io_immutabletypes.yaml",
        golden: "pkg/crd/testdata/testdata.kubebuilder.io_immutabletypes.yaml",
        left_out: &[],
    },
    Case {
        ours: "job/testdata.kubebuilder.io_jobs.yaml",
        golden: "pkg/crd/testdata/testdata.kubebuilder.io_jobs.yaml",
        left_out: &[],
    },
    Case {
        ours: "multiple_versions/testdata.kubebuilder.io_versionedresources.yaml",
        golden: "pkg/crd/testdata/multiple_versions/testdata.kubebuilder.io_versionedresources.yaml",
        left_out: &[],
    },
    Case {
        ours: "plural/plural.example.com_testquotas.yaml",
        golden: "pkg/crd/testdata/plural/plural.example.com_testquotas.yaml",
        left_out: &[],
    },
    Case {
        ours: "oneof/testdata.kubebuilder.io_oneofs.yaml",
        golden: "pkg/crd/testdata/testdata.kubebuilder.io_oneofs.yaml",
        left_out: &[],
    },
];

/// The golden as webop writes it: webop's version annotation instead of controller-gen's, and
/// without the left-out properties.
fn expected_from_golden(golden: &mut String, left_out: &[(&str, &str)]) -> String {
    let (mut values, _) = parse_golden(golden);
    let mut crd = values.remove(0);
    let annotations = crd["metadata"]
        .as_object_mut()
        .unwrap()
        .entry("annotations")
        .or_insert_with(|| Value::Object(serde_json::Map::new()));
    let annotations = annotations.as_object_mut().unwrap();
    annotations.remove("controller-gen.kubebuilder.io/version");
    annotations.insert(
        webop::crd::VERSION_ANNOTATION.to_owned(),
        Value::String(webop::crd::VERSION.to_owned()),
    );
    for (pointer, property) in left_out {
        let schema = crd
            .pointer_mut(pointer)
            .unwrap_or_else(|| panic!("{pointer} not in the golden"));
        let properties = schema["properties"].as_object_mut().unwrap();
        assert!(
            properties.remove(*property).is_some(),
            "{pointer}: no property {property}"
        );
        if let Some(required) = schema.get_mut("required").and_then(Value::as_array_mut) {
            required.retain(|name| name != property);
            if required.is_empty() {
                schema.as_object_mut().unwrap().remove("required");
            }
        }
    }
    webop::manifests::crd_file(&crd).contents
}

#[test]
#[ignore = "reads controller-gen's golden files from local git mirrors"]
fn committed_conformance_cases_match_goldens() {
    let tools = Mirror::open(CONTROLLER_TOOLS, CONTROLLER_TOOLS_REVISION);
    let ours_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut failures = Vec::new();
    for case in CRD_CASES {
        let mut golden = tools.read(case.golden);
        let expected = expected_from_golden(&mut golden, case.left_out);
        let ours = std::fs::read_to_string(ours_dir.join(case.ours)).unwrap();
        if ours != expected {
            // For a full diff against ours.
            let written = Path::new(env!("CARGO_TARGET_TMPDIR"))
                .join("conformance")
                .join(case.ours);
            std::fs::create_dir_all(written.parent().unwrap()).unwrap();
            std::fs::write(&written, &expected).unwrap();
            failures.push(format!(
                "{} vs {} (as webop would write it: {}): {}",
                case.ours,
                case.golden,
                written.display(),
                first_difference(&ours, &expected)
            ));
        }
    }
    let ours = std::fs::read_to_string(ours_dir.join("rbac/role.yaml")).unwrap();
    let golden = tools.read("pkg/rbac/testdata/role.yaml");
    if ours != golden {
        failures.push(format!(
            "rbac/role.yaml vs pkg/rbac/testdata/role.yaml: {}",
            first_difference(&ours, &golden)
        ));
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

//! What the Go project's tooling decides about its manifests, carried into the webop project:
//! controller-gen's options in the Makefile's `manifests` target (`crd:maxDescLen=0` becomes
//! `webop manifests --max-desc-len 0` in the new Makefile), the Kubernetes release of go.mod's
//! `k8s.io/api`, whose schemas the CRDs embed (`PodTemplateSpec`, ...), as k8s-openapi's
//! version feature and the Makefile's `ENVTEST_K8S_VERSION`, and go.mod's controller-runtime
//! release as the Makefile's `ENVTEST_VERSION` (setup-envtest's branch), as kubebuilder's
//! Makefile derives both from go.mod.

use std::collections::BTreeMap;
use std::path::Path;

use super::Issue;

/// The Kubernetes minor releases whose schemas webop has (`tools/k8s-schemas`: k8s-openapi's
/// features `v1_33` to `v1_37`); the last is k8s-openapi's `latest`.
const KUBERNETES_MINORS: std::ops::RangeInclusive<u32> = 33..=37;

/// The webop side of the Go project's tooling.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tooling {
    /// `webop manifests` flags equal to controller-gen's options (`--max-desc-len 0`).
    pub manifests_flags: Vec<String>,
    /// k8s-openapi's version feature (`v1_36`) where go.mod's Kubernetes is not the latest.
    pub k8s_feature: Option<String>,
    /// setup-envtest's release branch (`release-0.24`) of go.mod's controller-runtime.
    pub envtest_version: Option<String>,
}

/// Reads the Makefile and go.mod of the project at `root`; what has no webop equivalent is an
/// issue.
pub fn read(root: &Path, issues: &mut Vec<Issue>) -> Tooling {
    let mut tooling = Tooling::default();
    if let Ok(makefile) = std::fs::read_to_string(root.join("Makefile")) {
        tooling.manifests_flags = manifests_flags(&makefile, issues);
    }
    if let Ok(go_mod) = std::fs::read_to_string(root.join("go.mod")) {
        tooling.k8s_feature = k8s_feature(&go_mod, issues);
        tooling.envtest_version = require_minor(&go_mod, "sigs.k8s.io/controller-runtime")
            .map(|(_, _, minor)| format!("release-0.{minor}"));
    }
    tooling
}

/// The `webop manifests` flags of the controller-gen options in the recipe of the Makefile's
/// `manifests` target (`$(VAR)`s of the Makefile's own assignments expanded).
pub fn manifests_flags(makefile: &str, issues: &mut Vec<Issue>) -> Vec<String> {
    let variables = assignments(makefile);
    let mut flags = Vec::new();
    let mut in_recipe = false;
    for (index, line) in makefile.lines().enumerate() {
        if line.starts_with("manifests:") {
            in_recipe = true;
            continue;
        }
        if !in_recipe {
            continue;
        }
        if !line.starts_with('\t') {
            if !line.trim().is_empty() {
                break;
            }
            continue;
        }
        let command = expand(line.trim(), &variables);
        if command.starts_with('#') || !command.contains("CONTROLLER_GEN") {
            continue;
        }
        for word in command.split_whitespace() {
            let word = word.trim_matches(|c| c == '"' || c == '\'');
            let mut issue = |what: String| {
                issues.push(Issue {
                    file: "Makefile".into(),
                    line: index + 1,
                    what,
                })
            };
            if let Some(options) = word.strip_prefix("crd:") {
                for option in options.split(',') {
                    match option.split_once('=') {
                        Some(("maxDescLen", n)) => {
                            flags.extend(["--max-desc-len".to_owned(), n.to_owned()])
                        }
                        Some(("crdVersions", "v1")) => {}
                        _ => issue(format!(
                            "controller-gen's crd:{option} has no `webop manifests` option: left out"
                        )),
                    }
                }
            } else if let Some(role) = word.strip_prefix("rbac:roleName=")
                && role != "manager-role"
            {
                issue(format!(
                    "controller-gen's rbac:roleName={role}: webop's ClusterRole is manager-role"
                ));
            }
        }
    }
    flags
}

/// `NAME ?= value`, `NAME = value`, `NAME := value` lines of a Makefile.
fn assignments(makefile: &str) -> BTreeMap<String, String> {
    let mut variables = BTreeMap::new();
    for line in makefile.lines().filter(|l| !l.starts_with('\t')) {
        for operator in ["?=", ":=", "="] {
            if let Some((name, value)) = line.split_once(operator) {
                let name = name.trim();
                if !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_') {
                    variables.insert(name.to_owned(), value.trim().to_owned());
                }
                break;
            }
        }
    }
    variables
}

/// `line` with `$(NAME)` replaced by `NAME`'s value, once; other references left as written.
fn expand(line: &str, variables: &BTreeMap<String, String>) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find("$(") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find(')') else {
            break;
        };
        let name = &rest[start + 2..start + end];
        match variables.get(name).filter(|_| name != "CONTROLLER_GEN") {
            Some(value) => out.push_str(value),
            None => out.push_str(&rest[start..=start + end]),
        }
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out
}

/// The line (from 0), version and minor release of go.mod's requirement of `module` at `v0.N.x`.
fn require_minor<'a>(go_mod: &'a str, module: &str) -> Option<(usize, &'a str, u32)> {
    let (index, version) = go_mod.lines().enumerate().find_map(|(index, line)| {
        let line = line.trim().trim_start_matches("require").trim();
        line.strip_prefix(module)?
            .strip_prefix(' ')
            .map(|version| (index, version.trim()))
    })?;
    let minor = version
        .strip_prefix("v0.")
        .and_then(|rest| rest.split('.').next())
        .and_then(|minor| minor.parse().ok())?;
    Some((index, version, minor))
}

/// k8s-openapi's feature for go.mod's `k8s.io/api` release: `None` for the latest (the
/// scaffold's `latest`) and for a release webop has no schemas of (an issue).
pub fn k8s_feature(go_mod: &str, issues: &mut Vec<Issue>) -> Option<String> {
    let (index, version, minor) = require_minor(go_mod, "k8s.io/api")?;
    if minor == *KUBERNETES_MINORS.end() {
        return None;
    }
    if !KUBERNETES_MINORS.contains(&minor) {
        issues.push(Issue {
            file: "go.mod".into(),
            line: index + 1,
            what: format!(
                "k8s.io/api {version}: webop has the Kubernetes types' schemas of 1.{} to 1.{}: \
                 built with the latest, CRDs embedding Kubernetes types may differ",
                KUBERNETES_MINORS.start(),
                KUBERNETES_MINORS.end()
            ),
        });
        return None;
    }
    Some(format!("v1_{minor}"))
}

/// The webop project's Makefile with the manifests flags on its `$(WEBOP) manifests` line, and
/// the envtest versions of the Go project's go.mod: `ENVTEST_K8S_VERSION` that of k8s-openapi's
/// feature (the Makefile says they agree), `ENVTEST_VERSION` its controller-runtime's branch.
pub fn makefile(text: &str, tooling: &Tooling) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let k8s = tooling
            .k8s_feature
            .as_deref()
            .and_then(|f| f.strip_prefix("v1_"));
        match (line.split_once(" ?= "), k8s, &tooling.envtest_version) {
            _ if line == "\t$(WEBOP) manifests\n" && !tooling.manifests_flags.is_empty() => out
                .push_str(&format!(
                    "\t$(WEBOP) manifests {}\n",
                    tooling.manifests_flags.join(" ")
                )),
            (Some(("ENVTEST_K8S_VERSION", _)), Some(minor), _) => {
                out.push_str(&format!("ENVTEST_K8S_VERSION ?= 1.{minor}\n"))
            }
            (Some(("ENVTEST_VERSION", _)), _, Some(branch)) => {
                out.push_str(&format!("ENVTEST_VERSION ?= {branch}\n"))
            }
            _ => out.push_str(line),
        }
    }
    out
}

/// The webop project's Cargo.toml with k8s-openapi's version `feature` in place of `latest`.
pub fn cargo_toml(text: &str, feature: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        if line.starts_with("k8s-openapi = ") && line.contains("features = [\"latest\"]") {
            out.push_str(&format!(
                "# Kubernetes 1.{}: the k8s.io/api release of the kubebuilder project's go.mod.\n",
                feature.trim_start_matches("v1_")
            ));
            out.push_str(&line.replace("\"latest\"", &format!("\"{feature}\"")));
        } else {
            out.push_str(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_desc_len_becomes_the_manifests_flag() {
        let makefile = "CONTROLLER_GEN ?= $(LOCALBIN)/controller-gen\n\n\
            .PHONY: manifests\n\
            manifests: controller-gen ## Generate.\n\
            \t# Note that the option maxDescLen=0 was added\n\
            \t\"$(CONTROLLER_GEN)\" rbac:roleName=manager-role crd:maxDescLen=0 webhook paths=\"./...\"\n\n\
            .PHONY: generate\n\
            generate:\n\
            \t\"$(CONTROLLER_GEN)\" crd:maxDescLen=9\n";
        let mut issues = Vec::new();
        assert_eq!(
            manifests_flags(makefile, &mut issues),
            ["--max-desc-len", "0"]
        );
        assert!(issues.is_empty(), "{issues:?}");
    }

    #[test]
    fn options_without_a_webop_flag_are_issues() {
        let makefile = "CRD_OPTIONS ?= \"crd:generateEmbeddedObjectMeta=true,maxDescLen=100\"\n\
            manifests: controller-gen\n\
            \t$(CONTROLLER_GEN) rbac:roleName=other $(CRD_OPTIONS) paths=\"./...\"\n";
        let mut issues = Vec::new();
        assert_eq!(
            manifests_flags(makefile, &mut issues),
            ["--max-desc-len", "100"]
        );
        let issues: Vec<String> = issues.iter().map(ToString::to_string).collect();
        assert_eq!(
            issues,
            [
                "Makefile:3: controller-gen's rbac:roleName=other: webop's ClusterRole is manager-role",
                "Makefile:3: controller-gen's crd:generateEmbeddedObjectMeta=true has no `webop manifests` option: left out",
            ]
        );
    }

    #[test]
    fn the_webop_project_gets_the_flags_and_the_feature() {
        let makefile_text = "manifests: webop-version ## Generate.\n\t$(WEBOP) manifests\n\n\
            ENVTEST_VERSION ?= release-0.25\nENVTEST_K8S_VERSION ?= 1.37\n";
        let tooling = Tooling {
            manifests_flags: vec!["--max-desc-len".into(), "0".into()],
            k8s_feature: Some("v1_36".into()),
            envtest_version: Some("release-0.24".into()),
        };
        assert_eq!(
            makefile(makefile_text, &tooling),
            "manifests: webop-version ## Generate.\n\t$(WEBOP) manifests --max-desc-len 0\n\n\
             ENVTEST_VERSION ?= release-0.24\nENVTEST_K8S_VERSION ?= 1.36\n"
        );
        assert_eq!(makefile(makefile_text, &Tooling::default()), makefile_text);
        let cargo =
            "serde = \"1\"\nk8s-openapi = { version = \"0.29\", features = [\"latest\"] }\n";
        assert_eq!(
            cargo_toml(cargo, "v1_36"),
            "serde = \"1\"\n# Kubernetes 1.36: the k8s.io/api release of the kubebuilder project's go.mod.\n\
             k8s-openapi = { version = \"0.29\", features = [\"v1_36\"] }\n"
        );
    }

    #[test]
    fn go_mod_s_kubernetes_release_is_the_k8s_openapi_feature() {
        let go_mod = |version: &str| {
            format!(
                "module x\n\nrequire (\n\tk8s.io/api {version}\n\tk8s.io/client-go v0.36.0\n)\n"
            )
        };
        let mut issues = Vec::new();
        assert_eq!(
            k8s_feature(&go_mod("v0.36.0"), &mut issues).as_deref(),
            Some("v1_36")
        );
        assert_eq!(k8s_feature(&go_mod("v0.37.2"), &mut issues), None);
        assert!(issues.is_empty());
        assert_eq!(k8s_feature(&go_mod("v0.30.1"), &mut issues), None);
        assert_eq!(issues.len(), 1);
        assert!(
            issues[0]
                .to_string()
                .starts_with("go.mod:4: k8s.io/api v0.30.1")
        );
    }
}

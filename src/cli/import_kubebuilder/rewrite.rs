//! What the import writes into the scaffolded project: the controllers' RBAC from the Go
//! reconcilers' markers, the controller tests' objects from the Go samples.

use std::path::Path;

use anyhow::Context as _;

use super::place;
use crate::import::kubebuilder::{self, ImportedKind, KubebuilderImport, Resource};

/// Rewrites the file `name` of the project `dir` with `change`.
pub(super) fn edit(dir: &Path, name: &str, change: impl Fn(&str) -> String) -> anyhow::Result<()> {
    let path = dir.join(name);
    let text = std::fs::read_to_string(&path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    std::fs::write(&path, change(&text))?;
    Ok(())
}

/// The controller test builds its object from the Go project's sample.
pub(super) fn rewrite_controller_test(
    dir: &Path,
    kind: &ImportedKind,
    multigroup: bool,
) -> anyhow::Result<()> {
    let path = dir.join(place(
        &format!(
            "tests/{}_controller.rs",
            kind.resource.kind.to_ascii_lowercase()
        ),
        kind,
        multigroup,
    ));
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(());
    };
    let test = kubebuilder::controller_test(&text, kind.sample.as_ref());
    std::fs::write(&path, test)?;
    Ok(())
}

/// The controller's `#[rbac]` attributes become the Go reconciler's markers, and its doc
/// comment names the reconciler it replaces.
pub(super) fn rewrite_controller(
    dir: &Path,
    resource: &Resource,
    reconciler: Option<&(String, Vec<String>)>,
    imported: &KubebuilderImport,
) -> anyhow::Result<()> {
    let path = dir.join(crate::project::layout::place(
        &format!(
            "src/controller/{}_controller.rs",
            resource.kind.to_ascii_lowercase()
        ),
        &resource.group,
        imported.project.multigroup,
    ));
    let text = std::fs::read_to_string(&path)?;
    let first = imported
        .kinds
        .iter()
        .find(|k| k.controller)
        .map(|k| (&k.resource.group, &k.resource.kind));
    let mut rules: Vec<String> = Vec::new();
    let mut pointer = String::new();
    if let Some((file, own)) = reconciler {
        rules.extend(own.iter().cloned());
        pointer = format!(
            "///\n/// Replaces `{}Reconciler.Reconcile` of the kubebuilder project's `{file}`; the\n/// `#[rbac]` attributes are its `+kubebuilder:rbac` markers.\n",
            resource.kind
        );
    }
    if first == Some((&resource.group, &resource.kind)) {
        for (file, other) in &imported.other_rbac {
            pointer.push_str(&format!("/// RBAC markers of `{file}` are here too.\n"));
            rules.extend(other.iter().cloned());
        }
    }
    let mut out = String::new();
    let mut replaced = false;
    for line in text.lines() {
        if line.starts_with("#[rbac(") {
            if !replaced {
                out.push_str(&pointer);
                for rule in &rules {
                    out.push_str(rule);
                    out.push('\n');
                }
                replaced = true;
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    std::fs::write(&path, out)?;
    Ok(())
}

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

/// The stem of the files of `resource`'s controller `name` (`None`: its unnamed one).
fn controller_file(resource: &Resource, name: Option<&str>) -> String {
    crate::project::controller_file(
        &name.map_or_else(|| resource.kind.to_ascii_lowercase(), str::to_owned),
    )
}

/// The test of the controller `name` builds its object from the Go project's sample.
pub(super) fn rewrite_controller_test(
    dir: &Path,
    kind: &ImportedKind,
    name: Option<&str>,
    multigroup: bool,
) -> anyhow::Result<()> {
    let path = dir.join(place(
        &format!(
            "tests/{}_controller.rs",
            controller_file(&kind.resource, name)
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

/// The `#[rbac]` attributes of `resource`'s controller `name` become the Go reconciler's
/// markers, and its doc comment names the reconciler it replaces.
pub(super) fn rewrite_controller(
    dir: &Path,
    resource: &Resource,
    name: Option<&str>,
    reconciler: Option<&(String, Vec<String>)>,
    imported: &KubebuilderImport,
) -> anyhow::Result<()> {
    let path = dir.join(crate::project::layout::place(
        &format!(
            "src/controller/{}_controller.rs",
            controller_file(resource, name)
        ),
        &resource.group,
        imported.project.multigroup,
    ));
    let text = std::fs::read_to_string(&path)?;
    // The markers of Go files that reconcile no imported kind go to the first controller.
    let first = imported
        .kinds
        .iter()
        .find_map(|k| Some((&k.resource.group, &k.resource.kind, k.controllers.first()?)))
        .map(|(group, kind, controller)| (group, kind, controller.name.as_deref()));
    let mut rules: Vec<String> = Vec::new();
    let mut pointer = String::new();
    if let Some((file, own)) = reconciler {
        rules.extend(own.iter().cloned());
        pointer = format!(
            "///\n/// Replaces `{}Reconciler.Reconcile` of the kubebuilder project's\n/// `{file}`; the `#[rbac]` attributes are its `+kubebuilder:rbac` markers.\n",
            kubebuilder::reconciler_of(&resource.kind, name)
        );
    }
    if first == Some((&resource.group, &resource.kind, name)) {
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

//! `+kubebuilder:rbac` markers of the controllers (`internal/controller/**`) to `#[rbac]`
//! attributes, and the reconciler each controller file declares.

use std::collections::BTreeMap;
use std::path::Path;

use super::files::go_files_under;
use super::go::GoFile;
use super::markers::{self, Args};
use super::project_file::Resource;
use super::{Error, known};

/// The `#[rbac(...)]` attributes of a controller file's RBAC markers.
pub fn attributes(file: &GoFile) -> Result<Vec<String>, Error> {
    let names = known::names();
    let mut out = Vec::new();
    for line in file
        .package_markers
        .iter()
        .chain(file.types.iter().flat_map(|t| &t.markers))
    {
        if !line.text.starts_with("kubebuilder:rbac:") {
            continue;
        }
        let bad = |why: String| Error::Marker {
            file: file.path.clone(),
            line: line.line,
            marker: line.text.clone(),
            why,
        };
        let Some(markers::Parsed {
            args: Args::Named(pairs),
            ..
        }) = markers::split(&line.text, &names)
        else {
            return Err(bad("expected `groups=...,resources=...,verbs=...`".into()));
        };
        let mut entries = Vec::new();
        for (key, raw) in pairs {
            let rust = match key.as_str() {
                "groups" => "groups",
                "resources" => "resources",
                "verbs" => "verbs",
                "resourceNames" => "resource_names",
                "urls" => "urls",
                "namespace" => {
                    let value = markers::string(&raw).map_err(bad)?;
                    entries.push(format!("namespace = {value:?}"));
                    continue;
                }
                other => {
                    return Err(bad(format!(
                        "`{other}` is no argument of +kubebuilder:rbac"
                    )));
                }
            };
            let values: Vec<String> = markers::list(&raw)
                .map_err(bad)?
                .iter()
                .map(|v| {
                    format!(
                        "{:?}",
                        v.as_str().map_or_else(|| v.to_string(), str::to_owned)
                    )
                })
                .collect();
            entries.push(format!("{rust} = [{}]", values.join(", ")));
        }
        out.push(format!("#[rbac({})]", entries.join(", ")));
    }
    Ok(out)
}

/// What a controller file's reconciler type is named without `Reconciler`: the kind
/// (`CaptainReconciler`), or a named controller's name in PascalCase (`CaptainBackupReconciler`).
pub fn reconciler_stem(file: &GoFile) -> Option<String> {
    file.types
        .iter()
        .find_map(|t| t.name.strip_suffix("Reconciler").map(str::to_owned))
}

/// The reconciler kubebuilder scaffolds for the controller `name` of `kind` (`None`: PROJECT's
/// `controller: true`), without `Reconciler`: the kind for its default name, else the name in
/// PascalCase (kubebuilder's `NormalizeReconcilerName`).
pub fn reconciler_of(kind: &str, name: Option<&str>) -> String {
    match name {
        Some(name) if name != kind.to_ascii_lowercase() => crate::project::reconciler_stem(name),
        _ => kind.to_owned(),
    }
}

/// The controller files of the project at `root` (`internal/controller/`, `controllers/`): by
/// the `(group, reconciler)` of `kinds`' controllers each declares (`reconciler_of`), its path
/// and `#[rbac]` attributes; and the attributes of the files that are none of them. A
/// multigroup project's controllers are in `internal/controller/<group>/`, and two groups may
/// have a kind of the same name.
#[allow(clippy::type_complexity)]
pub fn by_reconciler(
    root: &Path,
    kinds: &[&Resource],
) -> Result<
    (
        BTreeMap<(String, String), (String, Vec<String>)>,
        Vec<(String, Vec<String>)>,
    ),
    Error,
> {
    let mut controllers = Vec::new();
    for dir in ["internal/controller", "controllers"] {
        go_files_under(root, &root.join(dir), &mut controllers)?;
    }
    let mut by_kind = BTreeMap::new();
    let mut other_rbac = Vec::new();
    for file in &controllers {
        let rules = attributes(file)?;
        let group_dir = controller_group(&file.path);
        let reconciled = reconciler_stem(file).and_then(|stem| {
            (kinds.iter())
                .find(|r| {
                    group_dir.is_none_or(|g| g == r.group)
                        && r.controller_names()
                            .iter()
                            .any(|name| reconciler_of(&r.kind, *name) == stem)
                })
                .map(|r| (r.group.clone(), stem))
        });
        match reconciled {
            Some(key) if !by_kind.contains_key(&key) => {
                by_kind.insert(key, (file.path.clone(), rules));
            }
            _ if !rules.is_empty() => other_rbac.push((file.path.clone(), rules)),
            _ => {}
        }
    }
    Ok((by_kind, other_rbac))
}

/// The group directory of a multigroup project's controller file
/// (`internal/controller/<group>/<kind>_controller.go`), `None` in a single-group one.
fn controller_group(path: &str) -> Option<&str> {
    let rest = path
        .strip_prefix("internal/controller/")
        .or_else(|| path.strip_prefix("controllers/"))?;
    rest.split_once('/').map(|(group, _)| group)
}

//! `+kubebuilder:rbac` markers of the controllers (`internal/controller/**`) to `#[rbac]`
//! attributes, and the reconciler each controller file declares.

use super::go::GoFile;
use super::markers::{self, Args};
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

/// The kind a controller file reconciles: its `<Kind>Reconciler` type.
pub fn reconciled_kind(file: &GoFile) -> Option<String> {
    file.types
        .iter()
        .find_map(|t| t.name.strip_suffix("Reconciler").map(str::to_owned))
}

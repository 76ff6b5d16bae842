//! A root type (`+kubebuilder:object:root=true` with `ObjectMeta`) to the kind's attributes
//! on its spec struct: `#[resource]`, `#[subresource]`, `#[printcolumn]`, the version
//! attributes, `#[selectable_field]`, `#[metadata]`, `#[root(x_validation)]`.

use webop_markers::MarkerKind;

use super::super::attribute::{self, string_literal};
use super::go::{GoFile, GoType, TypeSpec};
use super::markers::{self, Args};
use super::types::{Translator, doc};
use super::{Error, known};

/// A kind of a package: its attributes, the Go types of its spec and status.
pub struct RootKind {
    pub kind: String,
    pub attributes: Vec<String>,
    pub spec: Option<String>,
    pub status: Option<String>,
    /// The root's `Spec` and `Status` fields' docs, which describe `spec` and `status`.
    pub spec_doc: Option<String>,
    pub status_doc: Option<String>,
    pub plural: Option<String>,
    pub namespaced: bool,
}

/// The kind declared by the root type `root` of `file`, in `group` and `version`.
pub fn root_kind(
    translator: &mut Translator,
    file: &GoFile,
    root: &TypeSpec,
    group: &str,
    version: &str,
    several_versions: bool,
) -> Result<RootKind, Error> {
    let kind = root.name.clone();
    let GoType::Struct(fields) = &root.ty else {
        return Err(Error::NotAKind {
            file: file.path.clone(),
            line: root.line,
            kind,
        });
    };
    let names = known::names();
    let mut resource = vec![format!(
        "group = {}, version = {}, kind = {}",
        string_literal(group),
        string_literal(version),
        string_literal(&kind)
    )];
    let mut attributes = Vec::new();
    let mut status_subresource = false;
    let mut plural = None;
    let mut namespaced = true;
    for line in &root.markers {
        let bad = |why: String| Error::Marker {
            file: file.path.clone(),
            line: line.line,
            marker: line.text.clone(),
            why,
        };
        let Some(parsed) = markers::split(&line.text, &names) else {
            if known::is_generator_marker(&line.text) {
                return Err(bad("controller-gen has no such marker".into()));
            }
            continue;
        };
        let pairs = match &parsed.args {
            Args::Named(pairs) => pairs.clone(),
            _ => Vec::new(),
        };
        let text = |key: &str| -> Result<Option<String>, Error> {
            pairs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| markers::string(v).map_err(bad))
                .transpose()
        };
        let list = |key: &str| -> Result<Option<String>, Error> {
            let Some((_, raw)) = pairs.iter().find(|(k, _)| k == key) else {
                return Ok(None);
            };
            let items = markers::list(raw).map_err(bad)?;
            let items: Vec<String> = items
                .iter()
                .map(|v| string_literal(v.as_str().unwrap_or(&v.to_string())))
                .collect();
            Ok(Some(format!("[{}]", items.join(", "))))
        };
        match parsed.name.as_str() {
            "kubebuilder:resource" => {
                if let Some(path) = text("path")? {
                    if path != webop_attrs::names::crd_default_plural(&kind) {
                        resource.push(format!("plural = {}", string_literal(&path)));
                    }
                    plural = Some(path);
                }
                if let Some(singular) = text("singular")? {
                    resource.push(format!("singular = {}", string_literal(&singular)));
                }
                if let Some(short) = list("shortName")? {
                    resource.push(format!("short_name = {short}"));
                }
                if let Some(categories) = list("categories")? {
                    resource.push(format!("category = {categories}"));
                }
                if let Some(scope) = text("scope")? {
                    namespaced = scope != "Cluster";
                    if !namespaced {
                        resource.push(format!("scope = {}", string_literal(&scope)));
                    }
                }
            }
            "kubebuilder:subresource:status" => status_subresource = true,
            "kubebuilder:subresource:scale" => {
                let mut entries = Vec::new();
                for (go, rust) in [
                    ("specpath", "spec_path"),
                    ("statuspath", "status_path"),
                    ("selectorpath", "selector_path"),
                ] {
                    if let Some(value) = text(go)? {
                        entries.push(format!("{rust} = {}", string_literal(&value)));
                    }
                }
                attributes.push(format!("#[subresource(scale({}))]", entries.join(", ")));
            }
            "kubebuilder:printcolumn" => {
                let mut entries = Vec::new();
                for (go, rust) in [
                    ("name", "name"),
                    ("type", "type"),
                    ("JSONPath", "json_path"),
                    ("description", "description"),
                    ("format", "format"),
                ] {
                    if let Some(value) = text(go)? {
                        entries.push(format!("{rust} = {}", string_literal(&value)));
                    }
                }
                if let Some(priority) = text("priority")?.filter(|p| p != "0") {
                    entries.push(format!("priority = {priority}"));
                }
                attributes.push(format!("#[printcolumn({})]", entries.join(", ")));
            }
            "kubebuilder:storageversion" if several_versions => {
                attributes.push("#[storage_version]".into())
            }
            "kubebuilder:unservedversion" => attributes.push("#[unserved_version]".into()),
            "kubebuilder:skipversion" => attributes.push("#[skip_version]".into()),
            "kubebuilder:deprecatedversion" => attributes.push(match text("warning")? {
                Some(w) => format!("#[deprecated_version(warning = {})]", string_literal(&w)),
                None => "#[deprecated_version]".into(),
            }),
            "kubebuilder:selectablefield" => {
                if let Some(path) = text("JSONPath")? {
                    attributes.push(format!(
                        "#[selectable_field(json_path = {})]",
                        string_literal(&path)
                    ));
                }
            }
            "kubebuilder:metadata" => {
                let mut entries = Vec::new();
                for key in ["annotations", "labels"] {
                    if let Some(values) = list(key)? {
                        entries.push(format!("{key} = {values}"));
                    }
                }
                attributes.push(format!("#[metadata({})]", entries.join(", ")));
            }
            "kubebuilder:skip" => resource.push("skip".into()),
            "kubebuilder:validation:XValidation" => {
                let spec = MarkerKind::XValidation.spec();
                let value = markers::payload_value(spec, &parsed.args).map_err(bad)?;
                for rule in attribute::write(spec, &value).map_err(bad)? {
                    attributes.push(format!("#[root(x_validation({}))]", rule.text));
                }
            }
            _ => {}
        }
    }
    collapse_repeated(translator, file, root, &mut resource, &mut attributes);
    let description = webop_attrs::doc::from_lines(&root.doc);
    if let Some(description) = description.filter(|_| doc(&root.doc).is_some()) {
        resource.push(format!("doc = {}", string_literal(&description)));
    }
    let mut spec = None;
    let mut status = None;
    let (mut spec_doc, mut status_doc) = (None, None);
    for field in fields {
        let json = field.tag_value("json").unwrap_or_default();
        let mut parts = json.split(',');
        let name = parts.next().unwrap_or("");
        let options: Vec<&str> = parts.collect();
        let go_type = match &field.ty {
            GoType::Named { pkg: None, name } => Some(name.clone()),
            GoType::Pointer(inner) => match &**inner {
                GoType::Named { pkg: None, name } => Some(name.clone()),
                _ => None,
            },
            _ => None,
        };
        match (name, go_type) {
            ("", _) | ("metadata", _) => {}
            ("spec", Some(ty)) => {
                let optional = options.contains(&"omitempty")
                    || field.markers.iter().any(|m| m.text.ends_with("ptional"));
                let required = field.markers.iter().any(|m| m.text.ends_with("equired"));
                if required || (!optional && !translator.package.optional_by_default()) {
                    resource.push("spec_required".into());
                }
                spec = Some(ty);
                spec_doc = doc(&field.doc);
            }
            ("status", Some(ty)) => {
                status = Some(ty);
                status_doc = doc(&field.doc);
            }
            _ => translator.issues.push(super::Issue {
                file: file.path.clone(),
                line: field.line,
                what: format!("{kind} has a root field {name:?} beside spec and status: left out"),
            }),
        }
    }
    if let Some(status) = &status {
        let rust = translator.rust_name(status);
        attributes.insert(
            0,
            match (status_subresource, rust == format!("{kind}Status")) {
                (true, true) => "#[subresource(status)]".into(),
                (true, false) => format!("#[subresource(status = {rust:?})]"),
                (false, _) => format!("#[resource(status = {rust:?})]"),
            },
        );
    } else if status_subresource {
        attributes.insert(0, "#[subresource(status = \"()\")]".into());
    }
    attributes.insert(0, format!("#[resource({})]", resource.join(", ")));
    Ok(RootKind {
        kind,
        attributes,
        spec,
        status,
        spec_doc,
        status_doc,
        plural,
        namespaced,
    })
}

/// controller-gen reads a kind marker that stands twice (`+kubebuilder:storageversion` above
/// the type and again above its root marker) once: the same attribute twice is written once.
/// Printcolumns are a list, each one a column, and stay as written.
fn collapse_repeated(
    translator: &mut Translator,
    file: &GoFile,
    root: &TypeSpec,
    resource: &mut Vec<String>,
    attributes: &mut Vec<String>,
) {
    let before = resource.len() + attributes.len();
    let mut seen = std::collections::BTreeSet::new();
    resource.retain(|entry| seen.insert(entry.clone()));
    let mut seen = std::collections::BTreeSet::new();
    attributes.retain(|a| a.starts_with("#[printcolumn") || seen.insert(a.clone()));
    if resource.len() + attributes.len() < before {
        translator.note(
            file,
            root.line,
            format!(
                "{}: a repeated kind marker is read once, as controller-gen reads it",
                root.name
            ),
        );
    }
}

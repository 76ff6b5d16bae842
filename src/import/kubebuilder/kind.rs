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
    /// With `#[resource(flatten_spec)]` (a root with fields of its own): the `<Kind>Spec`
    /// struct of the root's fields but metadata and status.
    pub flattened: Option<TypeSpec>,
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
    // The fields but metadata and status, and whether one of them is no `spec`.
    let (mut meta, mut rest, mut own) = ((false, false), Vec::new(), false);
    for field in fields {
        let json = field.tag_value("json").unwrap_or_default();
        let name = json.split(',').next().unwrap_or("");
        match (name, field.name.is_none(), metav1_type(file, &field.ty)) {
            (_, true, Some("TypeMeta")) => meta.0 = true,
            (_, true, Some("ObjectMeta")) => meta.1 = true,
            ("metadata", ..) => {}
            ("status", ..) if local_name(&field.ty).is_none() => {
                translator.issues.push(super::Issue {
                    file: file.path.clone(),
                    line: field.line,
                    what: format!("{kind}'s status is of another package's type: left out"),
                })
            }
            ("status", ..) => {
                status = local_name(&field.ty);
                status_doc = doc(&field.doc);
                if translator.required(field) {
                    resource.push("status_required".into());
                }
            }
            ("spec", ..) if local_name(&field.ty).is_some() => {
                spec = local_name(&field.ty);
                spec_doc = doc(&field.doc);
                if translator.required(field) {
                    resource.push("spec_required".into());
                }
                rest.push(field.clone());
            }
            ("", true, Some(_)) => {}
            _ => {
                rest.push(field.clone());
                own = true;
            }
        }
    }
    if meta != (true, true) && !resource.iter().any(|r| r == "skip") {
        // controller-gen's kinds are the types that embed both: it writes no CRD of this one.
        resource.push("skip".into());
        translator.note(
            file,
            root.line,
            format!(
                "{kind} does not embed both metav1.TypeMeta and metav1.ObjectMeta, so controller-gen writes no CRD of it: #[resource(skip)]"
            ),
        );
    }
    // A root with fields of its own: all but metadata and status are the spec's, at the root.
    let flattened = own.then(|| {
        spec = None;
        resource.retain(|r| r != "spec_required");
        resource.push("flatten_spec".into());
        spec_doc = None;
        // The flattened struct is `<Kind>Spec`; a Go type of that name (a `Spec` field's) is
        // `<Kind>SpecFields`. The struct's Go name is none a Go type can have.
        let (go, rust) = (format!("{kind} root"), format!("{kind}Spec"));
        if translator.package.find(&rust).is_some() {
            let renamed = format!("{rust}Fields");
            translator.renames.insert(rust.clone(), renamed);
        }
        translator.renames.insert(go.clone(), rust);
        TypeSpec {
            name: go,
            line: root.line,
            doc: Vec::new(),
            markers: Vec::new(),
            alias: false,
            ty: GoType::Struct(rest),
        }
    });
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
        flattened,
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

/// The package's own type a field names (`T` or `*T`).
fn local_name(ty: &GoType) -> Option<String> {
    match ty {
        GoType::Named { pkg: None, name } => Some(name.clone()),
        GoType::Pointer(inner) => local_name(inner),
        _ => None,
    }
}

/// The name of a type of `k8s.io/apimachinery/pkg/apis/meta/v1` (`metav1.ObjectMeta`), as
/// controller-gen finds kinds by them (embedded, not through a pointer).
fn metav1_type<'a>(file: &GoFile, ty: &'a GoType) -> Option<&'a str> {
    match ty {
        GoType::Named {
            pkg: Some(pkg),
            name,
        } if file.import_path(pkg) == Some("k8s.io/apimachinery/pkg/apis/meta/v1") => Some(name),
        _ => None,
    }
}

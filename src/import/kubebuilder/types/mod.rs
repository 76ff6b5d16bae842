//! Go types of an API package to Rust items: structs with tagged fields, named types over
//! others (newtypes), string types with `+kubebuilder:validation:Enum` (enums), aliases; their
//! markers spelled from the catalogue rows as `import crd` spells them.

// More of `Translator`'s methods, one concept each; as child modules they use its private
// fields and the helpers below without widening them.
mod custom_json;
mod k8s_enum;
mod rust_type;
mod schema_markers;

pub use rust_type::shared_module;

use std::collections::{BTreeMap, BTreeSet};

use webop_markers::{Family, Place};

use super::super::attribute::Written;
use super::super::model::{Enum, Field, Item, Newtype, Struct};
use super::super::naming;
use super::go::{self, GoFile, GoType, MarkerLine, TypeSpec};
use super::markers::{self, Args};
use super::{Error, Issue, known};

/// The types of one API package (one group version).
pub struct Package {
    pub files: Vec<GoFile>,
}

impl Package {
    /// Every package-level marker of its files.
    pub fn markers(&self) -> impl Iterator<Item = &MarkerLine> {
        self.files.iter().flat_map(|f| &f.package_markers)
    }

    /// The value of the package marker `name` (`groupName`).
    pub fn marker_value(&self, name: &str) -> Option<String> {
        self.markers().find_map(|m| {
            let rest = m.text.strip_prefix(name)?.strip_prefix('=')?;
            markers::string(rest).ok()
        })
    }

    /// `+kubebuilder:validation:Optional` on the package: fields are optional by default.
    pub fn optional_by_default(&self) -> bool {
        self.markers()
            .any(|m| m.text == "kubebuilder:validation:Optional")
    }

    pub fn find(&self, name: &str) -> Option<(&GoFile, &TypeSpec)> {
        self.files
            .iter()
            .find_map(|f| f.types.iter().find(|t| t.name == name).map(|t| (f, t)))
    }
}

/// Translates the types of a package, collecting what has no Rust mapping.
pub struct Translator<'a> {
    pub package: &'a Package,
    /// Go type names whose Rust name differs (a spec type not named `<Kind>Spec`).
    pub renames: BTreeMap<String, String>,
    pub issues: Vec<Issue>,
    /// What was dropped or collapsed as controller-gen drops or collapses it: nothing is lost.
    pub notes: Vec<Issue>,
    /// The project's other Go packages whose types this one names: the Go module's path, the
    /// directories of its API packages (whose types are not shared), and what is used
    /// (`(directory, type)`), which `shared` translates into modules of the API crate.
    pub module: String,
    pub api_dirs: BTreeSet<String>,
    pub shared: BTreeSet<(String, String)>,
    names: Vec<&'static str>,
}

/// A field's presence, by controller-gen's rules.
struct Presence {
    required: bool,
    inline: bool,
}

impl<'a> Translator<'a> {
    pub fn new(package: &'a Package) -> Self {
        Translator {
            package,
            renames: BTreeMap::new(),
            issues: Vec::new(),
            notes: Vec::new(),
            module: String::new(),
            api_dirs: BTreeSet::new(),
            shared: BTreeSet::new(),
            names: known::names(),
        }
    }

    fn issue(&mut self, file: &GoFile, line: usize, what: impl Into<String>) {
        self.issues.push(Issue {
            file: file.path.clone(),
            line,
            what: what.into(),
        });
    }

    pub fn note(&mut self, file: &GoFile, line: usize, what: impl Into<String>) {
        self.notes.push(Issue {
            file: file.path.clone(),
            line,
            what: what.into(),
        });
    }

    pub fn rust_name(&self, go: &str) -> String {
        self.renames
            .get(go)
            .cloned()
            .unwrap_or_else(|| go.to_owned())
    }

    /// The local types `ty` refers to.
    pub fn references(ty: &GoType, out: &mut Vec<String>) {
        match ty {
            GoType::Named { pkg: None, name } => out.push(name.clone()),
            GoType::Pointer(t) | GoType::Slice(t) | GoType::Array(_, t) => Self::references(t, out),
            GoType::Map(k, v) => {
                Self::references(k, out);
                Self::references(v, out);
            }
            GoType::Struct(fields) => fields.iter().for_each(|f| Self::references(&f.ty, out)),
            _ => {}
        }
    }

    /// The item for the local type `spec` declared in `file`; `None` for a type with no Rust
    /// mapping (an issue says why).
    pub fn item(&mut self, file: &GoFile, spec: &TypeSpec) -> Result<Option<Item>, Error> {
        let name = self.rust_name(&spec.name);
        let doc = doc(&spec.doc);
        if spec.alias {
            self.issue(
                file,
                spec.line,
                format!(
                    "type alias {} = ...: written as the type it names where it is used",
                    spec.name
                ),
            );
            return Ok(None);
        }
        if let Some(item) = self.custom_json(file, spec)? {
            return Ok(Some(item));
        }
        match &spec.ty {
            GoType::Struct(fields) => {
                let markers = self.markers(file, &spec.markers, Place::Type)?;
                let mut out = Struct {
                    name,
                    doc,
                    kind_attributes: Vec::new(),
                    markers,
                    fields: Vec::new(),
                    unit: false,
                };
                let mut taken = BTreeSet::new();
                for field in fields {
                    if let Some(f) = self.field(file, field, &mut taken)? {
                        out.fields.push(f);
                    }
                }
                Ok(Some(Item::Struct(out)))
            }
            GoType::Other(what) => {
                self.issue(
                    file,
                    spec.line,
                    format!("type {} is {what}: no schema, left out", spec.name),
                );
                Ok(None)
            }
            ty => {
                let mut markers = self.markers(file, &spec.markers, Place::Type)?;
                let Some(inner) = self.rust_type(file, spec.line, ty) else {
                    return Ok(None);
                };
                if spec.markers.iter().any(|m| m.text == k8s_enum::MARKER) {
                    return self.k8s_enum(file, spec, &inner, markers).map(Some);
                }
                let enum_at = markers
                    .iter()
                    .position(|m| m.family == Family::Validate && m.text.starts_with("enum = "));
                if inner == "String"
                    && let Some(at) = enum_at
                {
                    let values = self.enum_values(&spec.markers);
                    if let Some(variants) = values.as_ref().and_then(naming::variants) {
                        markers.remove(at);
                        return Ok(Some(Item::Enum(Enum {
                            name,
                            doc,
                            markers,
                            variants,
                        })));
                    }
                }
                Ok(Some(Item::Newtype(Newtype {
                    name,
                    doc,
                    markers,
                    inner,
                })))
            }
        }
    }

    fn enum_values(&self, markers: &[MarkerLine]) -> Option<serde_json::Value> {
        markers.iter().find_map(|m| {
            let parsed = markers::split(&m.text, &self.names)?;
            match (parsed.name.as_str(), parsed.args) {
                ("kubebuilder:validation:Enum", Args::Anonymous(raw)) => {
                    markers::list(&raw).ok().map(serde_json::Value::Array)
                }
                _ => None,
            }
        })
    }

    /// Whether controller-gen lists `field` (a root's `Spec` or `Status`) as required.
    pub fn required(&self, field: &go::Field) -> bool {
        let tag = field.tag_value("json").unwrap_or_default();
        let mut parts = tag.split(',');
        let name = parts.next().unwrap_or("");
        let options: Vec<&str> = parts.collect();
        self.presence(field, name, &options).required
    }

    fn presence(&self, field: &go::Field, json_name: &str, options: &[&str]) -> Presence {
        let inline = options.contains(&"inline") || json_name.is_empty();
        let omitempty = options.contains(&"omitempty");
        let has = |name: &str| field.markers.iter().any(|m| m.text == name);
        let required = if has("kubebuilder:validation:Optional") {
            false
        } else if has("kubebuilder:validation:Required") {
            true
        } else if has("optional") || has("k8s:optional") {
            false
        } else if has("required") || has("k8s:required") {
            true
        } else {
            !self.package.optional_by_default() && !inline && !omitempty
        };
        Presence { required, inline }
    }

    fn field(
        &mut self,
        file: &GoFile,
        field: &go::Field,
        taken: &mut BTreeSet<String>,
    ) -> Result<Option<Field>, Error> {
        let shown = field.name.clone().unwrap_or_else(|| type_name(&field.ty));
        let Some(tag) = field.tag_value("json") else {
            if field.name.is_none() {
                self.issue(
                    file,
                    field.line,
                    format!("embedded {shown} without a json tag: left out"),
                );
            } else {
                self.issue(
                    file,
                    field.line,
                    format!("field {shown} has no json tag (controller-gen refuses it): left out"),
                );
            }
            return Ok(None);
        };
        if tag == "-" {
            return Ok(None);
        }
        let mut parts = tag.split(',');
        let json_name = parts.next().unwrap_or("").to_owned();
        let options: Vec<&str> = parts.collect();
        let presence = self.presence(field, &json_name, &options);
        let mut markers = self.markers(file, &field.markers, Place::Field)?;
        let Some(ty) = self.rust_type(file, field.line, &field.ty) else {
            return Ok(None);
        };
        if presence.inline {
            let base = naming::field_ident(&type_name(&field.ty), taken);
            return Ok(Some(Field {
                ident: base,
                rename: None,
                doc: None,
                ty,
                markers: Vec::new(),
                flatten: true,
            }));
        }
        let ident = match &field.name {
            Some(name)
                if naming::camel_case(
                    naming::field_ident(name, &mut BTreeSet::new()).trim_start_matches("r#"),
                ) == json_name =>
            {
                naming::field_ident(name, taken)
            }
            _ => naming::field_ident(&json_name, taken),
        };
        let rename = (naming::camel_case(ident.trim_start_matches("r#")) != json_name)
            .then(|| json_name.clone());
        let has_default = markers
            .iter()
            .any(|m| m.family == Family::Schema && m.text.starts_with("default = "));
        let ty = if has_default {
            if presence.required {
                markers.insert(
                    0,
                    Written {
                        family: Family::Validate,
                        text: "required".into(),
                    },
                );
            }
            ty
        } else if presence.required {
            ty
        } else {
            format!("Option<{ty}>")
        };
        Ok(Some(Field {
            ident,
            rename,
            doc: doc(&field.doc),
            ty,
            markers,
            flatten: false,
        }))
    }
}

fn named(name: &str) -> GoType {
    GoType::Named {
        pkg: None,
        name: name.to_owned(),
    }
}

/// The name an embedded field is known by (its type's name).
fn type_name(ty: &GoType) -> String {
    match ty {
        GoType::Named { name, .. } => name.clone(),
        GoType::Pointer(inner) => type_name(inner),
        _ => "inline".into(),
    }
}

/// A doc comment from Go's doc lines, `None` when there are none.
pub fn doc(lines: &[String]) -> Option<String> {
    (!lines.is_empty()).then(|| lines.join("\n"))
}

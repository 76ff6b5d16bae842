//! Types with JSON of their own (a `MarshalJSON` or `MarshalText` method): controller-gen does
//! not look into them when a `+kubebuilder:validation:Type` says what the JSON is (for
//! `MarshalText`, a string), and writes only their markers, without the type's doc. In Rust
//! they are newtypes over the JSON form (`pub struct Position(pub String);`), whose serde is
//! the wire form.

use webop_markers::{Family, Place};

use super::super::super::model::{Item, Newtype};
use super::super::Error;
use super::super::go::{GoFile, TypeSpec};
use super::Translator;

impl Translator<'_> {
    /// The newtype of `spec` when it has JSON of its own and a schema type, else `None` (its
    /// Go type is traversed, as controller-gen does without the marker).
    pub(super) fn custom_json(
        &mut self,
        file: &GoFile,
        spec: &TypeSpec,
    ) -> Result<Option<Item>, Error> {
        let has = |method: &str| {
            (self.package.files.iter())
                .flat_map(|f| &f.methods)
                .any(|(receiver, name)| *receiver == spec.name && name == method)
        };
        let (json, text) = (has("MarshalJSON"), has("MarshalText"));
        if !json && !text {
            return Ok(None);
        }
        let markers = self.markers(file, &spec.markers, Place::Type)?;
        let declared = markers.iter().find_map(|m| {
            (m.family == Family::Validate)
                .then(|| m.text.strip_prefix("type = "))
                .flatten()
                .map(|t| t.trim_matches('"').to_owned())
        });
        let ty = match (declared, json) {
            (Some(ty), _) => ty,
            (None, false) => "string".to_owned(),
            (None, true) => return Ok(None),
        };
        let preserves = markers
            .iter()
            .any(|m| m.family == Family::Schema && m.text == "preserve_unknown_fields");
        // A Rust type whose schema is that type and nothing else.
        let inner = match ty.as_str() {
            "string" => "String",
            "integer" => "isize",
            "number" => "f64",
            "boolean" => "bool",
            "object" if preserves => "serde_json::Map<String, serde_json::Value>",
            _ => {
                self.issue(
                    file,
                    spec.line,
                    format!(
                        "type {} has JSON of its own of type {ty}, which no Rust type gives alone: written over serde_json::Value, whose schema adds x-kubernetes-preserve-unknown-fields",
                        spec.name
                    ),
                );
                return Ok(Some(Item::Newtype(Newtype {
                    name: self.rust_name(&spec.name),
                    doc: None,
                    markers,
                    inner: "serde_json::Value".into(),
                })));
            }
        };
        if !spec.doc.is_empty() {
            self.note(
                file,
                spec.line,
                format!(
                    "type {} has JSON of its own: its doc is no description, as controller-gen writes none",
                    spec.name
                ),
            );
        }
        Ok(Some(Item::Newtype(Newtype {
            name: self.rust_name(&spec.name),
            doc: None,
            markers,
            inner: inner.into(),
        })))
    }
}

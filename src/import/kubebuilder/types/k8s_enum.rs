//! `+k8s:enum` on a string type: controller-gen's enum of the package's constants of that
//! type, sorted by their JSON text as Go writes it.

use serde_json::Value;
use webop_markers::{CATALOGUE, Family};

use super::super::super::attribute::{self, Written};
use super::super::super::model::{Enum, Item, Newtype};
use super::super::super::naming;
use super::super::Error;
use super::super::go::{GoFile, TypeSpec};
use super::Translator;

pub const MARKER: &str = "k8s:enum";

impl Translator<'_> {
    /// The enum of `spec`, a type marked `+k8s:enum` over `inner` (a string type, as
    /// controller-gen requires): a Rust enum of the constants' values in controller-gen's
    /// order, or a newtype with `#[validate(enum = [...])]` when the values make no
    /// identifiers (or repeat). `markers` are the type's other markers.
    pub(super) fn k8s_enum(
        &mut self,
        file: &GoFile,
        spec: &TypeSpec,
        inner: &str,
        mut markers: Vec<Written>,
    ) -> Result<Item, Error> {
        let refused = |why: String| {
            let line = spec.markers.iter().find(|m| m.text == MARKER);
            Error::Marker {
                file: file.path.clone(),
                line: line.map_or(spec.line, |m| m.line),
                marker: MARKER.into(),
                why,
            }
        };
        if inner != "String" {
            return Err(refused(format!(
                "type {} is no string type (controller-gen refuses it too)",
                spec.name
            )));
        }
        // controller-gen takes the constants declared with the type whose value is a string
        // literal, in any file of the package.
        let mut values: Vec<String> = (self.package.files.iter())
            .flat_map(|f| &f.consts)
            .filter(|c| c.ty.as_deref() == Some(spec.name.as_str()))
            .filter_map(|c| c.value.clone())
            .collect();
        if values.is_empty() {
            return Err(refused(format!(
                "no constant of type {} (controller-gen refuses it too)",
                spec.name
            )));
        }
        values.sort_by_key(|v| go_json(v));
        let values = Value::Array(values.into_iter().map(Value::String).collect());
        let name = self.rust_name(&spec.name);
        let doc = super::doc(&spec.doc);
        if let Some(variants) = naming::variants(&values) {
            return Ok(Item::Enum(Enum {
                name,
                doc,
                markers,
                variants,
            }));
        }
        let row = CATALOGUE
            .iter()
            .find(|row| row.go == "+kubebuilder:validation:Enum")
            .expect("the catalogue has validation:Enum");
        let written = attribute::write(row, &values).map_err(refused)?;
        markers.retain(|m| !(m.family == Family::Validate && m.text.starts_with("enum = ")));
        markers.extend(written);
        Ok(Item::Newtype(Newtype {
            name,
            doc,
            markers,
            inner: "String".into(),
        }))
    }
}

/// A string as Go's `json.Marshal` writes it, which escapes `<`, `>`, `&`, U+2028 and U+2029.
fn go_json(value: &str) -> String {
    let text = serde_json::to_string(value).unwrap_or_default();
    text.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::go_json;

    #[test]
    fn values_sort_by_go_s_json_text() {
        let mut values = vec!["steady", "Flashing", "a>b", "a&b", "dark"];
        values.sort_by_key(|v| go_json(v));
        // Go writes `&` and `>` as `\u0026` and `\u003e`: `&` first, both before `d`.
        assert_eq!(values, ["Flashing", "a\u{26}b", "a>b", "dark", "steady"]);
        assert_eq!(go_json("a<b"), "\"a\\u003cb\"");
    }
}

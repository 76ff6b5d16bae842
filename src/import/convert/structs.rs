//! Structs: a schema's properties as fields (required or `Option`, renamed, documented), a
//! kind's spec, and a field over a named type that both set a bound (controller-gen's `allOf`).

use std::collections::BTreeSet;

use serde_json::{Map, Value};
use webop_markers::{Family, Place};

use super::{Converter, Position, Resolved, invalid};
use crate::import::Error;
use crate::import::attribute::Written;
use crate::import::model::{Field, Item, Newtype, Struct};
use crate::import::naming::{camel_case, field_ident};

impl Converter<'_> {
    /// A field whose type and the field itself set the same bound differently: controller-gen
    /// hoists the two into `allOf: [<the type's>, <the field's>]`. In Rust: a newtype carrying
    /// the first, the field carrying the second.
    pub(super) fn hoisted(
        &mut self,
        object: &Map<String, Value>,
        path: &str,
        hint: &str,
    ) -> Result<Option<Resolved>, Error> {
        let Some(Value::Array(branches)) = object.get("allOf") else {
            return Ok(None);
        };
        let [Value::Object(of_type), Value::Object(of_field)] = &branches[..] else {
            return Ok(None);
        };
        let carried = |branch: &Map<String, Value>, place| {
            branch
                .keys()
                .all(|k| self.table.carrier(k, place).is_some())
        };
        if !carried(of_type, Place::Type) || !carried(of_field, Place::Field) {
            return Ok(None);
        }
        let mut rest = object.clone();
        rest.remove("allOf");
        let mut resolved = self.resolve(&Value::Object(rest), path, hint, Position::Field)?;
        let owned = |m: &Map<String, Value>| -> Vec<(String, Value)> {
            m.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
        };
        let (type_keywords, field_keywords) = (owned(of_type), owned(of_field));
        let markers = self.markers(&type_keywords, path, Place::Type);
        let newtype = Item::Newtype(Newtype {
            name: String::new(),
            doc: None,
            markers,
            inner: resolved.ty,
        });
        resolved.ty = self.register(newtype, hint);
        let field_markers = self.markers(&field_keywords, path, Place::Field);
        resolved.markers.extend(field_markers);
        Ok(Some(resolved))
    }

    /// The struct of a kind's spec (or of its root, with `flatten_spec`): `node`'s properties
    /// as fields, its other keywords on the struct, not registered.
    pub fn root_struct(
        &mut self,
        node: &Map<String, Value>,
        path: &str,
        name: &str,
        skip: &[&str],
    ) -> Result<Struct, Error> {
        let consumed: BTreeSet<&str> = ["type", "properties", "required", "description"].into();
        if node.get("type").and_then(Value::as_str) != Some("object") {
            self.note(path, "type", "the spec is not an object: written as one");
        }
        let mut spec = self.structure(node, path, name, skip)?;
        spec.doc = node
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let extra: Vec<(String, Value)> = node
            .iter()
            .filter(|(k, _)| !consumed.contains(k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        spec.markers = self.markers(&extra, path, Place::Type);
        Ok(spec)
    }

    /// A struct of `object`'s properties (all but `skip`), named `name` (for its fields' types).
    pub(super) fn structure(
        &mut self,
        object: &Map<String, Value>,
        path: &str,
        name: &str,
        skip: &[&str],
    ) -> Result<Struct, Error> {
        let empty = Map::new();
        let properties = match object.get("properties") {
            Some(Value::Object(p)) => p,
            Some(_) => return Err(invalid(path, "properties", "must be an object")),
            None => &empty,
        };
        let required: Vec<String> = match object.get("required") {
            Some(Value::Array(list)) => list
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect::<Option<_>>()
                .ok_or_else(|| invalid(path, "required", "must be a list of names"))?,
            Some(_) => return Err(invalid(path, "required", "must be a list of names")),
            None => Vec::new(),
        };
        let mut sorted = required.clone();
        sorted.sort();
        sorted.dedup();
        if sorted != required {
            self.note(
                path,
                "required",
                "webop lists required fields sorted, once each",
            );
        }
        for name in &required {
            if !properties.contains_key(name) && !skip.contains(&name.as_str()) {
                self.note(
                    path,
                    "required",
                    format!("{name:?} is no property: left out"),
                );
            }
        }
        let mut names: Vec<&String> = properties
            .keys()
            .filter(|k| !skip.contains(&k.as_str()))
            .collect();
        names.sort();
        let mut idents = BTreeSet::new();
        let mut fields = Vec::new();
        for property in names {
            let node = &properties[property];
            let at = format!("{path}.{property}");
            let resolved = self.resolve(node, &at, property, Position::Field)?;
            let node_object = node.as_object();
            let flag =
                |key: &str| node_object.is_some_and(|o| o.get(key) == Some(&Value::Bool(true)));
            let has_default = node_object.is_some_and(|o| o.contains_key("default"));
            let is_required = required.contains(property);
            let nullable = flag("nullable");
            let (optional, mark_required) = match (is_required, has_default, nullable) {
                (true, _, true) => (true, true),
                (true, true, false) => (false, true),
                (true, false, false) => (false, false),
                (false, true, false) => (false, false),
                (false, _, _) => (true, false),
            };
            let ty = if optional {
                format!("Option<{}>", resolved.ty)
            } else {
                resolved.ty
            };
            let mut markers = resolved.markers;
            if mark_required {
                markers.insert(
                    0,
                    Written {
                        family: Family::Validate,
                        text: "required".into(),
                    },
                );
            }
            let ident = field_ident(property, &mut idents);
            let rename =
                (camel_case(ident.trim_start_matches("r#")) != *property).then(|| property.clone());
            fields.push(Field {
                ident,
                rename,
                doc: resolved.doc,
                ty,
                markers,
                flatten: false,
            });
        }
        Ok(Struct {
            name: name.to_owned(),
            doc: None,
            kind_attributes: Vec::new(),
            markers: Vec::new(),
            fields,
            unit: false,
        })
    }
}

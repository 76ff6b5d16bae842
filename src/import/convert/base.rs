//! A node's Rust base type: a recognised k8s-openapi type (`known`), a generated struct, a map,
//! a list, an enum, a newtype or a std scalar, and the keywords that type already gives.

use std::collections::BTreeSet;

use serde_json::{Map, Value};
use webop_markers::Family;

use super::{Base, Converter, Position, SCHEMA_KEYWORDS};
use crate::import::Error;
use crate::import::attribute::Written;
use crate::import::k8s;
use crate::import::keywords::same;
use crate::import::model::{Enum, Item};
use crate::import::naming::{camel_hint, singular, variants};

impl Converter<'_> {
    pub(super) fn base(
        &mut self,
        object: &Map<String, Value>,
        path: &str,
        hint: &str,
        position: Position,
    ) -> Result<(Base, BTreeSet<&'static str>), Error> {
        if let Some((known, consumed)) = self.known(object, hint) {
            return Ok((Base::Plain(known), consumed));
        }
        let ty = object.get("type").and_then(Value::as_str);
        let has = |key: &str| object.contains_key(key);
        let preserve =
            object.get("x-kubernetes-preserve-unknown-fields") == Some(&Value::Bool(true));
        let set = |keys: &[&'static str]| keys.iter().copied().collect::<BTreeSet<_>>();
        Ok(match ty {
            Some("object") if has("properties") || !(has("additionalProperties") || preserve) => {
                if has("additionalProperties") {
                    self.note(
                        path,
                        "additionalProperties",
                        "a struct has no additional properties: left out",
                    );
                }
                let name = self.type_name(hint);
                self.parents.push(camel_hint(hint));
                let item = self.structure(object, path, &name, &[]);
                self.parents.pop();
                let item = Item::Struct(item?);
                (
                    Base::Generated(item),
                    set(&["type", "properties", "required", "additionalProperties"]),
                )
            }
            Some("object") if has("additionalProperties") => {
                match &object["additionalProperties"] {
                    Value::Object(_) => {
                        let value = self.resolve(
                            &object["additionalProperties"],
                            &format!("{path}.*"),
                            &format!("{hint}Value"),
                            Position::Named,
                        )?;
                        let ty = format!("std::collections::BTreeMap<String, {}>", value.ty);
                        (Base::Plain(ty), set(&["type", "additionalProperties"]))
                    }
                    other => {
                        self.note(
                            path,
                            "additionalProperties",
                            format!("`{other}` is not a schema: a map of any values instead"),
                        );
                        let ty = "serde_json::Map<String, serde_json::Value>".to_owned();
                        (Base::Plain(ty), set(&["type", "additionalProperties"]))
                    }
                }
            }
            Some("object") => (
                Base::Plain("serde_json::Map<String, serde_json::Value>".into()),
                set(&["type", "x-kubernetes-preserve-unknown-fields"]),
            ),
            Some("array") => {
                let Some(items) = object.get("items") else {
                    self.note(
                        path,
                        "items",
                        "a list without items: a list of any values instead",
                    );
                    return Ok((Base::Plain("Vec<serde_json::Value>".into()), set(&["type"])));
                };
                let items_position = if position == Position::Field {
                    Position::FieldItems
                } else {
                    Position::Named
                };
                let item = self.resolve(
                    items,
                    &format!("{path}[*]"),
                    &singular(hint),
                    items_position,
                )?;
                let ty = format!("Vec<{}>", item.ty);
                if !item.markers.is_empty() {
                    // Only a field's items get here with markers; the field writes them.
                    let texts: Vec<String> = item.markers.into_iter().map(|m| m.text).collect();
                    self.items_markers = Some(Written {
                        family: Family::Validate,
                        text: format!("items({})", texts.join(", ")),
                    });
                }
                (Base::Plain(ty), set(&["type", "items"]))
            }
            Some("string") => match object.get("enum").and_then(variants) {
                Some(variants) => {
                    let item = Item::Enum(Enum {
                        name: String::new(),
                        doc: None,
                        markers: Vec::new(),
                        variants,
                    });
                    (Base::Generated(item), set(&["type", "enum"]))
                }
                None => (Base::Plain("String".into()), set(&["type"])),
            },
            Some("integer") => match object.get("format").and_then(Value::as_str) {
                Some("int32") => (Base::Plain("i32".into()), set(&["type", "format"])),
                Some("int64") => (Base::Plain("i64".into()), set(&["type", "format"])),
                _ => (Base::Plain("isize".into()), set(&["type"])),
            },
            Some("number") => (Base::Plain("f64".into()), set(&["type"])),
            Some("boolean") => (Base::Plain("bool".into()), set(&["type"])),
            None if preserve => (
                Base::Plain("serde_json::Value".into()),
                set(&["x-kubernetes-preserve-unknown-fields"]),
            ),
            other => {
                let found = other.map_or("no type".to_owned(), |t| format!("type {t:?}"));
                self.note(
                    path,
                    "type",
                    format!("{found}: any JSON value instead (which adds x-kubernetes-preserve-unknown-fields)"),
                );
                (Base::Plain("serde_json::Value".into()), set(&["type"]))
            }
        })
    }

    /// A k8s-openapi type whose schema `object` is, with only carried keywords added.
    fn known(
        &self,
        object: &Map<String, Value>,
        hint: &str,
    ) -> Option<(String, BTreeSet<&'static str>)> {
        if hint == "metadata"
            && object.get("type") == Some(&Value::String("object".into()))
            && object.keys().all(|k| k == "type" || k == "description")
        {
            return Some(("metav1::ObjectMeta".into(), ["type"].into()));
        }
        let described = object.contains_key("description");
        for known in k8s::known() {
            if known.description.is_some() && !described {
                continue;
            }
            let agrees = known
                .schema
                .iter()
                .all(|(k, v)| object.get(k).is_some_and(|w| same(v, w)));
            let rest_carried = object
                .keys()
                .filter(|k| *k != "description" && !known.schema.contains_key(*k))
                .all(|k| self.table.carries(k));
            if agrees && rest_carried {
                let consumed = SCHEMA_KEYWORDS
                    .iter()
                    .copied()
                    .filter(|k| known.schema.contains_key(*k))
                    .collect();
                return Some((known.path.to_owned(), consumed));
            }
        }
        None
    }
}

//! From a CRD schema to Rust types: each node becomes a Rust type (a std type, a recognised
//! k8s-openapi type, or a generated struct, enum or newtype) whose schema is part of the node,
//! and every keyword the type does not give becomes the attribute of the marker that carries
//! it (`keywords`), written on the field, in `items(...)`, or on a named type.

use std::collections::BTreeSet;

use serde_json::{Map, Value};
use webop_markers::{Family, Place};

use crate::import::attribute::{self, Written};
use crate::import::k8s;
use crate::import::keywords::KeywordTable;
use crate::import::model::{Item, Newtype};
use crate::import::naming::camel_hint;
pub use crate::import::schema_keywords::SCHEMA_KEYWORDS;

mod base;
mod structs;
use crate::import::{Error, Note};

/// Where a node's type is used, which decides where its keywords are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Position {
    /// A struct field: keywords on the field.
    Field,
    /// The items of a field's list: keywords in `#[validate(items(...))]` when they all fit
    /// there, else on a named type.
    FieldItems,
    /// Anywhere else (nested list items, map values, a kind's status): keywords on a named type.
    Named,
}

/// A node's Rust type and what its use site carries.
pub struct Resolved {
    pub ty: String,
    /// The field's doc comment (the node's description), at a field.
    pub doc: Option<String>,
    /// At a field: the field's markers; for a field's items: the markers of `items(...)`.
    pub markers: Vec<Written>,
}

/// The Rust base of a node: its type, and the keywords that type already gives.
enum Base {
    Plain(String),
    Generated(Item),
}

/// Builds the items of one version of one kind.
pub struct Converter<'a> {
    table: &'a KeywordTable,
    /// The kind: nested types are named `<Kind><Field>`.
    prefix: String,
    /// The version, for notes.
    version: String,
    pub items: Vec<Item>,
    /// Names used by other types of the version (other kinds, the user's own).
    taken: BTreeSet<String>,
    pub notes: Vec<Note>,
    /// Set by `base` for a field's list whose items carry markers, taken by `resolve`.
    items_markers: Option<Written>,
    /// The properties of the structs being built, outermost first: a name taken by another
    /// type is qualified by them (`<Kind><Parent><Field>`).
    parents: Vec<String>,
}

impl<'a> Converter<'a> {
    pub fn new(
        table: &'a KeywordTable,
        kind: &str,
        version: &str,
        taken: BTreeSet<String>,
    ) -> Self {
        Converter {
            table,
            prefix: kind.to_owned(),
            version: version.to_owned(),
            items: Vec::new(),
            taken,
            notes: Vec::new(),
            items_markers: None,
            parents: Vec::new(),
        }
    }

    pub fn note(&mut self, path: &str, keyword: &str, message: impl Into<String>) {
        self.notes.push(Note {
            version: self.version.clone(),
            path: if path.is_empty() {
                ".".into()
            } else {
                path.into()
            },
            keyword: keyword.to_owned(),
            message: message.into(),
        });
    }

    /// The Rust type of `node` at `path`, named after `hint` (a property name) if it needs a
    /// type of its own.
    pub fn resolve(
        &mut self,
        node: &Value,
        path: &str,
        hint: &str,
        position: Position,
    ) -> Result<Resolved, Error> {
        let object = schema_object(node, path)?;
        if position == Position::Field
            && let Some(resolved) = self.hoisted(object, path, hint)?
        {
            return Ok(resolved);
        }
        let description = object
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_owned);
        let (base, consumed) = self.base(object, path, hint, position)?;
        // A recognised type's own description needs no named type to carry it.
        let description = match &base {
            Base::Plain(ty) if position != Position::Field && description.is_some() => {
                let own = k8s::known().iter().find(|k| k.path == ty);
                description.filter(|d| own.is_none_or(|k| k.description.as_deref() != Some(d)))
            }
            _ => description,
        };
        // `items(...)` of this node's list, if it is a field's list whose items have markers.
        let items_markers = self.items_markers.take();
        let mut extra: Vec<(String, Value)> = object
            .iter()
            .filter(|(k, _)| *k != "description" && !consumed.contains(k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let Base::Plain(ty) = &base
            && !extra.is_empty()
            && let Some(known) = k8s::known().iter().find(|k| k.path == ty)
        {
            // Markers apply to the use site, a reference to the type, before it is inlined: the
            // keywords their checks read (a maximum needs a number, a pattern a string) are
            // written again, which the merge takes as agreeing.
            let checked: Vec<(String, Value)> = ["type", "x-kubernetes-int-or-string"]
                .iter()
                .filter_map(|k| known.schema.get(*k).map(|v| ((*k).to_owned(), v.clone())))
                .collect();
            extra.splice(0..0, checked);
        }

        match (base, position) {
            (Base::Generated(mut item), Position::Field) => {
                set_doc(&mut item, description.clone());
                // On the type, where its checks see its schema (a field's markers see only a
                // reference to it); `default` stays on the field, which it makes optional.
                let (on_field, on_type): (Vec<_>, Vec<_>) =
                    extra.into_iter().partition(|(k, _)| {
                        k == "default" || self.table.carrier(k, Place::Type).is_none()
                    });
                let type_markers = self.markers(&on_type, path, Place::Type);
                set_markers(&mut item, type_markers);
                let markers = self.markers(&on_field, path, Place::Field);
                Ok(Resolved {
                    ty: self.register(item, hint),
                    doc: description,
                    markers,
                })
            }
            (Base::Plain(ty), Position::Field) => {
                let mut markers = self.markers(&extra, path, Place::Field);
                markers.extend(items_markers);
                Ok(Resolved {
                    ty,
                    doc: description,
                    markers,
                })
            }
            (Base::Generated(mut item), _) => {
                set_doc(&mut item, description);
                let markers = self.markers(&extra, path, Place::Type);
                set_markers(&mut item, markers);
                Ok(plain(self.register(item, hint)))
            }
            (Base::Plain(ty), position) => {
                if description.is_none() && extra.is_empty() {
                    return Ok(plain(ty));
                }
                let fits_items = position == Position::FieldItems
                    && description.is_none()
                    && extra.iter().all(|(k, _)| {
                        self.table
                            .carrier(k, Place::Items)
                            .is_some_and(|s| s.families.contains(&Family::Validate))
                    });
                if fits_items {
                    let markers = self.markers(&extra, path, Place::Items);
                    return Ok(Resolved {
                        ty,
                        doc: None,
                        markers,
                    });
                }
                let markers = self.markers(&extra, path, Place::Type);
                let item = Item::Newtype(Newtype {
                    name: String::new(),
                    doc: description,
                    markers,
                    inner: ty,
                });
                Ok(plain(self.register(item, hint)))
            }
        }
    }

    /// The markers that write `keywords` at `place`; a keyword no marker writes there is noted.
    pub(super) fn markers(
        &mut self,
        keywords: &[(String, Value)],
        path: &str,
        place: Place,
    ) -> Vec<Written> {
        let mut out = Vec::new();
        for (keyword, value) in keywords {
            let Some(spec) = self.table.carrier(keyword, place) else {
                let place = match place {
                    Place::Field => "on a field",
                    Place::Type => "on a type",
                    Place::Items => "in items(...)",
                };
                self.note(
                    path,
                    keyword,
                    format!("no webop attribute writes it {place}: left out"),
                );
                continue;
            };
            match attribute::write(spec, value) {
                Ok(written) => out.extend(written),
                Err(why) => self.note(path, keyword, format!("{why}: left out")),
            }
        }
        out
    }

    /// The name a nested type gets from the property `hint`: `<Kind><Hint>`.
    fn type_name(&self, hint: &str) -> String {
        let hint = camel_hint(hint);
        if hint.starts_with(&self.prefix) {
            hint
        } else {
            format!("{}{hint}", self.prefix)
        }
    }

    /// Adds `item` under a name from `hint` (the same name as an equal item already added):
    /// `<Kind><Hint>`, else qualified by the enclosing properties, else numbered; returns the
    /// name.
    pub(super) fn register(&mut self, mut item: Item, hint: &str) -> String {
        let base = self.type_name(hint);
        let hint = camel_hint(hint);
        let mut candidates = vec![base.clone()];
        for depth in 1..=self.parents.len() {
            let qualifiers = self.parents[self.parents.len() - depth..].concat();
            candidates.push(self.type_name(&format!("{qualifiers}{hint}")));
        }
        candidates.dedup();
        let numbered = (2..).map(|n| format!("{base}{n}"));
        for candidate in candidates.into_iter().chain(numbered) {
            set_name(&mut item, &candidate);
            if let Some(existing) = self.items.iter().find(|i| i.name() == candidate) {
                if *existing == item {
                    return candidate;
                }
                continue;
            }
            if self.taken.contains(&candidate) {
                continue;
            }
            self.items.push(item);
            return candidate;
        }
        unreachable!("some name is free")
    }
}

fn plain(ty: String) -> Resolved {
    Resolved {
        ty,
        doc: None,
        markers: Vec::new(),
    }
}

fn set_doc(item: &mut Item, doc: Option<String>) {
    match item {
        Item::Struct(s) => s.doc = doc,
        Item::Enum(e) => e.doc = doc,
        Item::Newtype(n) => n.doc = doc,
    }
}

fn set_markers(item: &mut Item, markers: Vec<Written>) {
    match item {
        Item::Struct(s) => s.markers = markers,
        Item::Enum(e) => e.markers = markers,
        Item::Newtype(n) => n.markers = markers,
    }
}

fn set_name(item: &mut Item, name: &str) {
    match item {
        Item::Struct(s) => s.name = name.to_owned(),
        Item::Enum(e) => e.name = name.to_owned(),
        Item::Newtype(n) => n.name = name.to_owned(),
    }
}

fn schema_object<'v>(node: &'v Value, path: &str) -> Result<&'v Map<String, Value>, Error> {
    let object = node
        .as_object()
        .ok_or_else(|| invalid(path, "", "a schema must be an object"))?;
    if let Some(key) = object
        .keys()
        .find(|k| !SCHEMA_KEYWORDS.contains(&k.as_str()))
    {
        return Err(Error::UnknownKeyword {
            path: if path.is_empty() {
                ".".into()
            } else {
                path.into()
            },
            keyword: key.clone(),
        });
    }
    Ok(object)
}

pub(super) fn invalid(path: &str, keyword: &str, rule: &str) -> Error {
    Error::InvalidSchema {
        path: if path.is_empty() {
            ".".into()
        } else {
            path.into()
        },
        keyword: keyword.to_owned(),
        rule: rule.to_owned(),
    }
}

//! Field sets as server-side apply tracks them (`fieldsV1`): sets of paths whose elements are
//! `f:<field>`, `k:<json key>` (an item of a map-list), `v:<json value>` (an item of a set) and
//! `i:<index>`. A path in the set means its manager owns that field, list item or object node.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::{Map, Value};

use super::super::shape::{ListKind, Shape};

/// A path of fieldsV1 elements.
pub type FieldPath = Vec<String>;

/// A set of owned paths.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldSet(BTreeSet<FieldPath>);

#[derive(Default)]
struct Node {
    member: bool,
    children: BTreeMap<String, Node>,
}

impl Node {
    fn to_json(&self) -> Value {
        let mut map = Map::new();
        if self.member && !self.children.is_empty() {
            map.insert(".".to_string(), Value::Object(Map::new()));
        }
        for (key, child) in &self.children {
            map.insert(key.clone(), child.to_json());
        }
        Value::Object(map)
    }
}

impl FieldSet {
    /// Reads a `fieldsV1` object.
    pub fn from_fields_v1(value: &Value) -> Self {
        fn walk(value: &Value, path: &mut FieldPath, out: &mut BTreeSet<FieldPath>) {
            let Some(map) = value.as_object() else { return };
            if map.is_empty() && !path.is_empty() {
                out.insert(path.clone());
            }
            for (key, child) in map {
                if key == "." {
                    out.insert(path.clone());
                    continue;
                }
                path.push(key.clone());
                walk(child, path, out);
                path.pop();
            }
        }
        let mut out = BTreeSet::new();
        walk(value, &mut Vec::new(), &mut out);
        Self(out)
    }

    /// Writes the set as a `fieldsV1` object.
    pub fn to_fields_v1(&self) -> Value {
        let mut root = Node::default();
        for path in &self.0 {
            let mut node = &mut root;
            for element in path {
                node = node.children.entry(element.clone()).or_default();
            }
            node.member = true;
        }
        root.to_json()
    }

    /// Adds a path.
    pub fn insert(&mut self, path: FieldPath) {
        self.0.insert(path);
    }

    /// Whether a path is in the set.
    pub fn contains(&self, path: &FieldPath) -> bool {
        self.0.contains(path)
    }

    /// Whether the set is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The paths, in order.
    pub fn iter(&self) -> impl Iterator<Item = &FieldPath> {
        self.0.iter()
    }

    /// Adds every path of another set.
    pub fn extend(&mut self, other: &FieldSet) {
        self.0.extend(other.0.iter().cloned());
    }

    /// Removes every path of another set.
    pub fn remove_all(&mut self, other: &FieldSet) {
        self.0.retain(|p| !other.0.contains(p));
    }

    /// Paths in both sets.
    pub fn intersection(&self, other: &FieldSet) -> Vec<FieldPath> {
        self.0.intersection(&other.0).cloned().collect()
    }

    /// Whether some path of the set lies at or below `prefix`.
    pub fn has_under(&self, prefix: &[String]) -> bool {
        self.0.iter().any(|p| p.starts_with(prefix))
    }
}

/// The `k:` element naming a map-list item by its key fields, or `None` if a key is missing.
pub fn key_element(item: &Value, keys: &[String]) -> Option<String> {
    let mut fields = Map::new();
    for key in keys {
        match item.get(key) {
            Some(value) if !value.is_null() => {
                fields.insert(key.clone(), value.clone());
            }
            _ if keys.len() > 1 => {}
            _ => return None,
        }
    }
    if fields.is_empty() {
        return None;
    }
    Some(format!("k:{}", Value::Object(fields)))
}

/// The `v:` element naming a set item.
pub fn value_element(item: &Value) -> String {
    format!("v:{item}")
}

/// Renders a path as Kubernetes prints it in conflict messages: `.spec.containers[name="a"].image`.
pub fn display(path: &[String]) -> String {
    let mut out = String::new();
    for element in path {
        if let Some(field) = element.strip_prefix("f:") {
            out.push('.');
            out.push_str(field);
        } else if let Some(key) = element.strip_prefix("k:") {
            let fields: Map<String, Value> = serde_json::from_str(key).unwrap_or_default();
            let parts: Vec<String> = fields.iter().map(|(k, v)| format!("{k}={v}")).collect();
            out.push_str(&format!("[{}]", parts.join(",")));
        } else if let Some(value) = element.strip_prefix("v:") {
            out.push_str(&format!("[={value}]"));
        } else if let Some(index) = element.strip_prefix("i:") {
            out.push_str(&format!("[{index}]"));
        }
    }
    out
}

/// The fields an applied configuration sets: every leaf, every map-list item and every set
/// value, with atomic lists and maps as single leaves.
pub fn applied_set(value: &Value, shape: Shape<'_>) -> FieldSet {
    let mut out = FieldSet::default();
    collect(value, shape, &mut Vec::new(), &mut out);
    out
}

fn collect(value: &Value, shape: Shape<'_>, path: &mut FieldPath, out: &mut FieldSet) {
    match value {
        Value::Object(map) if !map.is_empty() && !shape.atomic_map() => {
            for (key, child) in map {
                path.push(format!("f:{key}"));
                collect(child, shape.field(key), path, out);
                path.pop();
            }
        }
        Value::Array(items) if !items.is_empty() => match shape.list_kind() {
            ListKind::Map(keys) => {
                let elements: Option<Vec<String>> =
                    items.iter().map(|i| key_element(i, &keys)).collect();
                let Some(elements) = elements else {
                    out.insert(path.clone());
                    return;
                };
                for (item, element) in items.iter().zip(elements) {
                    path.push(element);
                    out.insert(path.clone());
                    collect(item, shape.items(), path, out);
                    path.pop();
                }
            }
            ListKind::Set => {
                for item in items {
                    path.push(value_element(item));
                    out.insert(path.clone());
                    path.pop();
                }
            }
            ListKind::Atomic => {
                out.insert(path.clone());
            }
        },
        _ => {
            if !path.is_empty() {
                out.insert(path.clone());
            }
        }
    }
}

/// Fields that changed between two versions of an object: `changed` holds added and modified
/// paths (new object nodes and list items included, as their owner gets them), `removed` the
/// paths that disappeared.
#[derive(Debug, Default)]
pub struct Diff {
    /// Added or modified paths.
    pub changed: FieldSet,
    /// Paths that no longer exist.
    pub removed: FieldSet,
}

/// Compares two versions of an object.
pub fn diff(old: &Value, new: &Value, shape: Shape<'_>) -> Diff {
    let mut out = Diff::default();
    compare(Some(old), Some(new), shape, &mut Vec::new(), &mut out);
    out
}

fn subtree(value: &Value, shape: Shape<'_>, path: &mut FieldPath, out: &mut FieldSet) {
    if !path.is_empty() {
        out.insert(path.clone());
    }
    collect(value, shape, path, out);
}

fn compare(
    old: Option<&Value>,
    new: Option<&Value>,
    shape: Shape<'_>,
    path: &mut FieldPath,
    out: &mut Diff,
) {
    match (old, new) {
        (None, None) => {}
        (None, Some(new)) => subtree(new, shape, path, &mut out.changed),
        (Some(old), None) => subtree(old, shape, path, &mut out.removed),
        (Some(Value::Object(a)), Some(Value::Object(b))) if !shape.atomic_map() => {
            for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
                path.push(format!("f:{key}"));
                compare(a.get(key), b.get(key), shape.field(key), path, out);
                path.pop();
            }
        }
        (Some(Value::Array(a)), Some(Value::Array(b))) if a != b => match shape.list_kind() {
            ListKind::Map(keys) => {
                let index = |items: &[Value]| -> Option<Vec<(String, Value)>> {
                    items
                        .iter()
                        .map(|i| key_element(i, &keys).map(|k| (k, i.clone())))
                        .collect()
                };
                match (index(a), index(b)) {
                    (Some(a), Some(b)) => {
                        let find = |list: &[(String, Value)], k: &str| {
                            list.iter().find(|(e, _)| e == k).map(|(_, v)| v.clone())
                        };
                        for (element, _) in a
                            .iter()
                            .chain(b.iter().filter(|(k, _)| find(&a, k).is_none()))
                        {
                            let (before, after) = (find(&a, element), find(&b, element));
                            path.push(element.clone());
                            compare(before.as_ref(), after.as_ref(), shape.items(), path, out);
                            path.pop();
                        }
                    }
                    _ => out.changed.insert(path.clone()),
                }
            }
            ListKind::Set => {
                for item in b.iter().filter(|i| !a.contains(i)) {
                    path.push(value_element(item));
                    out.changed.insert(path.clone());
                    path.pop();
                }
                for item in a.iter().filter(|i| !b.contains(i)) {
                    path.push(value_element(item));
                    out.removed.insert(path.clone());
                    path.pop();
                }
            }
            ListKind::Atomic => out.changed.insert(path.clone()),
        },
        (Some(a), Some(b)) => {
            if a != b {
                out.changed.insert(path.clone());
            }
        }
    }
}

/// Removes the field, list item or set value a path names. Missing paths are ignored.
pub fn remove_path(object: &mut Value, path: &[String]) {
    let Some((last, parents)) = path.split_last() else {
        return;
    };
    let mut node = object;
    for element in parents {
        match step(node, element) {
            Some(next) => node = next,
            None => return,
        }
    }
    if let Some(field) = last.strip_prefix("f:") {
        if let Some(map) = node.as_object_mut() {
            map.remove(field);
        }
    } else if let Some(items) = node.as_array_mut()
        && let Some(index) = items.iter().position(|item| matches_element(item, last))
    {
        items.remove(index);
    }
}

fn matches_element(item: &Value, element: &str) -> bool {
    if let Some(key) = element.strip_prefix("k:") {
        let fields: Map<String, Value> = serde_json::from_str(key).unwrap_or_default();
        !fields.is_empty() && fields.iter().all(|(k, v)| item.get(k) == Some(v))
    } else if let Some(value) = element.strip_prefix("v:") {
        serde_json::from_str::<Value>(value).is_ok_and(|v| v == *item)
    } else {
        false
    }
}

fn step<'v>(node: &'v mut Value, element: &str) -> Option<&'v mut Value> {
    if let Some(field) = element.strip_prefix("f:") {
        node.get_mut(field)
    } else if let Some(index) = element.strip_prefix("i:") {
        node.get_mut(index.parse::<usize>().ok()?)
    } else {
        node.as_array_mut()?
            .iter_mut()
            .find(|item| matches_element(item, element))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fields_v1_round_trip_marks_nodes_with_dot() {
        let v1 = json!({"f:metadata": {"f:labels": {".": {}, "f:app": {}}}, "f:spec": {"f:replicas": {}}});
        let set = FieldSet::from_fields_v1(&v1);
        assert!(set.contains(&vec!["f:metadata".into(), "f:labels".into()]));
        assert!(set.contains(&vec!["f:spec".into(), "f:replicas".into()]));
        assert_eq!(set.to_fields_v1(), v1);
    }

    #[test]
    fn applied_set_keys_container_items() {
        let shape = Shape::root(None);
        let object = json!({"spec": {"containers": [{"name": "web", "image": "nginx"}]}});
        let set = applied_set(&object, shape);
        let item = vec![
            "f:spec".to_string(),
            "f:containers".into(),
            "k:{\"name\":\"web\"}".into(),
        ];
        assert!(set.contains(&item));
        assert_eq!(
            display(&[item.clone(), vec!["f:image".into()]].concat()),
            ".spec.containers[name=\"web\"].image"
        );
        let mut object = object;
        remove_path(&mut object, &item);
        assert_eq!(object, json!({"spec": {"containers": []}}));
    }
}

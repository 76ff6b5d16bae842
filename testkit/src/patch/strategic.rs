//! Strategic merge patch for built-in kinds: a JSON merge patch whose lists with a merge key
//! (containers by `name`, ports by `containerPort`, ...) merge item by item, with the `$patch`,
//! `$retainKeys`, `$deleteFromPrimitiveList/` and `$setElementOrder/` directives.

use serde_json::{Map, Value};

use crate::shape::{ListKind, Shape};

/// Applies a strategic merge patch. Errors name the offending directive.
pub fn patch(original: &Value, patch: &Value, shape: Shape<'_>) -> Result<Value, String> {
    match merge_value(Some(original), patch, shape)? {
        Some(value) => Ok(value),
        None => Ok(Value::Object(Map::new())),
    }
}

/// Merges one patch value; `None` means "delete this value".
fn merge_value(
    original: Option<&Value>,
    patch: &Value,
    shape: Shape<'_>,
) -> Result<Option<Value>, String> {
    match patch {
        Value::Null => Ok(None),
        Value::Object(patch_map) => {
            match patch_map.get("$patch").and_then(Value::as_str) {
                Some("delete") => return Ok(None),
                Some("replace") => {
                    let mut replaced = patch_map.clone();
                    replaced.remove("$patch");
                    return Ok(Some(Value::Object(replaced)));
                }
                Some("merge") | None => {}
                Some(other) => {
                    return Err(format!("unknown patch type: {other:?} in $patch directive"));
                }
            }
            let base = match original {
                Some(Value::Object(map)) if !shape.atomic_map() => map.clone(),
                _ => Map::new(),
            };
            merge_map(base, patch_map, shape).map(|m| Some(Value::Object(m)))
        }
        other => Ok(Some(other.clone())),
    }
}

fn merge_map(
    mut out: Map<String, Value>,
    patch: &Map<String, Value>,
    shape: Shape<'_>,
) -> Result<Map<String, Value>, String> {
    let mut retain: Option<Vec<String>> = None;
    for (key, value) in patch {
        if key == "$patch" || key.starts_with("$setElementOrder/") {
            continue;
        }
        if key == "$retainKeys" {
            let keys = value
                .as_array()
                .ok_or("$retainKeys must be a list of field names")?;
            retain = Some(
                keys.iter()
                    .filter_map(|k| k.as_str().map(ToString::to_string))
                    .collect(),
            );
            continue;
        }
        if let Some(field) = key.strip_prefix("$deleteFromPrimitiveList/") {
            let doomed = value.as_array().ok_or(format!("{key} must be a list"))?;
            if let Some(Value::Array(items)) = out.get_mut(field) {
                items.retain(|item| !doomed.contains(item));
            }
            continue;
        }
        let field_shape = shape.field(key);
        let order = patch
            .get(&format!("$setElementOrder/{key}"))
            .and_then(Value::as_array);
        let merged = match (out.get(key), value) {
            (Some(Value::Array(current)), Value::Array(items)) => {
                Some(merge_list(current, items, order, field_shape)?)
            }
            (current, value) => merge_value(current, value, field_shape)?,
        };
        match merged {
            Some(v) => {
                out.insert(key.clone(), v);
            }
            None => {
                out.remove(key);
            }
        }
    }
    if let Some(keep) = retain {
        out.retain(|k, _| keep.contains(k));
    }
    Ok(out)
}

fn merge_list(
    current: &[Value],
    patch: &[Value],
    order: Option<&Vec<Value>>,
    shape: Shape<'_>,
) -> Result<Value, String> {
    let replace_all = patch.iter().any(|p| {
        p.get("$patch").and_then(Value::as_str) == Some("replace")
            && p.as_object().is_some_and(|m| m.len() == 1)
    });
    if replace_all {
        return Ok(Value::Array(
            patch
                .iter()
                .filter(|p| p.get("$patch").is_none())
                .cloned()
                .collect(),
        ));
    }
    match shape.list_kind() {
        ListKind::Map(keys) => {
            // Strategic merge uses the first key only (the Go struct's patchMergeKey).
            let key = &keys[0];
            let id = |item: &Value| item.get(key).cloned();
            let mut merged = current.to_vec();
            let mut patched = Vec::new();
            for item in patch {
                let Some(item_id) = id(item) else {
                    return Err(format!(
                        "map: {item} does not contain declared merge key: {key}"
                    ));
                };
                let position = merged.iter().position(|o| id(o).as_ref() == Some(&item_id));
                match (
                    position,
                    merge_value(position.map(|i| &merged[i]), item, shape.items())?,
                ) {
                    (Some(i), Some(v)) => merged[i] = v,
                    (Some(i), None) => {
                        merged.remove(i);
                        continue;
                    }
                    (None, Some(v)) => merged.push(v),
                    (None, None) => continue,
                }
                patched.push(item_id);
            }
            let patch_order: Vec<Value> = match order {
                Some(order) => order.iter().filter_map(id).collect(),
                None => patched,
            };
            let server_order: Vec<Value> = current.iter().filter_map(id).collect();
            Ok(Value::Array(enforce_order(
                merged,
                &patch_order,
                &server_order,
                id,
            )))
        }
        ListKind::Set => {
            let mut merged = current.to_vec();
            merged.extend(patch.iter().filter(|p| !current.contains(p)).cloned());
            let patch_order = order.map_or_else(|| patch.to_vec(), Clone::clone);
            Ok(Value::Array(enforce_order(
                merged,
                &patch_order,
                current,
                |item| Some(item.clone()),
            )))
        }
        ListKind::Atomic => Ok(Value::Array(patch.to_vec())),
    }
}

/// The order kube-apiserver gives a merged list (`normalizeElementOrder`): the items the patch
/// names in the patch's order (or its `$setElementOrder`), the others in their live order, the
/// two interleaved by their live positions, new items before live ones they are not ordered
/// against.
fn enforce_order(
    merged: Vec<Value>,
    patch_order: &[Value],
    server_order: &[Value],
    id: impl Fn(&Value) -> Option<Value>,
) -> Vec<Value> {
    let position = |order: &[Value], item: &Value| {
        id(item).and_then(|identity| order.iter().position(|o| *o == identity))
    };
    let (mut patched, mut server_only): (Vec<Value>, Vec<Value>) = merged
        .into_iter()
        .partition(|item| position(patch_order, item).is_some());
    patched.sort_by_key(|item| position(patch_order, item));
    server_only.sort_by_key(|item| position(server_order, item));
    let mut out = Vec::with_capacity(patched.len() + server_only.len());
    let (mut left, mut right) = (
        server_only.into_iter().peekable(),
        patched.into_iter().peekable(),
    );
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (Some(l), Some(r)) => matches!(
                (position(server_order, l), position(server_order, r)),
                (Some(a), Some(b)) if a < b
            ),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let next = if take_left { left.next() } else { right.next() };
        out.extend(next);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn containers_merge_by_name_and_directives_apply() {
        let original = json!({"spec": {"containers": [{"name": "a", "image": "1"}, {"name": "b", "image": "2"}], "finalizers": ["x"]}});
        let change = json!({"spec": {"containers": [{"name": "b", "image": "3"}, {"name": "a", "$patch": "delete"}, {"name": "c", "image": "4"}]}});
        let out = patch(&original, &change, Shape::root(None)).unwrap();
        // The patch's items keep the patch's order.
        assert_eq!(
            out["spec"]["containers"],
            json!([{"name": "b", "image": "3"}, {"name": "c", "image": "4"}])
        );
        // A new item comes before a live one it is not ordered against.
        let added = json!({"spec": {"containers": [{"name": "c", "image": "4"}]}});
        let out = patch(&original, &added, Shape::root(None)).unwrap();
        let names: Vec<&str> = out["spec"]["containers"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["c", "a", "b"]);
        let reordered = json!({"spec": {"$setElementOrder/containers": [{"name": "b"}, {"name": "a"}], "containers": [{"name": "a", "image": "5"}]}});
        let out = patch(&original, &reordered, Shape::root(None)).unwrap();
        assert_eq!(
            out["spec"]["containers"],
            json!([{"name": "b", "image": "2"}, {"name": "a", "image": "5"}])
        );
        let missing_key = json!({"spec": {"containers": [{"image": "5"}]}});
        assert!(
            patch(&original, &missing_key, Shape::root(None))
                .unwrap_err()
                .contains("merge key: name")
        );
    }
}

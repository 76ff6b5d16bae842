//! Strategic merge patch for built-in kinds: a JSON merge patch whose lists with a merge key
//! (containers by `name`, ports by `containerPort`, ...) merge item by item, with the `$patch`,
//! `$retainKeys`, `$deleteFromPrimitiveList/` and `$setElementOrder/` directives.

use serde_json::{Map, Value};

use crate::testkit::shape::{ListKind, Shape};

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
        let merged = match (out.get(key), value) {
            (Some(Value::Array(current)), Value::Array(items)) => {
                Some(merge_list(current, items, field_shape)?)
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

fn merge_list(current: &[Value], patch: &[Value], shape: Shape<'_>) -> Result<Value, String> {
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
            let mut out = current.to_vec();
            for item in patch {
                let Some(id) = item.get(key) else {
                    return Err(format!(
                        "map: {item} does not contain declared merge key: {key}"
                    ));
                };
                let position = out.iter().position(|o| o.get(key) == Some(id));
                match (
                    position,
                    merge_value(position.map(|i| &out[i]), item, shape.items())?,
                ) {
                    (Some(i), Some(v)) => out[i] = v,
                    (Some(i), None) => {
                        out.remove(i);
                    }
                    (None, Some(v)) => out.push(v),
                    (None, None) => {}
                }
            }
            Ok(Value::Array(out))
        }
        ListKind::Set => {
            let mut out = current.to_vec();
            out.extend(patch.iter().filter(|p| !current.contains(p)).cloned());
            Ok(Value::Array(out))
        }
        ListKind::Atomic => Ok(Value::Array(patch.to_vec())),
    }
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
        assert_eq!(
            out["spec"]["containers"],
            json!([{"name": "b", "image": "3"}, {"name": "c", "image": "4"}])
        );
        let missing_key = json!({"spec": {"containers": [{"image": "5"}]}});
        assert!(
            patch(&original, &missing_key, Shape::root(None))
                .unwrap_err()
                .contains("merge key: name")
        );
    }
}

//! controller-tools' marker syntax: `+name`, `+name=value`, `+name:=value`,
//! `+name:arg=value,arg2=value`, and its argument values (`"quoted"`, bare words, numbers,
//! booleans, `{a,b}` lists, `{k: v}` maps, `a;b` lists), read into JSON by the catalogue row's
//! payload so that `import::attribute` spells them as `import crd` does.

use serde_json::{Map, Number, Value};
use webop_markers::{MarkerSpec, Payload};

/// A marker's name (the longest known name it starts with) and its arguments.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parsed {
    pub name: String,
    pub args: Args,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Args {
    None,
    /// `+name=value`: the value as written.
    Anonymous(String),
    /// `+name:key=value,...`: the pairs as written.
    Named(Vec<(String, String)>),
}

/// `text` (without its `+`) read with the first of `names` it is spelled with, or `None`.
pub fn split(text: &str, names: &[&str]) -> Option<Parsed> {
    let name = names
        .iter()
        .filter(|name| {
            text == **name
                || text
                    .strip_prefix(**name)
                    .is_some_and(|rest| rest.starts_with('=') || rest.starts_with(':'))
        })
        .max_by_key(|name| name.len())?;
    let rest = &text[name.len()..];
    let args = if rest.is_empty() {
        Args::None
    } else if let Some(value) = rest.strip_prefix(":=").or_else(|| rest.strip_prefix('=')) {
        Args::Anonymous(value.to_owned())
    } else {
        let pairs = top_level(&rest[1..], ',')
            .into_iter()
            .map(|pair| match pair.split_once('=') {
                Some((key, value)) => (key.trim().to_owned(), value.to_owned()),
                None => (pair.trim().to_owned(), String::new()),
            })
            .collect();
        Args::Named(pairs)
    };
    Some(Parsed {
        name: (*name).to_owned(),
        args,
    })
}

/// `text` split at `separator`s outside quotes, braces and brackets.
pub fn top_level(text: &str, separator: char) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    let (mut depth, mut quote, mut escaped) = (0i32, None::<char>, false);
    for c in text.chars() {
        match quote {
            Some(q) => {
                if escaped {
                    escaped = false;
                } else if c == '\\' && q == '"' {
                    escaped = true;
                } else if c == q {
                    quote = None;
                }
            }
            None => match c {
                '"' | '`' => quote = Some(c),
                '{' | '[' => depth += 1,
                '}' | ']' => depth -= 1,
                c if c == separator && depth == 0 => {
                    parts.push(std::mem::take(&mut current));
                    continue;
                }
                _ => {}
            },
        }
        current.push(c);
    }
    if !current.is_empty() || !parts.is_empty() {
        parts.push(current);
    }
    parts
}

/// A value of controller-tools' `any` type: a quoted or raw string, a number, a boolean, a
/// `{...}` list or map, or else the bare word as a string.
pub fn any(raw: &str) -> Result<Value, String> {
    let raw = raw.trim();
    if raw.starts_with('"') || raw.starts_with('`') {
        return string(raw).map(Value::String);
    }
    if let Some(inner) = raw.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let items = top_level(inner, ',');
        let is_map = items
            .first()
            .is_some_and(|item| top_level(item, ':').len() == 2);
        if is_map {
            let mut map = Map::new();
            for item in items {
                let parts = top_level(&item, ':');
                let [key, value] = &parts[..] else {
                    return Err(format!("{item:?} is no `key: value` entry"));
                };
                let key = match any(key)? {
                    Value::String(s) => s,
                    other => other.to_string(),
                };
                map.insert(key, any(value)?);
            }
            return Ok(Value::Object(map));
        }
        return items
            .iter()
            .filter(|i| !i.trim().is_empty())
            .map(|i| any(i))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array);
    }
    if raw == "true" || raw == "false" {
        return Ok(Value::Bool(raw == "true"));
    }
    if let Ok(n) = raw.parse::<i64>() {
        return Ok(Value::Number(n.into()));
    }
    if raw.contains(['.', 'e', 'E'])
        && let Some(n) = raw.parse::<f64>().ok().and_then(Number::from_f64)
    {
        return Ok(Value::Number(n));
    }
    Ok(Value::String(raw.to_owned()))
}

/// A quoted (`"..."` with Go's escapes, or `` `...` ``) or bare string.
pub fn string(raw: &str) -> Result<String, String> {
    let raw = raw.trim();
    if let Some(inner) = raw.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
        return Ok(inner.to_owned());
    }
    if raw.starts_with('"') {
        return serde_json::from_str::<String>(raw)
            .or_else(|_| serde_json::from_str::<String>(&raw.replace("\\'", "'")))
            .map_err(|_| format!("{raw} is no string literal"));
    }
    Ok(raw.to_owned())
}

/// A list: `{a,b}` or `a;b`.
pub fn list(raw: &str) -> Result<Vec<Value>, String> {
    let raw = raw.trim();
    if raw.starts_with('{') {
        return match any(raw)? {
            Value::Array(items) => Ok(items),
            other => Err(format!("{other} is no list")),
        };
    }
    top_level(raw, ';').iter().map(|item| any(item)).collect()
}

/// The value of a catalogue marker from its arguments, as `import::attribute::write` takes it.
pub fn payload_value(spec: &MarkerSpec, args: &Args) -> Result<Value, String> {
    let anonymous = match args {
        Args::None => None,
        Args::Anonymous(raw) => Some(raw.as_str()),
        Args::Named(pairs) => {
            if let Payload::Record(fields) = spec.payload {
                let mut object = Map::new();
                for (key, raw) in pairs {
                    let Some(field) = fields.iter().find(|f| camel(f.key) == *key) else {
                        return Err(format!("unknown argument `{key}`"));
                    };
                    let value = match field.payload {
                        Payload::Flag | Payload::Bare => {
                            Value::Bool(raw.is_empty() || raw.trim() == "true")
                        }
                        _ => Value::String(string(raw)?),
                    };
                    object.insert(key.clone(), value);
                }
                let value = Value::Object(object);
                return Ok(if spec.repeatable {
                    Value::Array(vec![value])
                } else {
                    value
                });
            }
            return Err("named arguments where one value was expected".into());
        }
    };
    let value = match (spec.payload, anonymous) {
        (Payload::Bare | Payload::Flag, None) => Value::Bool(true),
        (Payload::Bare | Payload::Flag, Some(raw)) => match raw.trim() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            other => return Err(format!("{other:?} is no boolean")),
        },
        (_, None) => return Err("a value is missing".into()),
        (Payload::Number | Payload::Count, Some(raw)) => match any(raw)? {
            Value::Number(n) => Value::Number(n),
            other => return Err(format!("{other} is no number")),
        },
        (Payload::Text(_), Some(raw)) => Value::String(string(raw)?),
        (Payload::Texts | Payload::Values, Some(raw)) => Value::Array(list(raw)?),
        (Payload::Value | Payload::Json, Some(raw)) => any(raw)?,
        (Payload::Items | Payload::Record(_), Some(_)) => {
            return Err("arguments of its own were expected".into());
        }
    };
    Ok(if spec.repeatable {
        Value::Array(vec![value])
    } else {
        value
    })
}

/// `field_path` → `fieldPath`: a record's key as controller-gen spells the argument.
fn camel(key: &str) -> String {
    let mut out = String::new();
    let mut upper = false;
    for c in key.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use webop_markers::MarkerKind;

    const NAMES: &[&str] = &[
        "kubebuilder:validation:Minimum",
        "kubebuilder:default",
        "kubebuilder:printcolumn",
        "kubebuilder:validation:XValidation",
        "kubebuilder:validation:Enum",
    ];

    #[test]
    fn markers_are_split_into_their_name_and_arguments() {
        let m = split("kubebuilder:validation:Minimum=1", NAMES).unwrap();
        assert_eq!(m.args, Args::Anonymous("1".into()));
        let m = split("kubebuilder:default:=Allow", NAMES).unwrap();
        assert_eq!(m.name, "kubebuilder:default");
        assert_eq!(m.args, Args::Anonymous("Allow".into()));
        let m = split(r#"kubebuilder:printcolumn:name="A,B",type=string"#, NAMES).unwrap();
        assert_eq!(
            m.args,
            Args::Named(vec![
                ("name".into(), "\"A,B\"".into()),
                ("type".into(), "string".into())
            ])
        );
        assert!(split("kubebuilder:validation:Minimumx=1", NAMES).is_none());
    }

    #[test]
    fn values_are_read_by_the_payload() {
        let enum_spec = MarkerKind::Enum.spec();
        assert_eq!(
            payload_value(enum_spec, &Args::Anonymous("A;B;3".into())).unwrap(),
            json!(["A", "B", 3])
        );
        let rule = split(
            r#"kubebuilder:validation:XValidation:rule="self > 0",message="must be positive""#,
            NAMES,
        )
        .unwrap();
        assert_eq!(
            payload_value(MarkerKind::XValidation.spec(), &rule.args).unwrap(),
            json!([{"rule": "self > 0", "message": "must be positive"}])
        );
        assert_eq!(any("{a: 1, b: x}").unwrap(), json!({"a": 1, "b": "x"}));
        assert_eq!(any("{1,2}").unwrap(), json!([1, 2]));
        assert_eq!(any("0.5").unwrap(), json!(0.5));
    }
}

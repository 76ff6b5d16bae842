//! Label selectors (`a=b,c!=d,e in (x,y),f notin (z),g,!h`) and field selectors
//! (`metadata.name=x,status.phase!=Running`), parsed and matched as the API server does.

use serde_json::Value;

use super::resources::ResourceType;
use super::status::{ApiError, ApiResult};

#[derive(Debug, Clone, PartialEq)]
enum Requirement {
    Equals(String, String),
    NotEquals(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    NotExists(String),
}

/// A parsed label selector.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LabelSelector {
    requirements: Vec<Requirement>,
}

/// Splits on commas that are not inside parentheses.
fn split_terms(text: &str) -> Vec<&str> {
    let mut terms = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                terms.push(text[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    terms.push(text[start..].trim());
    terms.into_iter().filter(|t| !t.is_empty()).collect()
}

fn valid_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '/'))
}

impl LabelSelector {
    /// Parses a selector; bad syntax is a 400 naming the selector.
    pub fn parse(text: &str) -> ApiResult<Self> {
        let bad = || {
            ApiError::bad_request(format!(
                "unable to parse requirement: invalid label selector {text:?}"
            ))
        };
        let mut requirements = Vec::new();
        for term in split_terms(text) {
            let set_values = |rest: &str| -> ApiResult<Vec<String>> {
                let inner = rest
                    .trim()
                    .strip_prefix('(')
                    .and_then(|r| r.strip_suffix(')'))
                    .ok_or_else(bad)?;
                Ok(inner
                    .split(',')
                    .map(|v| v.trim().to_string())
                    .filter(|v| !v.is_empty())
                    .collect())
            };
            let requirement = if let Some(key) = term.strip_prefix('!') {
                Requirement::NotExists(key.trim().to_string())
            } else if let Some((key, value)) = term.split_once("!=") {
                Requirement::NotEquals(key.trim().to_string(), value.trim().to_string())
            } else if let Some((key, value)) =
                term.split_once("==").or_else(|| term.split_once('='))
            {
                Requirement::Equals(key.trim().to_string(), value.trim().to_string())
            } else if let Some((key, rest)) = term.split_once(" notin ") {
                Requirement::NotIn(key.trim().to_string(), set_values(rest)?)
            } else if let Some((key, rest)) = term.split_once(" in ") {
                Requirement::In(key.trim().to_string(), set_values(rest)?)
            } else {
                Requirement::Exists(term.to_string())
            };
            let key = match &requirement {
                Requirement::Equals(k, _)
                | Requirement::NotEquals(k, _)
                | Requirement::In(k, _)
                | Requirement::NotIn(k, _)
                | Requirement::Exists(k)
                | Requirement::NotExists(k) => k,
            };
            if !valid_key(key) {
                return Err(bad());
            }
            requirements.push(requirement);
        }
        Ok(Self { requirements })
    }

    /// Whether an object's `metadata.labels` satisfy the selector.
    pub fn matches(&self, object: &Value) -> bool {
        let labels = object.pointer("/metadata/labels");
        let label = |key: &str| labels.and_then(|l| l.get(key)).and_then(Value::as_str);
        self.requirements.iter().all(|r| match r {
            Requirement::Equals(k, v) => label(k) == Some(v.as_str()),
            Requirement::NotEquals(k, v) => label(k) != Some(v.as_str()),
            Requirement::In(k, vs) => label(k).is_some_and(|l| vs.iter().any(|v| v == l)),
            Requirement::NotIn(k, vs) => label(k).is_none_or(|l| vs.iter().all(|v| v != l)),
            Requirement::Exists(k) => label(k).is_some(),
            Requirement::NotExists(k) => label(k).is_none(),
        })
    }
}

/// A parsed field selector: `=`, `==` and `!=` terms on supported fields.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct FieldSelector {
    terms: Vec<(String, bool, String)>,
}

impl FieldSelector {
    /// Parses a selector, rejecting fields the resource type does not support with the API
    /// server's message for that type.
    pub fn parse(text: &str, resource_type: &ResourceType) -> ApiResult<Self> {
        let mut terms = Vec::new();
        for term in split_terms(text) {
            let (field, equal, value) = if let Some((f, v)) = term.split_once("!=") {
                (f, false, v)
            } else if let Some((f, v)) = term.split_once("==").or_else(|| term.split_once('=')) {
                (f, true, v)
            } else {
                return Err(ApiError::bad_request(format!(
                    "invalid selector: '{text}'; can't understand '{term}'"
                )));
            };
            let field = field.trim();
            if !resource_type.selectable(field) {
                return Err(ApiError::bad_request(
                    resource_type.unsupported_field_label(field),
                ));
            }
            terms.push((field.to_string(), equal, value.trim().to_string()));
        }
        Ok(Self { terms })
    }

    /// Whether an object satisfies every term. A missing field compares as the empty string.
    pub fn matches(&self, object: &Value) -> bool {
        self.terms.iter().all(|(field, equal, expected)| {
            let pointer = format!("/{}", field.replace('.', "/"));
            let actual = match object.pointer(&pointer) {
                Some(Value::String(s)) => s.clone(),
                Some(Value::Null) | None => String::new(),
                Some(other) => other.to_string(),
            };
            (actual == *expected) == *equal
        })
    }
}

/// Label and field selectors of one request.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// `labelSelector`.
    pub labels: LabelSelector,
    /// `fieldSelector`.
    pub fields: FieldSelector,
}

impl Filter {
    /// Whether an object passes both selectors.
    pub fn matches(&self, object: &Value) -> bool {
        self.labels.matches(object) && self.fields.matches(object)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn label_selector_forms() {
        let object = json!({"metadata": {"labels": {"app": "web", "tier": "front"}}});
        let yes = [
            "app=web",
            "app==web",
            "tier!=back",
            "app in (web, api)",
            "tier notin (back)",
            "app",
            "!missing",
            "app=web,tier",
        ];
        let no = [
            "app=api",
            "app!=web",
            "app in (api)",
            "tier notin (front)",
            "missing",
            "!app",
        ];
        for s in yes {
            assert!(LabelSelector::parse(s).unwrap().matches(&object), "{s}");
        }
        for s in no {
            assert!(!LabelSelector::parse(s).unwrap().matches(&object), "{s}");
        }
        assert_eq!(LabelSelector::parse("a in b").unwrap_err().code, 400);
    }
}

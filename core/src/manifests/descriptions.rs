//! `webop manifests --max-desc-len N`, controller-gen's `crd:maxDescLen=N`: every description
//! of a CRD's schemas cut to at most N bytes, at the last sentence end, else the last space
//! (adding `...`); 0 removes them all. For CRDs that outgrow the API server's size limits.

use std::sync::LazyLock;

use regex_syntax::hir::{Class, HirKind};
use serde_json::Value;

/// Cuts the descriptions of every schema of every version of `crd` to `max_len` bytes.
pub fn truncate_descriptions(crd: &mut Value, max_len: usize) {
    let Some(versions) = crd
        .pointer_mut("/spec/versions")
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    for version in versions {
        if let Some(schema) = version.pointer_mut("/schema/openAPIV3Schema") {
            truncate_schema(schema, max_len);
        }
    }
}

/// A schema and every schema inside it (controller-gen's `EditSchema` walk).
fn truncate_schema(schema: &mut Value, max_len: usize) {
    let Some(object) = schema.as_object_mut() else {
        return;
    };
    if let Some(Value::String(description)) = object.get("description") {
        if max_len == 0 {
            object.remove("description");
        } else if description.len() > max_len {
            let cut = truncate(description, max_len);
            object.insert("description".to_owned(), Value::String(cut));
        }
    }
    for (key, value) in object.iter_mut() {
        match key.as_str() {
            // A dependency is a schema or a list of property names (which the walk skips).
            "properties" | "patternProperties" | "definitions" | "dependencies" => {
                for child in value
                    .as_object_mut()
                    .into_iter()
                    .flat_map(|m| m.values_mut())
                {
                    truncate_schema(child, max_len);
                }
            }
            "allOf" | "anyOf" | "oneOf" => {
                for child in value.as_array_mut().into_iter().flatten() {
                    truncate_schema(child, max_len);
                }
            }
            // `items` may be one schema or a list; `additionalProperties` a schema or a bool.
            "items" | "additionalItems" | "additionalProperties" | "not" => match value {
                Value::Array(children) => {
                    for child in children {
                        truncate_schema(child, max_len);
                    }
                }
                child => truncate_schema(child, max_len),
            },
            _ => {}
        }
    }
}

/// `description` cut to at most `max_len` bytes: at the last sentence terminal within them
/// (kept), else at the last whitespace (dropped) with `...`, else hard with `...`. Where
/// controller-gen slices bytes, a cut inside a character here backs off to its start, so the
/// result stays UTF-8.
fn truncate(description: &str, max_len: usize) -> String {
    if description.len() <= max_len {
        return description.to_owned();
    }
    let mut end = max_len;
    while !description.is_char_boundary(end) {
        end -= 1;
    }
    let head = &description[..end];
    if let Some((at, c)) = SENTENCE_TERMINAL.last_in(head) {
        return head[..at + c.len_utf8()].to_owned();
    }
    if let Some((at, _)) = WHITE_SPACE.last_in(head) {
        return format!("{}...", &head[..at]);
    }
    format!("{head}...")
}

/// The code points of a Unicode property, from regex-syntax's tables.
struct UnicodeClass(Vec<(char, char)>);

impl UnicodeClass {
    fn of(property: &str) -> Self {
        let hir = regex_syntax::parse(&format!(r"\p{{{property}}}"))
            .unwrap_or_else(|e| panic!("\\p{{{property}}}: {e}"));
        let HirKind::Class(Class::Unicode(class)) = hir.into_kind() else {
            panic!("\\p{{{property}}} is not a Unicode class");
        };
        Self(class.iter().map(|r| (r.start(), r.end())).collect())
    }

    fn contains(&self, c: char) -> bool {
        self.0.iter().any(|&(start, end)| start <= c && c <= end)
    }

    /// The last character of `text` in this class, past its first byte, and where it is (Go's
    /// `strings.LastIndexFunc(...) > 0`).
    fn last_in(&self, text: &str) -> Option<(usize, char)> {
        text.char_indices()
            .rev()
            .find(|&(_, c)| self.contains(c))
            .filter(|&(at, _)| at > 0)
    }
}

static SENTENCE_TERMINAL: LazyLock<UnicodeClass> =
    LazyLock::new(|| UnicodeClass::of("Sentence_Terminal"));
static WHITE_SPACE: LazyLock<UnicodeClass> = LazyLock::new(|| UnicodeClass::of("White_Space"));

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    // The cases of controller-tools' desc_visitor_test.go.
    #[test]
    fn cuts_at_a_sentence_end_else_a_space_else_anywhere() {
        let text = "This is a long description. It has two sentences.";
        assert_eq!(truncate(text, text.len()), text);
        assert_eq!(
            truncate(text, text.len() - 5),
            "This is a long description."
        );
        assert_eq!(truncate("one two three", 9), "one two...");
        assert_eq!(truncate("abcdefghij", 4), "abcd...");
        // A cut inside `é` backs off to its start rather than splitting it.
        assert_eq!(truncate("ééé", 3), "é...");
    }

    #[test]
    fn walks_every_nested_schema_and_zero_removes() {
        let mut crd = json!({"spec": {"versions": [{"schema": {"openAPIV3Schema": {
            "description": "Root. More.",
            "properties": {
                "description": {"type": "string", "description": "A field called description."},
                "list": {"items": {"description": "Items here. More."}},
                "map": {"additionalProperties": {"description": "Values here. More."}},
                "either": {"anyOf": [{"description": "First one. More."}]},
            },
        }}}]}});
        truncate_descriptions(&mut crd, 12);
        let schema = &crd["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
        assert_eq!(schema["description"], "Root. More.");
        let properties = &schema["properties"];
        assert_eq!(properties["description"]["description"], "A field...");
        assert_eq!(properties["list"]["items"]["description"], "Items here.");
        assert_eq!(
            properties["map"]["additionalProperties"]["description"],
            "Values here."
        );
        assert_eq!(
            properties["either"]["anyOf"][0]["description"],
            "First one."
        );

        truncate_descriptions(&mut crd, 0);
        let text = crd.to_string();
        assert!(!text.contains("\"description\":\""), "{text}");
    }
}

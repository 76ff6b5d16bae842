//! Which attribute writes which schema keyword, learned from the marker catalogue itself: every
//! row's marker is applied (by `webop::schema::apply`, the code derived types run) to a few base
//! schemas, and the keyword it changes is the one it writes. A marker *carries* its keyword when
//! the keyword's value is the marker's payload (`minimum = 3` writes `minimum: 3`); those are
//! the markers an importer can write back. A marker that computes its keyword (`at_most_one_of`
//! writes a CEL rule, `immutable` a fixed rule) carries nothing: the rule itself is carried by
//! `x_validation`. So a marker added to the catalogue is importable with no change here.

use serde_json::{Map, Value, json};
use webop_markers::{
    ExternalDocs, Family, Marker, MarkerKind, MarkerSpec, Payload, Place, TextRule, XValidation,
};

use crate::schema::{JSONSchemaProps, apply};

/// The markers that carry each keyword, in catalogue order.
#[derive(Debug)]
pub struct KeywordTable {
    carriers: Vec<(String, &'static MarkerSpec)>,
}

impl KeywordTable {
    /// Probes every row of the catalogue.
    pub fn from_catalogue() -> Self {
        let mut carriers = Vec::new();
        for spec in webop_markers::CATALOGUE {
            if let Some(keyword) = carried_keyword(spec) {
                carriers.push((keyword, spec));
            }
        }
        KeywordTable { carriers }
    }

    /// The first marker (in catalogue order) that carries `keyword` and may be written at
    /// `place`.
    pub fn carrier(&self, keyword: &str, place: Place) -> Option<&'static MarkerSpec> {
        self.carriers
            .iter()
            .find(|(k, spec)| k == keyword && spec.on.contains(&place))
            .map(|(_, spec)| *spec)
    }

    /// Whether some marker carries `keyword` (at any place).
    pub fn carries(&self, keyword: &str) -> bool {
        self.carriers.iter().any(|(k, _)| k == keyword)
    }
}

/// The base schemas a probe is applied to, until one takes it: every marker fits one of them.
fn bases() -> Vec<Value> {
    vec![
        json!({"type": "string"}),
        json!({"type": "integer"}),
        json!({"type": "number"}),
        json!({"type": "boolean"}),
        json!({"type": "array", "items": {"type": "string"}, "x-kubernetes-list-type": "map"}),
        json!({"type": "object"}),
        json!({}),
    ]
}

/// The keyword `spec`'s marker writes its payload to, if it carries one.
fn carried_keyword(spec: &'static MarkerSpec) -> Option<String> {
    for variant in 0.. {
        let marker = probe_marker(spec, variant)?;
        let expected = probe_json(spec, variant)?;
        for base in bases() {
            let mut schema: JSONSchemaProps =
                serde_json::from_value(base.clone()).expect("a base schema");
            if apply(&mut schema, &[marker]).is_err() {
                continue;
            }
            let after = serde_json::to_value(&schema).expect("a schema is JSON");
            let (Value::Object(before), Value::Object(after)) = (&base, &after) else {
                continue;
            };
            let changed: Vec<&String> = after
                .iter()
                .filter(|(k, v)| before.get(*k) != Some(*v))
                .map(|(k, _)| k)
                .collect();
            let keyword = match changed[..] {
                // The base had the probe's value already: try the next one.
                [] => continue,
                [keyword] => keyword,
                _ => return None,
            };
            let value = &after[keyword];
            let carried = if spec.repeatable {
                value
                    .as_array()
                    .is_some_and(|v| v.len() == 1 && same(&v[0], &expected))
            } else {
                same(value, &expected)
            };
            return carried.then(|| keyword.clone());
        }
    }
    None
}

/// JSON equality with numbers compared as numbers (`3` is `3.0`).
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(x, y)| same(x, y))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().all(|(k, v)| y.get(k).is_some_and(|w| same(v, w)))
        }
        _ => a == b,
    }
}

const PROBE_URL: &str = "https://probe.example";

/// The text a probe of a `Payload::Text` holds.
fn probe_text(rule: TextRule, variant: usize) -> Option<&'static str> {
    match rule {
        TextRule::OneOf(values) => values.get(variant).copied(),
        _ if variant > 0 => None,
        TextRule::Url => Some(PROBE_URL),
        TextRule::Pattern => Some("^probe$"),
        TextRule::Any | TextRule::NonEmpty => Some("probe"),
    }
}

/// The JSON value a probe's payload stands for: what a carrying marker writes.
fn probe_json(spec: &MarkerSpec, variant: usize) -> Option<Value> {
    payload_json(spec.payload, variant)
}

fn payload_json(payload: Payload, variant: usize) -> Option<Value> {
    if variant > 0 && !matches!(payload, Payload::Text(TextRule::OneOf(_))) {
        return None;
    }
    Some(match payload {
        Payload::Bare | Payload::Flag => json!(true),
        Payload::Number => json!(3.0),
        Payload::Count => json!(3),
        Payload::Text(rule) => json!(probe_text(rule, variant)?),
        Payload::Texts | Payload::Values => json!(["probe"]),
        Payload::Value | Payload::Json => json!("probe"),
        Payload::Items => return None,
        Payload::Record(fields) => {
            let mut object = Map::new();
            for field in fields.iter().filter(|f| f.required) {
                object.insert(camel(field.key), payload_json(field.payload, 0)?);
            }
            Value::Object(object)
        }
    })
}

/// `message_expression` → `messageExpression`: a record entry's JSON name.
pub fn camel(key: &str) -> String {
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

/// A probe payload of each type a row's variant may carry.
trait Probe: Sized {
    fn probe(spec: &MarkerSpec, variant: usize) -> Option<Self>;
}

impl Probe for f64 {
    fn probe(_: &MarkerSpec, variant: usize) -> Option<Self> {
        (variant == 0).then_some(3.0)
    }
}

impl Probe for i64 {
    fn probe(_: &MarkerSpec, variant: usize) -> Option<Self> {
        (variant == 0).then_some(3)
    }
}

impl Probe for bool {
    fn probe(_: &MarkerSpec, variant: usize) -> Option<Self> {
        (variant == 0).then_some(true)
    }
}

impl Probe for &'static str {
    fn probe(spec: &MarkerSpec, variant: usize) -> Option<Self> {
        match spec.payload {
            Payload::Text(rule) => probe_text(rule, variant),
            Payload::Value | Payload::Json => (variant == 0).then_some("\"probe\""),
            _ => None,
        }
    }
}

impl Probe for &'static [&'static str] {
    fn probe(spec: &MarkerSpec, variant: usize) -> Option<Self> {
        match spec.payload {
            _ if variant > 0 => None,
            Payload::Texts => Some(&["probe"]),
            Payload::Values => Some(&["\"probe\""]),
            _ => None,
        }
    }
}

impl Probe for XValidation {
    fn probe(_: &MarkerSpec, variant: usize) -> Option<Self> {
        (variant == 0).then_some(XValidation {
            rule: "probe",
            ..XValidation::default()
        })
    }
}

impl Probe for ExternalDocs {
    fn probe(_: &MarkerSpec, variant: usize) -> Option<Self> {
        (variant == 0).then_some(ExternalDocs {
            url: PROBE_URL,
            description: None,
        })
    }
}

impl Probe for &'static [Marker] {
    fn probe(_: &MarkerSpec, _: usize) -> Option<Self> {
        None
    }
}

/// `probe_marker`: a row's marker holding a probe payload, built from the catalogue's rows.
macro_rules! probes {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $(($payload_type:ty))? { $($rest:tt)* }
    )*) => {
        fn probe_marker(spec: &'static MarkerSpec, variant: usize) -> Option<Marker> {
            match spec.kind {
                $(MarkerKind::$name => probes!(@build $name, spec, variant $(, $payload_type)?),)*
            }
        }
    };
    (@build $name:ident, $spec:ident, $variant:ident, $ty:ty) => {
        <$ty as Probe>::probe($spec, $variant).map(Marker::$name)
    };
    (@build $name:ident, $spec:ident, $variant:ident) => {
        ($variant == 0).then_some(Marker::$name)
    };
}

webop_markers::catalogue!(probes);

/// The attribute family a marker is written in, `validate` first (the only one `items(...)`
/// takes).
pub fn family(spec: &MarkerSpec) -> Family {
    if spec.families.contains(&Family::Validate) {
        Family::Validate
    } else {
        spec.families[0]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_markers_carry_their_keyword() {
        let table = KeywordTable::from_catalogue();
        let key = |keyword, place| table.carrier(keyword, place).map(|s| s.key);
        assert_eq!(key("minimum", Place::Field), Some("minimum"));
        assert_eq!(
            key("x-kubernetes-list-type", Place::Field),
            Some("list_type")
        );
        assert_eq!(
            key("x-kubernetes-list-map-keys", Place::Field),
            Some("list_map_key")
        );
        assert_eq!(
            key("x-kubernetes-validations", Place::Type),
            Some("x_validation")
        );
        assert_eq!(key("default", Place::Field), Some("default"));
        assert_eq!(key("externalDocs", Place::Field), Some("external_docs"));
        assert_eq!(key("x-kubernetes-map-type", Place::Field), Some("map_type"));
        assert_eq!(key("enum", Place::Items), Some("enum"));
        assert_eq!(key("type", Place::Field), Some("type"));
    }

    #[test]
    fn computed_keywords_are_not_carried() {
        let table = KeywordTable::from_catalogue();
        let carried: Vec<&str> = table.carriers.iter().map(|(_, s)| s.key).collect();
        for computed in ["at_most_one_of", "exactly_one_of", "immutable", "items"] {
            assert!(!carried.contains(&computed), "{computed}");
        }
        // Every other row carries a keyword of its own.
        assert_eq!(
            carried.len(),
            webop_markers::CATALOGUE.len() - 5,
            "{carried:?}"
        );
    }
}

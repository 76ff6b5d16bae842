//! CEL rules that type-check where they are put: each rule is chosen by what its schema is, and
//! rules on structs only reach fields that exist (through `has()` when they may be absent).
//! Transition rules (`oldSelf`) only go where the API server can correlate old and new objects.

use super::super::model::{Case, Field, K8s, Marker, Rule, Scalar, Shape, StructDef, Ty, TypeDef};
use super::super::rng::Rng;
use super::super::words;

/// Where a rule is put.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    /// Old and new objects can be correlated here (not under a list other than a map list).
    pub correlatable: bool,
    /// The strings here have a format CEL reads as another type (date-time, duration).
    pub cel_format: bool,
}

/// Whether `ty` is a named string with a format CEL reads as another type (date-time is a
/// timestamp, duration a duration).
pub fn formatted(case: &Case, ty: &Ty) -> bool {
    let Ty::Named(id) = ty else { return false };
    let TypeDef::Newtype(n) = &case.types[*id] else {
        return false;
    };
    has_cel_format(&n.markers)
}

fn has_cel_format(markers: &[Marker]) -> bool {
    markers
        .iter()
        .any(|m| matches!(m, Marker::Format("date-time" | "duration")))
}

/// A rule for a field of type `ty`, if there is one for it.
pub fn field_rule(rng: &mut Rng, case: &Case, ty: &Ty, place: Place) -> Option<Rule> {
    if place.correlatable && rng.chance(15) && case.shape(ty) != Shape::Any {
        return Some(transition(rng, ty, case));
    }
    let rule = match ty {
        Ty::K8s(k8s) => k8s_rule(*k8s)?.to_owned(),
        Ty::Json => return None,
        Ty::Named(id) if matches!(case.types[*id], TypeDef::Struct(_)) => {
            return struct_rule(rng, case, case.struct_def(*id), place);
        }
        Ty::Scalar(Scalar::Bytes) => "self.size() <= 4096".to_owned(),
        _ => match case.shape(ty) {
            Shape::Integer => format!("self >= {}", rng.range(-1000, -1)),
            Shape::Number => format!("self >= {}.5", rng.range(-1000, -1)),
            Shape::String if place.cel_format => return None,
            Shape::String => match rng.below(2) {
                0 => format!("self.size() <= {}", rng.range(64, 512)),
                _ => "self != 'forbidden'".to_owned(),
            },
            Shape::Boolean => "self || !self".to_owned(),
            Shape::Array => format!("self.size() <= {}", rng.range(10, 100)),
            Shape::Map => match rng.below(2) {
                0 => format!("self.size() <= {}", rng.range(10, 100)),
                _ => "!('forbidden' in self)".to_owned(),
            },
            _ => return None,
        },
    };
    Some(decorate(rng, rule, None))
}

/// A rule on a struct that reads one or two of its fields.
pub fn struct_rule(rng: &mut Rng, case: &Case, def: &StructDef, place: Place) -> Option<Rule> {
    // CEL does not see a field without a type (arbitrary JSON); names that are no identifiers
    // would need CEL's escapes.
    let fields: Vec<&Field> = def
        .fields
        .iter()
        .filter(|f| !f.inline && f.ty != Ty::Json && words::is_identifier(&f.name))
        .collect();
    if fields.is_empty() {
        return None;
    }
    let field = *rng.pick(&fields);
    let name = &field.name;
    let required = field.required(case.package_optional);
    let guard = |check: String| {
        if required {
            check
        } else {
            format!("!has(self.{name}) || {check}")
        }
    };
    let has_format = has_cel_format(&field.markers) || formatted(case, &field.ty);
    let rule = match case.shape(&field.ty) {
        Shape::Integer => guard(format!("self.{name} >= {}", rng.range(-1000, -1))),
        // A string of CEL type string: not bytes, not a type of k8s.io (Time is a timestamp).
        Shape::String
            if !has_format && !matches!(field.ty, Ty::Scalar(Scalar::Bytes) | Ty::K8s(_)) =>
        {
            guard(format!("self.{name}.size() <= {}", rng.range(64, 512)))
        }
        _ if !required => {
            let others: Vec<&&Field> = fields
                .iter()
                .filter(|f| f.name != *name && !f.required(case.package_optional))
                .collect();
            match others.first() {
                Some(other) => format!("has(self.{name}) || !has(self.{})", other.name),
                None => format!("has(self.{name}) || true"),
            }
        }
        _ if place.correlatable && rng.chance(50) => {
            return Some(transition(rng, &field.ty, case));
        }
        _ => return None,
    };
    let path = rng.chance(30).then(|| format!(".{name}"));
    Some(decorate(rng, rule, path))
}

fn k8s_rule(k8s: K8s) -> Option<&'static str> {
    Some(match k8s {
        K8s::Time | K8s::MicroTime => "self > timestamp('2000-01-01T00:00:00Z')",
        K8s::Quantity | K8s::IntOrString => "type(self) == int || type(self) == string",
        K8s::Condition => "self.type.size() > 0",
        K8s::LabelSelector => "!has(self.matchLabels) || self.matchLabels.size() <= 10",
        K8s::EnvVar => "self.name.size() > 0",
        K8s::ResourceRequirements => "!has(self.limits) || self.limits.size() <= 10",
        K8s::LocalObjectReference => "!has(self.name) || self.name != 'forbidden'",
        K8s::ObjectReference => "!has(self.kind) || self.kind.size() <= 63",
        K8s::Toleration => "!has(self.key) || self.key.size() <= 63",
        K8s::RawExtension | K8s::ObjectMeta => return None,
    })
}

/// `self == oldSelf` and friends: rules that compare with the stored object.
fn transition(rng: &mut Rng, ty: &Ty, case: &Case) -> Rule {
    let compare = match case.shape(ty) {
        Shape::Integer => ">=",
        _ => "==",
    };
    // With optionalOldSelf, oldSelf is an optional: absent when the object is created.
    let optional = rng.chance(30);
    let rule = if optional {
        format!("!oldSelf.hasValue() || self {compare} oldSelf.value()")
    } else {
        format!("self {compare} oldSelf")
    };
    let mut rule = decorate(rng, rule, None);
    rule.optional_old_self = optional;
    rule
}

/// A message, a message expression, a reason and a field path, each sometimes.
fn decorate(rng: &mut Rng, rule: String, field_path: Option<String>) -> Rule {
    Rule {
        message: rng.chance(50).then(|| words::text(rng)),
        // A constant: an expression reading the value costs as much as a rule, which under
        // unbounded lists exceeds the API server's budget.
        message_expression: rng.chance(15).then(|| "'the value is invalid'".to_owned()),
        reason: rng.chance(15).then(|| {
            *rng.pick(&[
                "FieldValueRequired",
                "FieldValueInvalid",
                "FieldValueForbidden",
                "FieldValueDuplicate",
            ])
        }),
        field_path,
        optional_old_self: false,
        rule,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::differential::model::Presence;

    fn case_with(fields: Vec<Field>) -> Case {
        Case {
            name: "c".into(),
            group: "g.example.com".into(),
            version: "v1".into(),
            kind: "Widget".into(),
            plural: None,
            singular: None,
            short_names: vec![],
            categories: vec![],
            cluster_scoped: false,
            root_doc: vec![],
            spec_required: false,
            status: None,
            scale: None,
            printcolumns: vec![],
            package_optional: false,
            spec: 0,
            probe: false,
            types: vec![TypeDef::Struct(StructDef {
                name: "WidgetSpec".into(),
                doc: vec![],
                fields,
                markers: vec![],
            })],
        }
    }

    fn field(name: &str, ty: Ty, presence: Presence) -> Field {
        Field {
            name: name.into(),
            doc: vec![],
            ty,
            presence,
            markers: vec![],
            inline: false,
            go_value: false,
            rust_serde_default: false,
        }
    }

    #[test]
    fn optional_fields_are_guarded_by_has() {
        let case = case_with(vec![field(
            "port",
            Ty::Scalar(Scalar::Int32),
            Presence::OmitEmpty,
        )]);
        let place = Place {
            correlatable: false,
            cel_format: false,
        };
        let mut rng = Rng::new(1);
        for _ in 0..50 {
            let rule = struct_rule(&mut rng, &case, case.struct_def(0), place).unwrap();
            assert!(
                rule.rule.starts_with("!has(self.port) || self.port >= "),
                "{rule:?}"
            );
        }
    }

    #[test]
    fn transition_rules_only_where_correlatable() {
        let case = case_with(vec![]);
        let mut rng = Rng::new(2);
        let place = Place {
            correlatable: false,
            cel_format: false,
        };
        for _ in 0..200 {
            let rule = field_rule(&mut rng, &case, &Ty::Scalar(Scalar::Int64), place).unwrap();
            assert!(!rule.rule.contains("oldSelf") && !rule.optional_old_self);
        }
    }
}

//! The effect of every schema marker on a schema: controller-gen's semantics
//! (`pkg/crd/markers/*.go` `ApplyToSchema`) in controller-gen's order (`ApplyPriority`, from the
//! marker catalogue). The markers themselves (`Marker`, the data form of `#[validate]`,
//! `#[schema]` and `#[x_validation]`) are declared in the `webop-markers` catalogue.

use std::fmt;

pub use webop_markers::{
    CATALOGUE, ExternalDocs, Marker, MarkerKind, MarkerSpec, REASONS, XValidation,
};

use super::{JSON, JSONSchemaProps, JSONSchemaPropsOrArray, ValidationRule};

/// A marker that does not fit the schema it was applied to (controller-gen reports the same).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerError(pub String);

impl fmt::Display for MarkerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MarkerError {}

/// Applies `markers` to `schema` as controller-gen's `applyMarkers` does: sorted by priority
/// (stable), `items(...)` markers last and to the array's items.
pub fn apply(schema: &mut JSONSchemaProps, markers: &[Marker]) -> Result<(), MarkerError> {
    let mut direct: Vec<&Marker> = markers
        .iter()
        .filter(|m| !matches!(m, Marker::Items(_)))
        .collect();
    direct.sort_by_key(|m| m.spec().priority);
    for marker in direct {
        apply_one(schema, marker)?;
    }
    for marker in markers {
        if let Marker::Items(item_markers) = marker {
            let items = match (&schema.type_, &mut schema.items) {
                (Some(ty), Some(JSONSchemaPropsOrArray::Schema(items))) if ty == "array" => items,
                _ => {
                    return Err(MarkerError(format!(
                        "must apply items(...) to an array value, found {}",
                        type_name(schema)
                    )));
                }
            };
            apply(items, item_markers)?;
        }
    }
    Ok(())
}

fn type_name(schema: &JSONSchemaProps) -> &str {
    schema.type_.as_deref().unwrap_or("")
}

fn is(schema: &JSONSchemaProps, ty: &str) -> bool {
    schema.type_.as_deref() == Some(ty)
}

fn numeric(schema: &JSONSchemaProps, name: &str, value: Option<f64>) -> Result<(), MarkerError> {
    if !is(schema, "integer") && !is(schema, "number") {
        return Err(MarkerError(format!(
            "must apply {name} to a numeric value, found {}",
            type_name(schema)
        )));
    }
    if let Some(value) = value
        && is(schema, "integer")
        && value.fract() != 0.0
    {
        return Err(MarkerError(format!(
            "cannot apply non-integral {name} validation ({value}) to integer value"
        )));
    }
    Ok(())
}

fn textual(schema: &JSONSchemaProps, name: &str) -> Result<(), MarkerError> {
    if is(schema, "string") || schema.x_kubernetes_int_or_string == Some(true) {
        Ok(())
    } else {
        Err(MarkerError(format!(
            "must apply {name} to a textual value, found type {:?}",
            type_name(schema)
        )))
    }
}

fn kind(schema: &JSONSchemaProps, ty: &str, message: &str) -> Result<(), MarkerError> {
    if is(schema, ty) {
        Ok(())
    } else {
        Err(MarkerError(message.to_owned()))
    }
}

/// Go's JSONSchemaProps has plain `bool`s with `omitempty`: `false` is never written.
fn flag(value: bool) -> Option<bool> {
    value.then_some(true)
}

fn json(text: &str) -> JSON {
    JSON(serde_json::from_str(text).unwrap_or_else(|err| {
        panic!("webop: invalid JSON {text:?} in an attribute (checked at compile time): {err}")
    }))
}

fn apply_one(schema: &mut JSONSchemaProps, marker: &Marker) -> Result<(), MarkerError> {
    match *marker {
        Marker::Minimum(v) => {
            numeric(schema, "minimum", Some(v))?;
            schema.minimum = Some(v);
        }
        Marker::Maximum(v) => {
            numeric(schema, "maximum", Some(v))?;
            schema.maximum = Some(v);
        }
        Marker::ExclusiveMinimum(v) => {
            numeric(schema, "exclusiveminimum", None)?;
            schema.exclusive_minimum = flag(v);
        }
        Marker::ExclusiveMaximum(v) => {
            numeric(schema, "exclusivemaximum", None)?;
            schema.exclusive_maximum = flag(v);
        }
        Marker::MultipleOf(v) => {
            numeric(schema, "multipleof", Some(v))?;
            schema.multiple_of = Some(v);
        }
        Marker::MinLength(v) => {
            textual(schema, "minlength")?;
            schema.min_length = Some(v);
        }
        Marker::MaxLength(v) => {
            textual(schema, "maxlength")?;
            schema.max_length = Some(v);
        }
        Marker::Pattern(v) => {
            textual(schema, "pattern")?;
            schema.pattern = Some(v.to_owned());
        }
        Marker::Format(v) => schema.format = Some(v.to_owned()),
        Marker::Type(v) => schema.type_ = Some(v.to_owned()),
        Marker::MinItems(v) => {
            kind(schema, "array", "must apply minitems to an array")?;
            schema.min_items = Some(v);
        }
        Marker::MaxItems(v) => {
            kind(schema, "array", "must apply maxitem to an array")?;
            schema.max_items = Some(v);
        }
        Marker::UniqueItems(v) => {
            kind(schema, "array", "must apply uniqueitems to an array")?;
            schema.unique_items = flag(v);
        }
        Marker::MinProperties(v) => {
            kind(schema, "object", "must apply minproperties to an object")?;
            schema.min_properties = Some(v);
        }
        Marker::MaxProperties(v) => {
            kind(schema, "object", "must apply maxproperties to an object")?;
            schema.max_properties = Some(v);
        }
        Marker::Enum(values) => schema.enum_ = Some(values.iter().map(|v| json(v)).collect()),
        Marker::EmbeddedResource => schema.x_kubernetes_embedded_resource = Some(true),
        Marker::IntOrString => schema.x_kubernetes_int_or_string = Some(true),
        Marker::PreserveUnknownFields => schema.x_kubernetes_preserve_unknown_fields = Some(true),
        Marker::AtMostOneOf(fields) => one_of(
            schema,
            fields,
            "<= 1",
            "at most one of the fields in {} may be set",
        ),
        Marker::ExactlyOneOf(fields) => one_of(
            schema,
            fields,
            "== 1",
            "exactly one of the fields in {} must be set",
        ),
        Marker::AtLeastOneOf(fields) => one_of(
            schema,
            fields,
            ">= 1",
            "at least one of the fields in {} must be set",
        ),
        Marker::XValidation(rule) => x_validation(schema, &rule)?,
        Marker::Items(_) => unreachable!("items markers are applied by `apply`"),
        Marker::Default(text) => {
            let mut value = json(text);
            if is(schema, "array") && value.0 == serde_json::json!({}) {
                value = JSON(serde_json::json!([]));
            }
            schema.default = Some(value);
        }
        Marker::K8sDefault(text) => schema.default = Some(json(text)),
        Marker::Example(text) => schema.example = Some(json(text)),
        Marker::Title(v) => schema.title = Some(v.to_owned()),
        Marker::Nullable => schema.nullable = Some(true),
        Marker::ListType(v) => {
            if !is(schema, "array") {
                return Err(MarkerError(format!(
                    "must apply listType to an array, found {}",
                    type_name(schema)
                )));
            }
            if !matches!(v, "map" | "atomic" | "set") {
                return Err(MarkerError(
                    r#"ListType must be either "map", "set" or "atomic""#.into(),
                ));
            }
            schema.x_kubernetes_list_type = Some(v.to_owned());
        }
        Marker::ListMapKeys(keys) => {
            if !is(schema, "array") {
                return Err(MarkerError(format!(
                    "must apply listMapKey to an array, found {}",
                    type_name(schema)
                )));
            }
            if schema.x_kubernetes_list_type.as_deref() != Some("map") {
                return Err(MarkerError(
                    "must apply listMapKey to an associative-list".into(),
                ));
            }
            schema
                .x_kubernetes_list_map_keys
                .get_or_insert_with(Vec::new)
                .extend(keys.iter().map(|k| (*k).to_owned()));
        }
        Marker::MapType(v) => {
            kind(schema, "object", "must apply mapType to an object")?;
            if !matches!(v, "atomic" | "granular") {
                return Err(MarkerError(
                    r#"MapType must be either "granular" or "atomic""#.into(),
                ));
            }
            schema.x_kubernetes_map_type = Some(v.to_owned());
        }
        Marker::StructType(v) => {
            if schema.type_.is_some() && !is(schema, "object") {
                return Err(MarkerError(
                    "must apply structType to an object; either explicitly set or defaulted through an empty schema type".into(),
                ));
            }
            if !matches!(v, "atomic" | "granular") {
                return Err(MarkerError(
                    r#"StructType must be either "granular" or "atomic""#.into(),
                ));
            }
            schema.x_kubernetes_map_type = Some(v.to_owned());
        }
        Marker::ExternalDocs(ExternalDocs { url, description }) => {
            schema.external_docs = Some(super::ExternalDocumentation {
                url: Some(url.to_owned()),
                description: description.map(str::to_owned),
            });
        }
        Marker::Immutable => push_rule(
            schema,
            "self == oldSelf".into(),
            Some("field is immutable".into()),
        ),
    }
    Ok(())
}

fn push_rule(schema: &mut JSONSchemaProps, rule: String, message: Option<String>) {
    schema
        .x_kubernetes_validations
        .get_or_insert_with(Vec::new)
        .push(ValidationRule {
            rule,
            message,
            ..ValidationRule::default()
        });
}

fn x_validation(schema: &mut JSONSchemaProps, rule: &XValidation) -> Result<(), MarkerError> {
    if let Some(reason) = rule.reason
        && !REASONS.contains(&reason)
    {
        return Err(MarkerError(format!(
            "invalid reason {reason}, valid values are FieldValueRequired, FieldValueInvalid, FieldValueForbidden and FieldValueDuplicate"
        )));
    }
    let owned = |s: Option<&str>| s.filter(|s| !s.is_empty()).map(str::to_owned);
    schema
        .x_kubernetes_validations
        .get_or_insert_with(Vec::new)
        .push(ValidationRule {
            rule: rule.rule.to_owned(),
            message: owned(rule.message),
            message_expression: owned(rule.message_expression),
            reason: owned(rule.reason),
            field_path: owned(rule.field_path),
            optional_old_self: rule.optional_old_self.filter(|v| *v),
        });
    Ok(())
}

/// `AtMostOneOf` and friends: controller-gen's CEL rule counting the fields that are set.
fn one_of(schema: &mut JSONSchemaProps, fields: &[&str], comparison: &str, message: &str) {
    if fields.is_empty() {
        return;
    }
    let has: Vec<String> = fields.iter().map(|f| format!("has(self.{f})")).collect();
    let rule = format!("[{}].filter(x,x==true).size() {comparison}", has.join(","));
    // Go prints a []string with %v: `[a b]`.
    let listed = format!("[{}]", fields.join(" "));
    push_rule(schema, rule, Some(message.replace("{}", &listed)));
}

#[cfg(test)]
mod tests;

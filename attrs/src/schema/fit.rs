//! Markers that cannot apply to a std type are refused at the attribute (controller-gen reports
//! them when it generates; webop when it compiles), by the catalogue's `fits` and payload.

use proc_macro2::Span;
use syn::Type;
use webop_markers::{Fits, MarkerKind, Payload};

use super::{MarkerAt, SchemaAttrs, Value};
use crate::errors::Errors;
use crate::types::{self, Kind};

/// Checks the markers of `attrs` against the field (or newtype) type `ty`. Types that are not
/// std types, and fields whose `type` is overridden, are left to the schema builder.
pub fn check_fit(ty: &Type, attrs: &SchemaAttrs, errors: &Errors) {
    if attrs.has(MarkerKind::Type) {
        return;
    }
    let Some(kind) = types::kind(ty) else {
        return;
    };
    let int_or_string = attrs.has(MarkerKind::IntOrString);
    for marker in &attrs.markers {
        errors.ok(fits(marker, kind, int_or_string));
    }
}

fn fits(marker: &MarkerAt, kind: Kind, int_or_string: bool) -> syn::Result<()> {
    let spec = marker.spec();
    let key = spec.key;
    match (&marker.value, spec.payload) {
        (Value::Number(v), _) if kind == Kind::Integer && v.fract() != 0.0 => {
            return Err(syn::Error::new(
                marker.span,
                format!("`{key}` {v} is not a whole number, but this field is an integer"),
            ));
        }
        (Value::Text(json), Payload::Value) => {
            check_values(key, std::slice::from_ref(json), kind, marker.span)?;
        }
        (Value::Texts(values), Payload::Values) => {
            check_values(&format!("{key} value"), values, kind, marker.span)?;
        }
        _ => {}
    }
    let fits = match spec.fits {
        Fits::Any => true,
        Fits::Numbers => matches!(kind, Kind::Integer | Kind::Number),
        Fits::Text => kind == Kind::String || int_or_string,
        Fits::Arrays => kind == Kind::Array,
        Fits::Objects => kind == Kind::Map,
    };
    if fits {
        Ok(())
    } else {
        Err(syn::Error::new(
            marker.span,
            format!(
                "`{key}` does not apply to this field: its type is {}",
                kind.describe()
            ),
        ))
    }
}

/// JSON values (`enum`, `default`) must be values of the field's type.
fn check_values(what: &str, values: &[String], kind: Kind, span: Span) -> syn::Result<()> {
    for text in values {
        let value: serde_json::Value =
            serde_json::from_str(text).expect("attribute values are JSON texts");
        let fits = match kind {
            Kind::Integer => value.is_i64() || value.is_u64(),
            Kind::Number => value.is_number(),
            Kind::String => value.is_string(),
            Kind::Boolean => value.is_boolean(),
            Kind::Array => value.is_array() || value == serde_json::json!({}),
            Kind::Map => value.is_object(),
        };
        if !fits {
            return Err(syn::Error::new(
                span,
                format!(
                    "{what} {text} is not {}, and this field is {}",
                    kind.describe(),
                    kind.describe()
                ),
            ));
        }
    }
    Ok(())
}

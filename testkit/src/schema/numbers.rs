//! Numeric keywords as kube-openapi's number validator checks them: first the value's range for
//! an `int32`/`int64` format ("Checked value must be of type integer with format int32 in
//! spec.port", a plain error the API server reports at the validation root), then
//! `multipleOf`, `minimum`, `maximum`.
//!
//! Like kube-openapi, a JSON integer is compared natively as an int64 against bounds and factors
//! truncated to int64 (so `multipleOf: 0.5` on an integer says the factor "must be positive: 0",
//! as the real server does), and a float is compared as a float64.

use serde_json::Value;

use super::formats::go_float;
use super::location::Loc;
use crate::status::{FieldError, FieldErrorKind};

/// A JSON number as Go's JSON decoder gives it to the validator.
#[derive(Clone, Copy)]
enum Native {
    Int(i64),
    Float(f64),
}

impl Native {
    fn of(value: &Value) -> Option<Self> {
        match value.as_i64() {
            Some(i) => Some(Self::Int(i)),
            None => value.as_f64().map(Self::Float),
        }
    }

    fn render(self) -> String {
        match self {
            Self::Int(i) => i.to_string(),
            Self::Float(f) => go_float(f),
        }
    }
}

/// Checks the numeric keywords of `schema` on `value`.
pub fn check(value: &Value, schema: &Value, loc: &Loc<'_>, errors: &mut Vec<FieldError>) {
    let Some(data) = Native::of(value) else {
        return;
    };
    range(data, schema, loc, errors);
    let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
    let exclusive = |key: &str| schema.get(key) == Some(&Value::Bool(true));
    let invalid = |detail: String| {
        FieldError::new(
            loc.field(),
            FieldErrorKind::Invalid,
            Some(data.render()),
            detail,
        )
    };
    let body = loc.body();
    if let Some(factor) = bound("multipleOf") {
        match data {
            Native::Int(i) => {
                // Go converts the factor with int64(f): 0.5 becomes 0.
                let factor = factor as i64;
                if factor <= 0 {
                    errors.push(FieldError::new(
                        loc.field(),
                        FieldErrorKind::Invalid,
                        Some(factor.to_string()),
                        format!("factor MultipleOf declared for {body} must be positive: {factor}"),
                    ));
                } else if i % factor != 0 {
                    errors.push(invalid(format!(
                        "{body} in body should be a multiple of {factor}"
                    )));
                }
            }
            Native::Float(f) => {
                if factor <= 0.0 {
                    errors.push(FieldError::new(
                        loc.field(),
                        FieldErrorKind::Invalid,
                        Some(go_float(factor)),
                        format!(
                            "factor MultipleOf declared for {body} must be positive: {}",
                            go_float(factor)
                        ),
                    ));
                } else {
                    let multiple = if factor < 1.0 {
                        1.0 / factor * f
                    } else {
                        f / factor
                    };
                    if !is_json_integer(multiple) {
                        errors.push(invalid(format!(
                            "{body} in body should be a multiple of {}",
                            go_float(factor)
                        )));
                    }
                }
            }
        }
    }
    if let Some(min) = bound("minimum") {
        let exclusive = exclusive("exclusiveMinimum");
        let (below, shown) = match data {
            Native::Int(i) => {
                let min = min as i64;
                (if exclusive { i <= min } else { i < min }, min.to_string())
            }
            Native::Float(f) => (if exclusive { f <= min } else { f < min }, go_float(min)),
        };
        if below {
            let relation = if exclusive {
                "greater than"
            } else {
                "greater than or equal to"
            };
            errors.push(invalid(format!(
                "{body} in body should be {relation} {shown}"
            )));
        }
    }
    if let Some(max) = bound("maximum") {
        let exclusive = exclusive("exclusiveMaximum");
        let (above, shown) = match data {
            Native::Int(i) => {
                let max = max as i64;
                (if exclusive { i >= max } else { i > max }, max.to_string())
            }
            Native::Float(f) => (if exclusive { f >= max } else { f > max }, go_float(max)),
        };
        if above {
            let relation = if exclusive {
                "less than"
            } else {
                "less than or equal to"
            };
            errors.push(invalid(format!(
                "{body} in body should be {relation} {shown}"
            )));
        }
    }
}

/// Whether a float64 is an integer a JSON number can carry exactly (kube-openapi accepts such a
/// float where an integer is expected: `3.0`, not `1e30`).
pub fn is_json_integer(f: f64) -> bool {
    const MAX: f64 = 9_007_199_254_740_991.0;
    f.is_finite() && f.fract() == 0.0 && (-MAX..=MAX).contains(&f)
}

/// The range check of an integer format: the value must parse as the format's Go type.
fn range(data: Native, schema: &Value, loc: &Loc<'_>, errors: &mut Vec<FieldError>) {
    if schema.get("type").and_then(Value::as_str) != Some("integer") {
        return;
    }
    let format = schema.get("format").and_then(Value::as_str).unwrap_or("");
    // Go parses the value's decimal text; a float is rendered first (`1e+30` never parses).
    let fits = match (data, format) {
        (Native::Int(i), "int32") => i32::try_from(i).is_ok(),
        (Native::Int(_), _) => true,
        (Native::Float(f), "int32") => go_float(f).parse::<i32>().is_ok(),
        (Native::Float(f), _) => go_float(f).parse::<i64>().is_ok(),
    };
    if !fits {
        let shown = if format.is_empty() { "integer" } else { format };
        errors.push(FieldError::new(
            loc.root(),
            FieldErrorKind::Invalid,
            Some("\"\"".into()),
            format!(
                "Checked value must be of type integer with format {shown} in {}",
                loc.body()
            ),
        ));
    }
}

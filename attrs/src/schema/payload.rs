//! A marker's value as the catalogue's [`Payload`] says it is written, checked with errors at the
//! offending token.

use proc_macro2::Span;
use webop_markers::{Family, MarkerSpec, Payload, RecordField, TextRule};

use super::{Value, items};
use crate::args::{Arg, Seen, unknown_key};
use crate::errors::Errors;
use crate::{checks, json, regex_check};

/// The value of `arg`, the marker `spec` written as `key ...` in `#[family(...)]`.
pub(super) fn parse(spec: &MarkerSpec, family: Family, arg: &Arg) -> syn::Result<Value> {
    match spec.payload {
        Payload::Record(_) => {
            let name = arg.name();
            let attribute = format!("{}({name})", family.attribute());
            record(
                spec,
                &arg.nested()?,
                &attribute,
                &format!("`{name}`"),
                arg.key.span(),
            )
        }
        Payload::Items => Ok(Value::Items(items(arg)?)),
        payload => value(payload, arg),
    }
}

fn value(payload: Payload, arg: &Arg) -> syn::Result<Value> {
    let texts = |arg: &Arg| -> syn::Result<Vec<String>> {
        Ok(arg.strings()?.iter().map(|s| s.value()).collect())
    };
    Ok(match payload {
        Payload::Bare => {
            arg.bare()?;
            Value::Bare
        }
        Payload::Flag => Value::Flag(arg.flag()?),
        Payload::Number => Value::Number(arg.number()?),
        Payload::Count => Value::Count(arg.count()?),
        Payload::Text(rule) => Value::Text(text(rule, arg)?),
        Payload::Texts => Value::Texts(texts(arg)?),
        Payload::Value | Payload::Json => Value::Text(json::json_text(arg)?),
        Payload::Values => Value::Texts(json::enum_values(arg)?),
        Payload::Items | Payload::Record(_) => {
            unreachable!("nested payloads are parsed by `parse`")
        }
    })
}

fn text(rule: TextRule, arg: &Arg) -> syn::Result<String> {
    Ok(match rule {
        TextRule::Any => arg.string()?.value(),
        TextRule::NonEmpty => arg.non_empty_string()?.value(),
        TextRule::Pattern => regex_check::pattern(&arg.string()?)?,
        TextRule::Url => checks::url(&arg.non_empty_string()?)?,
        TextRule::OneOf(allowed) => checks::one_of(&arg.string()?, &arg.name(), allowed)?,
    })
}

/// A record's entries from `args`. Unknown keys are reported as keys of `attribute`, missing
/// entries as what `what` needs, at `span`.
pub(super) fn record(
    spec: &MarkerSpec,
    args: &[Arg],
    attribute: &str,
    what: &str,
    span: Span,
) -> syn::Result<Value> {
    let Payload::Record(fields) = spec.payload else {
        unreachable!("{} is not a record", spec.key)
    };
    let errors = Errors::new();
    let mut seen = Seen::default();
    let mut values: Vec<Option<Value>> = vec![None; fields.len()];
    for arg in args {
        if errors.ok(seen.once(arg)).is_none() {
            continue;
        }
        let name = arg.name();
        let Some(index) = fields.iter().position(|field| field.key == name) else {
            let keys: Vec<&str> = fields.iter().map(|field| field.key).collect();
            errors.push(unknown_key(arg, attribute, &keys));
            continue;
        };
        values[index] = errors.ok(value(fields[index].payload, arg));
    }
    for (field, value) in fields.iter().zip(&values) {
        if field.required && value.is_none() && !given(field, args) {
            errors.push(syn::Error::new(
                span,
                format!("{what} needs `{} = \"...\"`", field.key),
            ));
        }
    }
    errors.finish_with(Value::Record(values))
}

/// Whether `field` was written (perhaps with a bad value, reported already).
fn given(field: &RecordField, args: &[Arg]) -> bool {
    args.iter().any(|arg| arg.name() == field.key)
}

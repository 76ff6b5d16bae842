//! JSON values written as Rust: `1`, `-1.5`, `"text"`, `true`, `["a", "b"]`, and
//! `json(r#"{"a": 1}"#)` for anything else.

use serde_json::{Number, Value};
use syn::spanned::Spanned;
use syn::{Expr, ExprLit, ExprUnary, Lit, UnOp};

use crate::args::{Arg, ArgValue};

const WHAT: &str = "a JSON value: a literal (`1`, `-1.5`, `\"text\"`, `true`), an array of them, or `json(r#\"...\"#)`";

/// The JSON text of `key = <value>`.
pub fn json_text(arg: &Arg) -> syn::Result<String> {
    let ArgValue::Value(expr) = &arg.value else {
        return Err(syn::Error::new(
            arg.key.span(),
            format!("`{}` expects {WHAT}", arg.name()),
        ));
    };
    Ok(to_json(expr, &arg.name())?.to_string())
}

/// The JSON texts of `enum = [...]`, or of controller-gen's `enum = "A;B"` where each part is
/// read as a JSON scalar if it is one (`1`, `true`) and as a string otherwise.
pub fn enum_values(arg: &Arg) -> syn::Result<Vec<String>> {
    let ArgValue::Value(expr) = &arg.value else {
        return Err(syn::Error::new(
            arg.key.span(),
            "`enum` expects a list of values",
        ));
    };
    let values = match expr {
        Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        }) => s
            .value()
            .split(';')
            .map(|part| match serde_json::from_str::<Value>(part) {
                Ok(v @ (Value::Number(_) | Value::Bool(_))) => v,
                _ => Value::String(part.to_owned()),
            })
            .collect(),
        Expr::Array(array) => array
            .elems
            .iter()
            .map(|e| to_json(e, "enum"))
            .collect::<syn::Result<Vec<_>>>()?,
        other => {
            return Err(syn::Error::new(
                other.span(),
                "`enum` expects a list of values (`[\"A\", \"B\"]` or `\"A;B\"`)",
            ));
        }
    };
    if values.is_empty() {
        return Err(syn::Error::new(
            expr.span(),
            "`enum` needs at least one value",
        ));
    }
    Ok(values.iter().map(Value::to_string).collect())
}

fn to_json(expr: &Expr, key: &str) -> syn::Result<Value> {
    let wrong = || syn::Error::new(expr.span(), format!("`{key}` expects {WHAT}"));
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => literal(lit, false).ok_or_else(wrong)?,
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr: inner,
            ..
        }) => match &**inner {
            Expr::Lit(ExprLit { lit, .. }) => literal(lit, true).ok_or_else(wrong)?,
            _ => Err(wrong()),
        },
        Expr::Array(array) => Ok(Value::Array(
            array
                .elems
                .iter()
                .map(|e| to_json(e, key))
                .collect::<syn::Result<_>>()?,
        )),
        Expr::Call(call) if matches!(&*call.func, Expr::Path(p) if p.path.is_ident("json")) => {
            match call.args.iter().collect::<Vec<_>>().as_slice() {
                [
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(text),
                        ..
                    }),
                ] => serde_json::from_str(&text.value()).map_err(|err| {
                    syn::Error::new(text.span(), format!("invalid JSON in `{key}`: {err}"))
                }),
                _ => Err(syn::Error::new(
                    call.span(),
                    "`json(...)` takes one string literal of JSON",
                )),
            }
        }
        Expr::Group(group) => to_json(&group.expr, key),
        _ => Err(wrong()),
    }
}

fn literal(lit: &Lit, negative: bool) -> Option<syn::Result<Value>> {
    let sign = if negative { "-" } else { "" };
    Some(match lit {
        Lit::Str(s) if !negative => Ok(Value::String(s.value())),
        Lit::Bool(b) if !negative => Ok(Value::Bool(b.value)),
        Lit::Int(i) => format!("{sign}{}", i.base10_digits())
            .parse::<i64>()
            .map(Value::from)
            .map_err(|err| syn::Error::new(i.span(), err)),
        Lit::Float(f) => format!("{sign}{}", f.base10_digits())
            .parse::<f64>()
            .ok()
            .and_then(Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| syn::Error::new(f.span(), "not a finite number")),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn arg(tokens: &str) -> Arg {
        syn::parse_str(tokens).unwrap()
    }

    #[test]
    fn literals_arrays_and_json() {
        assert_eq!(json_text(&arg("default = 1")).unwrap(), "1");
        assert_eq!(json_text(&arg("default = -1.5")).unwrap(), "-1.5");
        assert_eq!(json_text(&arg(r#"default = "x""#)).unwrap(), r#""x""#);
        assert_eq!(
            json_text(&arg(r#"default = ["a", 2]"#)).unwrap(),
            r#"["a",2]"#
        );
        assert_eq!(
            json_text(&arg(r##"default = json(r#"{"a": {}}"#)"##)).unwrap(),
            r#"{"a":{}}"#
        );
    }

    #[test]
    fn bad_values_are_explained() {
        let err = json_text(&arg(r#"default = json("{nope")"#)).unwrap_err();
        assert!(
            err.to_string().starts_with("invalid JSON in `default`"),
            "{err}"
        );
        let err = json_text(&arg("default = some_fn()")).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("`default` expects a JSON value"),
            "{err}"
        );
    }

    #[test]
    fn enum_string_form_guesses_scalars() {
        assert_eq!(
            enum_values(&arg(r#"enum = "A;1;true""#)).unwrap(),
            [r#""A""#, "1", "true"]
        );
        assert_eq!(
            enum_values(&arg(r#"enum = ["A", "B"]"#)).unwrap(),
            [r#""A""#, r#""B""#]
        );
    }
}

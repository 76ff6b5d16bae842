//! The grammar every webop attribute shares: `#[name]`, `#[name(key, key = value, key(...))]`,
//! and typed accessors whose errors point at the offending token and name the rule.

use proc_macro2::{Span, TokenStream};
use syn::ext::IdentExt;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::spanned::Spanned;
use syn::{Attribute, Expr, ExprLit, ExprUnary, Ident, Lit, LitStr, Meta, Token, UnOp};

/// One `key`, `key = value` or `key(...)` inside an attribute's parentheses.
#[derive(Clone)]
pub struct Arg {
    pub key: Ident,
    pub value: ArgValue,
}

/// What follows a key.
// Short-lived values, one per attribute argument: boxing the expression would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Clone)]
pub enum ArgValue {
    /// A bare `key`.
    Flag,
    /// `key = value`.
    Value(Expr),
    /// `key(...)`: the tokens inside, read as arguments by [`Arg::nested`] when the key takes
    /// them (so a key that does not is refused by its own rule, not by a syntax error).
    Nested(TokenStream),
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        // Keys may be keywords: `type`, `enum`.
        let key = Ident::parse_any(input)?;
        let value = if input.peek(Token![=]) {
            input.parse::<Token![=]>()?;
            ArgValue::Value(input.parse()?)
        } else if input.peek(syn::token::Paren) {
            let content;
            syn::parenthesized!(content in input);
            ArgValue::Nested(content.parse()?)
        } else {
            ArgValue::Flag
        };
        Ok(Arg { key, value })
    }
}

fn parse_list(input: ParseStream) -> syn::Result<Vec<Arg>> {
    Ok(Punctuated::<Arg, Token![,]>::parse_terminated(input)?
        .into_iter()
        .collect())
}

/// The arguments of an attribute macro (`#[rbac(<tokens>)]`).
pub fn parse_args(tokens: TokenStream) -> syn::Result<Vec<Arg>> {
    parse_list.parse2(tokens)
}

/// The arguments of `#[name(...)]`; `#[name]` has none.
pub fn args_of(attr: &Attribute) -> syn::Result<Vec<Arg>> {
    match &attr.meta {
        Meta::Path(_) => Ok(Vec::new()),
        Meta::List(list) => list.parse_args_with(parse_list),
        Meta::NameValue(nv) => Err(syn::Error::new(
            nv.eq_token.span,
            format!("expected `#[{}(...)]`", path_name(&attr.meta)),
        )),
    }
}

/// The last segment of an attribute's path: `validate` for `#[webop::validate(...)]`.
pub fn path_name(meta: &Meta) -> String {
    meta.path()
        .segments
        .last()
        .map(|s| s.ident.to_string())
        .unwrap_or_default()
}

impl Arg {
    /// The key as written, without `r#`.
    pub fn name(&self) -> String {
        self.key.unraw().to_string()
    }

    /// The span of the whole argument.
    pub fn span(&self) -> Span {
        match &self.value {
            ArgValue::Value(expr) => self.key.span().join(expr.span()).unwrap_or(self.key.span()),
            _ => self.key.span(),
        }
    }

    fn value_span(&self) -> Span {
        match &self.value {
            ArgValue::Value(expr) => expr.span(),
            _ => self.key.span(),
        }
    }

    fn expected(&self, what: &str) -> syn::Error {
        syn::Error::new(
            self.value_span(),
            format!("`{}` expects {what}", self.name()),
        )
    }

    fn expr(&self, what: &str) -> syn::Result<&Expr> {
        match &self.value {
            ArgValue::Value(expr) => Ok(expr),
            _ => Err(self.expected(what)),
        }
    }

    /// `key` or `key = true|false`.
    pub fn flag(&self) -> syn::Result<bool> {
        match &self.value {
            ArgValue::Flag => Ok(true),
            ArgValue::Value(Expr::Lit(ExprLit {
                lit: Lit::Bool(b), ..
            })) => Ok(b.value),
            _ => Err(self.expected("no value (a bare flag) or `= true` / `= false`")),
        }
    }

    /// `key` with no value.
    pub fn bare(&self) -> syn::Result<()> {
        match &self.value {
            ArgValue::Flag => Ok(()),
            _ => Err(syn::Error::new(
                self.span(),
                format!("`{}` takes no value", self.name()),
            )),
        }
    }

    /// `key = "..."`.
    pub fn string(&self) -> syn::Result<LitStr> {
        match self.expr("a string literal")? {
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Ok(s.clone()),
            _ => Err(self.expected("a string literal")),
        }
    }

    /// `key = "..."`, non-empty.
    pub fn non_empty_string(&self) -> syn::Result<LitStr> {
        let s = self.string()?;
        if s.value().is_empty() {
            return Err(syn::Error::new(
                s.span(),
                format!("`{}` must not be empty", self.name()),
            ));
        }
        Ok(s)
    }

    /// `key = 1` or `key = -1`.
    pub fn int(&self) -> syn::Result<i64> {
        let expr = self.expr("an integer")?;
        let (negative, lit) = signed_literal(expr).ok_or_else(|| self.expected("an integer"))?;
        match lit {
            Lit::Int(i) => {
                let v: i64 = i.base10_parse()?;
                Ok(if negative { -v } else { v })
            }
            _ => Err(self.expected("an integer")),
        }
    }

    /// `key = 1`, at least zero (lengths and counts).
    pub fn count(&self) -> syn::Result<i64> {
        let v = self.int()?;
        if v < 0 {
            return Err(self.expected("a count of zero or more"));
        }
        Ok(v)
    }

    /// `key = 1`, `key = -2`, `key = 0.5`.
    pub fn number(&self) -> syn::Result<f64> {
        let expr = self.expr("a number")?;
        let (negative, lit) = signed_literal(expr).ok_or_else(|| self.expected("a number"))?;
        let v: f64 = match lit {
            Lit::Int(i) => i.base10_parse()?,
            Lit::Float(f) => f.base10_parse()?,
            _ => return Err(self.expected("a number")),
        };
        Ok(if negative { -v } else { v })
    }

    /// `key = ["a", "b"]`, or controller-gen's `key = "a;b"`; also a single `key = "a"`.
    pub fn strings(&self) -> syn::Result<Vec<LitStr>> {
        const WHAT: &str = "a list of strings (`[\"a\", \"b\"]` or `\"a;b\"`)";
        match self.expr(WHAT)? {
            Expr::Array(array) => array
                .elems
                .iter()
                .map(|e| match e {
                    Expr::Lit(ExprLit {
                        lit: Lit::Str(s), ..
                    }) => Ok(s.clone()),
                    other => Err(syn::Error::new(
                        other.span(),
                        format!("`{}` expects {WHAT}", self.name()),
                    )),
                })
                .collect(),
            Expr::Lit(ExprLit {
                lit: Lit::Str(s), ..
            }) => Ok(s
                .value()
                .split(';')
                .map(|part| LitStr::new(part, s.span()))
                .collect()),
            _ => Err(self.expected(WHAT)),
        }
    }

    /// `key(...)`.
    pub fn nested(&self) -> syn::Result<Vec<Arg>> {
        match &self.value {
            ArgValue::Nested(tokens) => parse_args(tokens.clone()),
            _ => Err(syn::Error::new(
                self.span(),
                format!("expected `{}(...)`", self.name()),
            )),
        }
    }
}

/// `1`, `-1`, `1.5`: the literal and whether it was negated.
fn signed_literal(expr: &Expr) -> Option<(bool, &Lit)> {
    match expr {
        Expr::Lit(ExprLit { lit, .. }) => Some((false, lit)),
        Expr::Unary(ExprUnary {
            op: UnOp::Neg(_),
            expr,
            ..
        }) => match &**expr {
            Expr::Lit(ExprLit { lit, .. }) => Some((true, lit)),
            _ => None,
        },
        Expr::Group(group) => signed_literal(&group.expr),
        _ => None,
    }
}

/// An error for a key the attribute does not know, suggesting the closest known key.
pub fn unknown_key(arg: &Arg, attribute: &str, known: &[&str]) -> syn::Error {
    let name = arg.name();
    let message = match crate::suggest::closest(&name, known, &[]) {
        Some(k) => format!("unknown key `{name}` in #[{attribute}]; did you mean `{k}`?"),
        None => format!(
            "unknown key `{name}` in #[{attribute}]; expected one of: {}",
            known.join(", ")
        ),
    };
    syn::Error::new(arg.key.span(), message)
}

/// Refuses a key given twice in one item's attributes.
#[derive(Default)]
pub struct Seen(Vec<String>);

impl Seen {
    pub fn once(&mut self, arg: &Arg) -> syn::Result<()> {
        let name = arg.name();
        if self.0.contains(&name) {
            return Err(syn::Error::new(
                arg.key.span(),
                format!("`{name}` is given twice"),
            ));
        }
        self.0.push(name);
        Ok(())
    }

    /// Whether `key` was given.
    pub fn contains(&self, key: &str) -> bool {
        self.0.iter().any(|seen| seen == key)
    }
}

/// The name of a webop attribute macro as written in source: `name` for `#[name]`,
/// `#[webop::name]` and `#[webop::prelude::name]`; `None` for any other path.
pub fn webop_attribute_name(attr: &Attribute) -> Option<String> {
    let segments: Vec<String> = attr
        .path()
        .segments
        .iter()
        .map(|s| s.ident.to_string())
        .collect();
    match segments
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        [name] | ["webop", name] | ["webop", "prelude", name] => Some((*name).to_owned()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(tokens: &str) -> Vec<Arg> {
        let attr: Attribute =
            syn::parse_str::<syn::DeriveInput>(&format!("#[a({tokens})] struct S;"))
                .unwrap()
                .attrs
                .remove(0);
        args_of(&attr).unwrap()
    }

    #[test]
    fn parses_flags_values_and_nested_lists() {
        let a = args(r#"required, minimum = -2, type = "string", items(max_length = 10)"#);
        assert_eq!(a.len(), 4);
        assert!(a[0].flag().unwrap());
        assert_eq!(a[1].number().unwrap(), -2.0);
        assert_eq!(a[2].name(), "type");
        assert_eq!(a[2].string().unwrap().value(), "string");
        assert_eq!(a[3].nested().unwrap()[0].count().unwrap(), 10);
    }

    #[test]
    fn string_lists_accept_arrays_and_semicolons() {
        let a = args(r#"x = ["a", "b"], y = "c;d""#);
        let values = |arg: &Arg| {
            arg.strings()
                .unwrap()
                .iter()
                .map(LitStr::value)
                .collect::<Vec<_>>()
        };
        assert_eq!(values(&a[0]), ["a", "b"]);
        assert_eq!(values(&a[1]), ["c", "d"]);
    }

    #[test]
    fn wrong_types_name_the_key_and_the_rule() {
        let a = args(r#"max_length = "ten", minimum = "one""#);
        assert_eq!(
            a[0].count().unwrap_err().to_string(),
            "`max_length` expects an integer"
        );
        assert_eq!(
            a[1].number().unwrap_err().to_string(),
            "`minimum` expects a number"
        );
    }

    #[test]
    fn unknown_keys_get_a_suggestion() {
        let a = args("maximun = 3, zzz = 1");
        let known = ["minimum", "maximum"];
        assert_eq!(
            unknown_key(&a[0], "validate", &known).to_string(),
            "unknown key `maximun` in #[validate]; did you mean `maximum`?"
        );
        assert_eq!(
            unknown_key(&a[1], "validate", &known).to_string(),
            "unknown key `zzz` in #[validate]; expected one of: minimum, maximum"
        );
    }
}

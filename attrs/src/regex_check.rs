//! `pattern` must be a regular expression the API server can compile (Go's RE2 syntax, which
//! regex-syntax implements closely).

use syn::LitStr;

pub fn pattern(value: &LitStr) -> syn::Result<String> {
    let v = value.value();
    regex_syntax::Parser::new()
        .parse(&v)
        .map(|_| v.clone())
        .map_err(|err| {
            let detail = err.to_string();
            let last = detail
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("");
            syn::Error::new(
                value.span(),
                format!(
                    "invalid pattern {v:?}: {}",
                    last.trim_start_matches("error: ")
                ),
            )
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    #[test]
    fn rejects_what_does_not_compile() {
        assert!(pattern(&LitStr::new("^[a-z]+$", Span::call_site())).is_ok());
        let err = pattern(&LitStr::new("^[a-z+$", Span::call_site())).unwrap_err();
        assert!(
            err.to_string().starts_with("invalid pattern \"^[a-z+$\": "),
            "{err}"
        );
    }
}

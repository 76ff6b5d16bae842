//! Small value checks shared by the attribute parsers.

use syn::LitStr;

/// `value` must be one of `allowed`.
pub fn one_of(value: &LitStr, key: &str, allowed: &[&str]) -> syn::Result<String> {
    let v = value.value();
    if allowed.contains(&v.as_str()) {
        Ok(v)
    } else {
        Err(syn::Error::new(
            value.span(),
            format!("invalid {key} {v:?}: must be one of {}", quoted(allowed)),
        ))
    }
}

fn quoted(values: &[&str]) -> String {
    values
        .iter()
        .map(|v| format!("{v:?}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An absolute URL (controller-gen checks `url.ParseRequestURI`).
pub fn url(value: &LitStr) -> syn::Result<String> {
    let v = value.value();
    let scheme_ok = v.split_once("://").is_some_and(|(scheme, rest)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c))
            && !rest.is_empty()
    });
    if scheme_ok && !v.contains(char::is_whitespace) {
        Ok(v)
    } else {
        Err(syn::Error::new(
            value.span(),
            format!(
                "invalid url {v:?}: must be an absolute URL such as \"https://example.com/docs\""
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    #[test]
    fn one_of_names_the_allowed_values() {
        let err = one_of(
            &LitStr::new("list", Span::call_site()),
            "list_type",
            &["atomic", "map"],
        )
        .unwrap_err();
        assert_eq!(
            err.to_string(),
            r#"invalid list_type "list": must be one of "atomic", "map""#
        );
    }

    #[test]
    fn urls_must_be_absolute() {
        assert!(url(&LitStr::new("https://k8s.io/docs", Span::call_site())).is_ok());
        assert!(url(&LitStr::new("k8s.io/docs", Span::call_site())).is_err());
    }
}

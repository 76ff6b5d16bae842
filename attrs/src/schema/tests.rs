use quote::{ToTokens, quote};
use webop_markers::{CATALOGUE, Fits, MarkerSpec, Place};

use super::*;

fn parse_struct(source: &str) -> syn::Result<SchemaAttrs> {
    let item: syn::ItemStruct = syn::parse_str(source).unwrap();
    let errors = Errors::new();
    let attrs = parse(&item.attrs, Place::Type, &errors);
    errors.finish_with(attrs)
}

fn messages(error: syn::Error) -> Vec<String> {
    error.into_iter().map(|e| e.to_string()).collect()
}

/// The attributes of `field` in `struct S { <attrs> field: <ty> }`, parsed and checked.
fn on_field(attrs: &[&str], ty: &str) -> syn::Result<SchemaAttrs> {
    let source = format!("struct S {{ {} field: {ty} }}", attrs.join(" "));
    let item: syn::ItemStruct = syn::parse_str(&source).unwrap();
    let field = item.fields.iter().next().unwrap();
    let errors = Errors::new();
    let parsed = parse(&field.attrs, Place::Field, &errors);
    check_fit(&field.ty, &parsed, &errors);
    errors.finish_with(parsed)
}

/// The example's marker attribute, rewritten as `#[validate(items(...))]`.
fn inside_items(spec: &MarkerSpec) -> String {
    let parsed =
        syn::parse::Parser::parse_str(syn::Attribute::parse_outer, spec.example.attribute).unwrap();
    let syn::Meta::List(list) = &parsed[0].meta else {
        panic!("{}: not a list attribute", spec.key)
    };
    let inner = &list.tokens;
    quote!(#[validate(items(#inner))]).to_string()
}

/// The example's attributes: the marker's, then the ones given beside it.
fn written(spec: &MarkerSpec) -> Vec<&'static str> {
    let mut attrs = vec![spec.example.attribute];
    attrs.extend(spec.example.given);
    attrs
}

fn example(spec: &MarkerSpec) -> syn::Result<SchemaAttrs> {
    let attrs = written(spec);
    match spec.example.place {
        Place::Field => on_field(&attrs, spec.example.ty),
        _ => parse_struct(&format!(
            "{} struct S {{ field: {} }}",
            attrs.join(" "),
            spec.example.ty
        )),
    }
}

/// Every marker of the catalogue: its example parses into that marker, fits its type, and
/// becomes the tokens of its runtime variant; a type it does not fit and a place the catalogue
/// does not allow are refused at the key. (`tests/manifests/marker_catalogue.rs` in webop compiles and
/// applies the same examples.)
#[test]
fn every_marker_parses_checks_and_emits() {
    for spec in CATALOGUE {
        let key = spec.key;
        let parsed = example(spec).unwrap_or_else(|e| panic!("{key}: {:?}", messages(e)));
        let marker = parsed
            .find(spec.kind)
            .unwrap_or_else(|| panic!("{key}: parsed {:?}", parsed.markers));
        let tokens = slice(std::slice::from_ref(marker)).to_string();
        assert!(
            tokens.starts_with(&format!("& [:: webop :: schema :: Marker :: {}", spec.name)),
            "{key}: {tokens}"
        );

        let misfit = match spec.fits {
            Fits::Any => None,
            Fits::Numbers => Some("String"),
            Fits::Text => Some("bool"),
            Fits::Arrays | Fits::Objects => Some("i32"),
        };
        if let (Some(ty), Place::Field) = (misfit, spec.example.place) {
            let error = on_field(&written(spec), ty).unwrap_err();
            assert!(
                messages(error)[0].starts_with(&format!("`{key}` does not apply to this field")),
                "{key} on {ty}"
            );
        }

        for place in [Place::Field, Place::Type, Place::Items] {
            let result = match place {
                Place::Field => on_field(&written(spec), "Option<serde_json::Value>"),
                Place::Type => parse_struct(&format!("{} struct S;", written(spec).join(" "))),
                Place::Items if spec.families.contains(&Family::Validate) => {
                    on_field(&[&inside_items(spec)], "Vec<serde_json::Value>")
                }
                Place::Items => continue,
            };
            match result {
                Ok(attrs) if spec.on.contains(&place) => {
                    let mut kinds = attrs.markers.iter().flat_map(|m| match &m.value {
                        Value::Items(inner) => {
                            inner.iter().map(|m| m.kind).chain([m.kind]).collect()
                        }
                        _ => vec![m.kind],
                    });
                    assert!(kinds.any(|k| k == spec.kind), "{key} at {place:?}");
                }
                Err(error) if !spec.on.contains(&place) => {
                    let message = &messages(error)[0];
                    assert!(
                        message.starts_with(&format!("`{key}` ")),
                        "{key}: {message}"
                    );
                    assert!(
                        message.contains("applies to") || message.contains("inside `items"),
                        "{key}: {message}"
                    );
                }
                other => panic!("{key} at {place:?}: {:?}", other.map_err(messages)),
            }
        }
    }
}

#[test]
fn one_of_constraints_may_repeat_but_other_keys_may_not() {
    let attrs = parse_struct(
        r#"#[validate(at_most_one_of = ["a", "b"])] #[validate(at_most_one_of = ["c", "d"])] struct S;"#,
    )
    .unwrap();
    assert_eq!(attrs.markers.len(), 2);
    let err =
        parse_struct("#[validate(min_properties = 1)] #[validate(min_properties = 2)] struct S;")
            .err()
            .unwrap();
    assert_eq!(err.to_string(), "`min_properties` is given twice");
}

#[test]
fn every_bad_argument_is_reported() {
    let error = on_field(
        &[
            r#"#[validate(maximun = 3, minimum = "one", max_length = 3)]"#,
            r#"#[schema(title = 1)]"#,
            r#"#[x_validation(message = "m")]"#,
        ],
        "i32",
    )
    .unwrap_err();
    assert_eq!(
        messages(error),
        [
            "unknown key `maximun` in #[validate]; did you mean `maximum`?",
            "`minimum` expects a number",
            "`title` expects a string literal",
            "#[x_validation] needs `rule = \"...\"`",
            "`max_length` does not apply to this field: its type is an integer",
        ]
    );
}

#[test]
fn records_become_their_struct() {
    let attrs = on_field(
        &[r#"#[x_validation(rule = "self > 0", optional_old_self = false)]"#],
        "i32",
    )
    .unwrap();
    let tokens = slice(&attrs.markers).to_token_stream().to_string();
    assert!(tokens.contains("rule : \"self > 0\""), "{tokens}");
    assert!(
        tokens.contains("message : :: core :: option :: Option :: None"),
        "{tokens}"
    );
    assert!(
        tokens.contains("optional_old_self : :: core :: option :: Option :: Some (false)"),
        "{tokens}"
    );
    let error = on_field(
        &[r#"#[schema(external_docs(description = "d", link = "x"))]"#],
        "i32",
    )
    .unwrap_err();
    assert_eq!(
        messages(error),
        [
            "unknown key `link` in #[schema(external_docs)]; expected one of: url, description",
            "`external_docs` needs `url = \"...\"`",
        ]
    );
}

//! The `#[serde(...)]` attributes that decide a schema: names (`rename`, `rename_all`), presence
//! (`default`, `skip`), shape (`flatten`, `transparent`, enum tagging). serde itself checks the
//! rest, so unknown keys are ignored here.

use syn::{Attribute, Expr, ExprLit, Lit, Meta};

use crate::args::{Arg, ArgValue, args_of};

/// What the container attributes say.
#[derive(Default, Debug, Clone)]
pub struct Container {
    /// `rename = ...`: the type has a name of its own in formats that write type names.
    pub renamed: bool,
    pub rename_all: Option<RenameRule>,
    pub default: bool,
    /// `default = "path"` rather than a bare `default` (the struct's `Default` impl).
    pub default_path: bool,
    pub transparent: bool,
    /// `tag`, `content` or `untagged`: a data enum representation.
    pub tagged: bool,
}

/// What a field's or variant's attributes say.
#[derive(Default, Debug, Clone)]
pub struct Field {
    pub rename: Option<String>,
    pub default: bool,
    pub skip: bool,
    pub flatten: bool,
    pub skip_serializing_if: bool,
    /// `with`, `serialize_with` or `deserialize_with`: serde's own encoding of the value.
    pub custom_codec: bool,
}

fn serde_args(attrs: &[Attribute]) -> syn::Result<Vec<Arg>> {
    let mut all = Vec::new();
    for attr in attrs {
        if attr.path().is_ident("serde") && matches!(attr.meta, Meta::List(_)) {
            all.extend(args_of(attr)?);
        }
    }
    Ok(all)
}

/// The serialized name: `rename = "x"` or `rename(serialize = "x")`.
fn rename(arg: &Arg) -> Option<String> {
    match &arg.value {
        ArgValue::Value(Expr::Lit(ExprLit {
            lit: Lit::Str(s), ..
        })) => Some(s.value()),
        ArgValue::Nested(_) => arg
            .nested()
            .ok()?
            .iter()
            .find(|a| a.name() == "serialize")
            .and_then(|a| a.string().ok())
            .map(|s| s.value()),
        _ => None,
    }
}

/// Parses the container attributes of a struct or enum.
pub fn container(attrs: &[Attribute]) -> syn::Result<Container> {
    let mut out = Container::default();
    for arg in serde_args(attrs)? {
        match arg.name().as_str() {
            "rename" => out.renamed = true,
            "rename_all" => {
                let Some(rule) = rename(&arg) else { continue };
                out.rename_all = Some(RenameRule::parse(&rule).ok_or_else(|| {
                    syn::Error::new(
                        arg.key.span(),
                        format!("unknown serde rename rule {rule:?}"),
                    )
                })?);
            }
            "default" => {
                out.default = true;
                out.default_path = !matches!(arg.value, ArgValue::Flag);
            }
            "transparent" => out.transparent = true,
            "tag" | "content" | "untagged" => out.tagged = true,
            _ => {}
        }
    }
    Ok(out)
}

/// Parses the attributes of a field or variant.
pub fn field(attrs: &[Attribute]) -> syn::Result<Field> {
    let mut out = Field::default();
    for arg in serde_args(attrs)? {
        match arg.name().as_str() {
            "rename" => out.rename = rename(&arg),
            "default" => out.default = true,
            "skip" | "skip_deserializing" => out.skip = true,
            "flatten" => out.flatten = true,
            "skip_serializing_if" => out.skip_serializing_if = true,
            "with" | "serialize_with" | "deserialize_with" => out.custom_codec = true,
            _ => {}
        }
    }
    Ok(out)
}

/// serde's `rename_all` rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

impl RenameRule {
    pub fn parse(name: &str) -> Option<Self> {
        Some(match name {
            "lowercase" => Self::Lower,
            "UPPERCASE" => Self::Upper,
            "PascalCase" => Self::Pascal,
            "camelCase" => Self::Camel,
            "snake_case" => Self::Snake,
            "SCREAMING_SNAKE_CASE" => Self::ScreamingSnake,
            "kebab-case" => Self::Kebab,
            "SCREAMING-KEBAB-CASE" => Self::ScreamingKebab,
            _ => return None,
        })
    }

    /// A snake_case field name under this rule (serde's `apply_to_field`).
    pub fn apply_to_field(self, field: &str) -> String {
        match self {
            Self::Lower | Self::Snake => field.to_owned(),
            Self::Upper | Self::ScreamingSnake => field.to_ascii_uppercase(),
            Self::Pascal => field
                .split('_')
                .map(|word| {
                    let mut chars = word.chars();
                    chars
                        .next()
                        .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                        .unwrap_or_default()
                })
                .collect(),
            Self::Camel => {
                let pascal = Self::Pascal.apply_to_field(field);
                let mut chars = pascal.chars();
                chars
                    .next()
                    .map(|c| c.to_ascii_lowercase().to_string() + chars.as_str())
                    .unwrap_or_default()
            }
            Self::Kebab => field.replace('_', "-"),
            Self::ScreamingKebab => field.to_ascii_uppercase().replace('_', "-"),
        }
    }

    /// A PascalCase variant name under this rule (serde's `apply_to_variant`).
    pub fn apply_to_variant(self, variant: &str) -> String {
        match self {
            Self::Pascal => variant.to_owned(),
            Self::Lower => variant.to_ascii_lowercase(),
            Self::Upper => variant.to_ascii_uppercase(),
            Self::Camel => {
                let mut chars = variant.chars();
                chars
                    .next()
                    .map(|c| c.to_ascii_lowercase().to_string() + chars.as_str())
                    .unwrap_or_default()
            }
            Self::Snake => {
                let mut snake = String::new();
                for (i, ch) in variant.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(ch.to_ascii_lowercase());
                }
                snake
            }
            Self::ScreamingSnake => Self::Snake.apply_to_variant(variant).to_ascii_uppercase(),
            Self::Kebab => Self::Snake.apply_to_variant(variant).replace('_', "-"),
            Self::ScreamingKebab => Self::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_rules_match_serde() {
        let f = "available_replicas";
        assert_eq!(RenameRule::Camel.apply_to_field(f), "availableReplicas");
        assert_eq!(RenameRule::Pascal.apply_to_field(f), "AvailableReplicas");
        assert_eq!(RenameRule::Kebab.apply_to_field(f), "available-replicas");
        assert_eq!(
            RenameRule::ScreamingSnake.apply_to_field(f),
            "AVAILABLE_REPLICAS"
        );
    }

    #[test]
    fn variant_rules_match_serde() {
        let v = "NotReady";
        assert_eq!(RenameRule::Camel.apply_to_variant(v), "notReady");
        assert_eq!(RenameRule::Snake.apply_to_variant(v), "not_ready");
        assert_eq!(RenameRule::ScreamingKebab.apply_to_variant(v), "NOT-READY");
        assert_eq!(RenameRule::Lower.apply_to_variant(v), "notready");
    }

    #[test]
    fn reads_the_attributes_that_shape_a_schema() {
        let item: syn::ItemStruct = syn::parse_str(
            r#"#[serde(rename_all = "camelCase", deny_unknown_fields)]
               struct S { #[serde(rename(serialize = "x", deserialize = "y"), default)] a: i32 }"#,
        )
        .unwrap();
        assert_eq!(
            container(&item.attrs).unwrap().rename_all,
            Some(RenameRule::Camel)
        );
        let f = field(&item.fields.iter().next().unwrap().attrs).unwrap();
        assert_eq!((f.rename.as_deref(), f.default), (Some("x"), true));
    }
}

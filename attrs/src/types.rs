//! What the syntax of a field's type tells before type checking: `Option<T>`, `Vec<u8>`, and
//! the JSON kind of std types, so attributes that cannot apply are refused at the attribute.

use syn::{GenericArgument, PathArguments, Type};

/// The JSON kind a std type maps to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Integer,
    Number,
    String,
    Boolean,
    Array,
    Map,
}

impl Kind {
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Integer => "an integer",
            Kind::Number => "a number",
            Kind::String => "a string",
            Kind::Boolean => "a boolean",
            Kind::Array => "an array",
            Kind::Map => "a map",
        }
    }
}

/// The last path segment's name and its generic type arguments.
fn segment(ty: &Type) -> Option<(String, Vec<&Type>)> {
    let Type::Path(path) = ty else { return None };
    if path.qself.is_some() {
        return None;
    }
    let last = path.path.segments.last()?;
    let args = match &last.arguments {
        PathArguments::AngleBracketed(args) => args
            .args
            .iter()
            .filter_map(|a| match a {
                GenericArgument::Type(t) => Some(t),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Some((last.ident.to_string(), args))
}

/// `T` of `Option<T>`.
pub fn option_inner(ty: &Type) -> Option<&Type> {
    match segment(ty) {
        Some((name, args)) if name == "Option" && args.len() == 1 => Some(args[0]),
        _ => None,
    }
}

/// `Vec<u8>` (Go's `[]byte`).
pub fn is_bytes(ty: &Type) -> bool {
    match segment(ty) {
        Some((name, args)) if name == "Vec" && args.len() == 1 => {
            matches!(segment(args[0]), Some((inner, a)) if inner == "u8" && a.is_empty())
        }
        _ => false,
    }
}

/// The JSON kind of a std type, looking through `Option` and `Box`.
pub fn kind(ty: &Type) -> Option<Kind> {
    if let Type::Reference(r) = ty {
        return kind(&r.elem);
    }
    let (name, args) = segment(ty)?;
    Some(match name.as_str() {
        "Option" | "Box" if args.len() == 1 => return kind(args[0]),
        "i8" | "i16" | "i32" | "i64" | "isize" | "u8" | "u16" | "u32" | "u64" | "usize" => {
            Kind::Integer
        }
        "f32" | "f64" => Kind::Number,
        "String" | "str" | "char" => Kind::String,
        "bool" => Kind::Boolean,
        "Vec" if is_bytes(ty) => Kind::String,
        "Vec" | "VecDeque" | "BTreeSet" | "HashSet" => Kind::Array,
        "BTreeMap" | "HashMap" => Kind::Map,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Type {
        syn::parse_str(s).unwrap()
    }

    #[test]
    fn kinds_of_std_types() {
        assert_eq!(kind(&ty("Option<i32>")), Some(Kind::Integer));
        assert_eq!(kind(&ty("std::string::String")), Some(Kind::String));
        assert_eq!(kind(&ty("Vec<u8>")), Some(Kind::String));
        assert_eq!(kind(&ty("Vec<String>")), Some(Kind::Array));
        assert_eq!(kind(&ty("BTreeMap<String, i64>")), Some(Kind::Map));
        assert_eq!(kind(&ty("MyType")), None);
    }

    #[test]
    fn options_and_bytes() {
        assert!(option_inner(&ty("Option<Vec<u8>>")).is_some_and(is_bytes));
        assert!(option_inner(&ty("Vec<u8>")).is_none());
    }
}

//! `Schema` for std types, mapped as controller-gen maps the Go types they stand for: numbers,
//! strings and booleans, lists and maps are inline; `Option` is a pointer (transparent).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::{
    Definitions, JSONSchemaProps, JSONSchemaPropsOrArray, JSONSchemaPropsOrBool, Schema, typed,
};

macro_rules! scalar {
    ($ty:literal, $format:expr => $($rust:ty),+) => {
        $(impl Schema for $rust {
            fn use_site(_: &mut Definitions) -> JSONSchemaProps {
                typed($ty, $format)
            }
        })+
    };
}

// Go: int32/uint32 → int32, int64/uint64 → int64, other integers carry no format.
scalar!("integer", Some("int32") => i32, u32);
scalar!("integer", Some("int64") => i64, u64);
scalar!("integer", None => i8, i16, u8, u16, isize, usize);
scalar!("number", None => f32, f64);
scalar!("string", None => String, str, char);
scalar!("boolean", None => bool);

impl<T: Schema + ?Sized> Schema for &T {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        T::use_site(defs)
    }
    const OPTIONAL: bool = T::OPTIONAL;
}

impl<T: Schema + ?Sized> Schema for Box<T> {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        T::use_site(defs)
    }
    const OPTIONAL: bool = T::OPTIONAL;
}

/// A Go pointer: the schema of the pointee, optional, and (unlike kube-derive) not nullable.
impl<T: Schema> Schema for Option<T> {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        T::use_site(defs)
    }
    const OPTIONAL: bool = true;
}

pub(super) fn array(items: JSONSchemaProps) -> JSONSchemaProps {
    JSONSchemaProps {
        items: Some(JSONSchemaPropsOrArray::Schema(Box::new(items))),
        ..typed("array", None)
    }
}

fn map(values: JSONSchemaProps) -> JSONSchemaProps {
    JSONSchemaProps {
        additional_properties: Some(JSONSchemaPropsOrBool::Schema(Box::new(values))),
        ..typed("object", None)
    }
}

/// Go's `[]byte` is base64 in JSON: a string of format byte. A `Vec<u8>` field gets this schema,
/// and webop's `Serialize`/`Deserialize` derives write and read it as base64.
pub struct Bytes;

impl Schema for Bytes {
    fn use_site(_: &mut Definitions) -> JSONSchemaProps {
        typed("string", Some("byte"))
    }
}

/// k8s-openapi's base64 bytes.
impl Schema for k8s_openapi::ByteString {
    fn use_site(_: &mut Definitions) -> JSONSchemaProps {
        typed("string", Some("byte"))
    }
}

impl<T: Schema> Schema for Vec<T> {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        array(T::use_site(defs))
    }
}

impl<T: Schema> Schema for [T] {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        array(T::use_site(defs))
    }
}

impl<T: Schema, const N: usize> Schema for [T; N] {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        array(T::use_site(defs))
    }
}

impl<T: Schema> Schema for BTreeSet<T> {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        array(T::use_site(defs))
    }
}

impl<T: Schema, S> Schema for HashSet<T, S> {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        array(T::use_site(defs))
    }
}

impl<K, V: Schema> Schema for BTreeMap<K, V> {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        map(V::use_site(defs))
    }
}

impl<K, V: Schema, S> Schema for HashMap<K, V, S> {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        map(V::use_site(defs))
    }
}

/// Arbitrary JSON, like apiextensions' `JSON` type: kept as it is by the API server.
impl Schema for serde_json::Value {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        defs.named::<Self>(JSONSchemaProps::default(), |_| JSONSchemaProps {
            x_kubernetes_preserve_unknown_fields: Some(true),
            ..JSONSchemaProps::default()
        })
    }
}

/// A JSON object of arbitrary content, like Go's `runtime.RawExtension`.
impl Schema for serde_json::Map<String, serde_json::Value> {
    fn use_site(defs: &mut Definitions) -> JSONSchemaProps {
        defs.named::<Self>(JSONSchemaProps::default(), |_| JSONSchemaProps {
            x_kubernetes_preserve_unknown_fields: Some(true),
            ..typed("object", None)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_carry_go_formats() {
        assert_eq!(i32::schema(), typed("integer", Some("int32")));
        assert_eq!(u64::schema(), typed("integer", Some("int64")));
        assert_eq!(u8::schema(), typed("integer", None));
    }

    #[test]
    fn option_is_the_inner_schema_and_optional_but_not_nullable() {
        assert_eq!(Option::<String>::schema(), typed("string", None));
        const { assert!(Option::<String>::OPTIONAL && !String::OPTIONAL) };
    }

    #[test]
    fn containers() {
        let list = Vec::<bool>::schema();
        assert_eq!(list.type_.as_deref(), Some("array"));
        assert_eq!(
            list.items,
            Some(JSONSchemaPropsOrArray::Schema(Box::new(typed(
                "boolean", None
            ))))
        );
        let labels = BTreeMap::<String, String>::schema();
        assert_eq!(
            labels.additional_properties,
            Some(JSONSchemaPropsOrBool::Schema(Box::new(typed(
                "string", None
            ))))
        );
        assert_eq!(
            serde_json::Value::schema().x_kubernetes_preserve_unknown_fields,
            Some(true)
        );
    }
}

//! What macro-generated code names: re-exports, so API crates need no direct dependency on
//! them, and the helpers webop's serde derives plug in.

pub use k8s_openapi;
pub use kube_core;
pub use serde;
pub use serde_json;

/// What the root type of a custom resource deserializes from (`apiVersion` and `kind` are
/// ignored), for `#[derive(CustomResource)]`: one generic type here instead of a serde derive
/// per kind, so serde's visitor is type-checked once, in webop, rather than in every API crate.
/// A kind without a status uses `serde::de::IgnoredAny` as `Status`.
#[derive(serde::Deserialize)]
#[serde(expecting = "a custom resource object")]
pub struct CustomResourceFields<Spec, Status> {
    #[serde(default)]
    pub metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    // Absent specs are reported by the caller (a kind without a spec has none to read); not
    // `#[serde(default)]`, which would make serde require `Default`.
    #[serde(default = "none")]
    pub spec: Option<Spec>,
    // Not `#[serde(default)]`, which would make serde require `Status: Default`.
    #[serde(default = "none")]
    pub status: Option<Status>,
}

fn none<T>() -> Option<T> {
    None
}

/// What the root type of a kind with `#[resource(flatten_spec)]` deserializes from: the spec's
/// fields are the root's own, beside `metadata` and `status`.
#[derive(serde::Deserialize)]
#[serde(expecting = "a custom resource object")]
pub struct FlattenedSpecFields<Spec, Status> {
    #[serde(default)]
    pub metadata: k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    #[serde(flatten)]
    pub spec: Spec,
    #[serde(default = "none")]
    pub status: Option<Status>,
}

/// What the root type of a kind with `#[resource(flatten_spec)]` serializes as: `apiVersion`,
/// `kind`, `metadata`, the spec's fields, then `status`. A kind without a status uses `()`.
#[derive(serde::Serialize)]
pub struct FlattenedSpecObject<'a, Spec, Status> {
    #[serde(rename = "apiVersion")]
    pub api_version: &'a str,
    pub kind: &'a str,
    pub metadata: &'a k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta,
    #[serde(flatten)]
    pub spec: &'a Spec,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<&'a Status>,
}

/// The value of a field's `#[schema(default = ...)]`, for the `default` serde uses when the
/// field is absent (webop's `Deserialize` derive).
pub fn default_value<T: serde::de::DeserializeOwned>(json: &str, field: &str) -> T {
    serde_json::from_str(json).unwrap_or_else(|err| {
        panic!("webop: the default {json} of {field} does not fit the field's type: {err}")
    })
}

/// The value of `#[schema(default = "...")]` on a `Vec<u8>` or `Option<Vec<u8>>` field: base64
/// text, as for the field's values.
pub fn default_bytes<T: From<Vec<u8>>>(json: &str, field: &str) -> T {
    let mut text = serde_json::Deserializer::from_str(json);
    bytes::deserialize(&mut text)
        .map(T::from)
        .unwrap_or_else(|err| {
            panic!("webop: the default {json} of {field} is not base64 text: {err}")
        })
}

/// `Vec<u8>` as Go's encoding/json writes `[]byte`: standard base64 with padding, which is what
/// the schema (`type: string, format: byte`) says.
pub mod bytes {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(bytes: &[u8], serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&STANDARD.encode(bytes))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Vec<u8>, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        STANDARD
            .decode(text.as_bytes())
            .map_err(serde::de::Error::custom)
    }
}

/// `Option<Vec<u8>>` as base64 (see [`bytes`]).
pub mod option_bytes {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        bytes: &Option<Vec<u8>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match bytes {
            Some(bytes) => super::bytes::serialize(bytes, serializer),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Vec<u8>>, D::Error> {
        #[derive(Deserialize)]
        struct Base64(#[serde(with = "super::bytes")] Vec<u8>);
        Ok(Option::<Base64>::deserialize(deserializer)?.map(|b| b.0))
    }
}

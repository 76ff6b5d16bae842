//! The named types `CronJobSpec` and `CronJobStatus` use, in the order of
//! `cronjob_types.go`.

use std::collections::BTreeMap;

use k8s_openapi::ByteString;
use webop::prelude::*;

// Go: `type InlineAlias = EmbeddedStruct`, embedded in the spec.
pub type InlineAlias = EmbeddedStruct;

/// EmbeddedStruct is for testing that embedded struct is handled correctly when it is used through an alias type.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddedStruct {
    /// FromEmbedded is a field from the embedded struct that was used through an alias type.
    pub from_embedded: Option<String>,
}

// Go: `type StringAlias = string`.
pub type StringAlias = String;

// Go: `type StringAliasWithTitle = string` with `+kubebuilder:title="title on type"`. A Rust
// type alias cannot carry attributes, so the marked alias is a newtype.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[schema(title = "title on type")]
#[serde(transparent)]
pub struct StringAliasWithTitle(pub String);

// Go: `type StringAliasWithValidation = string` with `MinLength=1`, `MaxLength=255`.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(min_length = 1, max_length = 255)]
#[serde(transparent)]
pub struct StringAliasWithValidation(pub String);

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ContainsNestedMap {
    pub inner_map: Option<BTreeMap<String, String>>,
}

// Go: a struct with a custom `MarshalJSON`/`UnmarshalJSON` that keeps every field, marked
// `+kubebuilder:validation:Type=object` and `+kubebuilder:pruning:PreserveUnknownFields`
// (controller-gen then takes the schema from the markers alone). In Rust the data is the open
// JSON object itself.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(type = "object")]
#[schema(preserve_unknown_fields)]
#[serde(transparent)]
pub struct Preserved(pub serde_json::Map<String, serde_json::Value>);

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct NestedObject {
    pub foo: String,
    pub bar: bool,
}

// Go: `type NestedStructWithSeveralFields NestedObject` with `+structType=atomic`.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[schema(struct_type = "atomic")]
#[serde(transparent)]
pub struct NestedStructWithSeveralFields(pub NestedObject);

// Go: `type JustNestedObject NestedObject`.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct JustNestedObject(pub NestedObject);

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(min_properties = 1, max_properties = 2)]
pub struct MinMaxObject {
    pub foo: Option<String>,
    pub bar: Option<String>,
    pub baz: Option<String>,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct EmpiableObject {
    #[schema(default = "forty-two")]
    pub foo: Option<String>,
    pub bar: Option<String>,
}

// Go: an unexported struct embedded in the spec (its exported fields are the spec's).
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(super) struct UnexportedStruct {
    /// This tests that exported fields are not skipped in the schema generation
    pub foo: String,

    /// This tests that unexported fields are skipped in the schema generation
    #[serde(skip)]
    bar: String,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ExportedStruct {
    /// This tests that exported fields are not skipped in the schema generation
    pub baz: String,

    /// This tests that unexported fields are skipped in the schema generation
    #[serde(skip)]
    qux: String,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct RootObject {
    pub nested: NestedObject,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AssociativeType {
    pub name: String,
    pub secondary: isize,
    pub foo: String,
}

#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[schema(list_type = "map", list_map_key = ["name", "secondary"])]
#[serde(transparent)]
pub struct NestedAssociativeList(pub Vec<AssociativeType>);

// Go: `type NestedMapOfInfo map[string][]byte` with `+mapType=granular`; Go's `[]byte` as a
// map value is k8s-openapi's `ByteString` (base64, like Go).
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[schema(map_type = "granular")]
#[serde(transparent)]
pub struct NestedMapOfInfo(pub BTreeMap<String, ByteString>);

/// This tests that markers that are allowed on both fields and types are applied to types
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(min_length = 4)]
#[serde(transparent)]
pub struct LongerString(pub String);

// TotallyABool is a bool that serializes as a string.
//
// Go: `type TotallyABool bool` with `+kubebuilder:validation:Type=string` and a custom
// `MarshalJSON` writing `"true"` or `"false"`.
#[derive(Schema, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(type = "string")]
#[serde(into = "String", try_from = "String")]
pub struct TotallyABool(pub bool);

impl From<TotallyABool> for String {
    fn from(value: TotallyABool) -> String {
        value.0.to_string()
    }
}

impl TryFrom<String> for TotallyABool {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        match text.as_str() {
            "true" => Ok(TotallyABool(true)),
            "false" => Ok(TotallyABool(false)),
            other => Err(format!("bad TotallyABool value {other:?}")),
        }
    }
}

/// This tests string slice item validation.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(
    min_items = 1,
    items(
        min_length = 1,
        max_length = 255,
        pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
    )
)]
#[schema(list_type = "set")]
#[serde(transparent)]
pub struct Hosts(pub Vec<String>);

/// This tests that unmarkered types are handled correctly.
/// When markers are applied at the field level instead of the type level.
#[derive(Schema, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnmarkeredInteger(pub i32);

/// This tests that unmarkered types are handled correctly.
/// When markers are applied at the field level instead of the type level.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct UnmarkeredString(pub String);

// Go: `type URL struct{ url.URL }` with `+kubebuilder:validation:Type=string` and a custom
// `MarshalJSON` writing the URL as a string (controller-gen takes the schema from the marker
// alone, without the type's comment): a string newtype.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(type = "string")]
#[serde(transparent)]
pub struct Url(pub String);

// Go: `type URL2 url.URL`, like [`Url`].
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(type = "string")]
#[serde(transparent)]
pub struct Url2(pub String);

// Go: `type URL3 struct{ url.URL }` implementing `encoding.TextMarshaler`: a string.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Url3(pub String);

// Go: `type URL4 url.URL` implementing `encoding.TextMarshaler`: a string.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Url4(pub String);

// Go: `type Time2 time.Time` with `+kubebuilder:validation:Type=integer`,
// `+kubebuilder:validation:Format=int64` and a `MarshalJSON` writing Unix milliseconds.
#[derive(Schema, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[validate(type = "integer", format = "int64")]
#[serde(transparent)]
pub struct Time2(pub i64);

/// Duration has a custom Marshaler but no markers.
/// We want the CRD generation to infer type information
/// from the go types and ignore the presense of the Marshaler.
#[derive(Schema, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Duration {
    pub value: GoDuration,
}

/// A Duration represents the elapsed time between two instants
/// as an int64 nanosecond count. The representation limits the
/// largest representable duration to approximately 290 years.
// (Go's `time.Duration`.)
#[derive(Schema, Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct GoDuration(pub i64);

/// ConcurrencyPolicy describes how the job will be handled.
/// Only one of the following concurrent policies may be specified.
/// If none of the following policies is specified, the default one
/// is AllowConcurrent.
#[derive(Schema, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ConcurrencyPolicy {
    /// AllowConcurrent allows CronJobs to run concurrently.
    Allow,
    /// ForbidConcurrent forbids concurrent runs, skipping next run if previous
    /// hasn't finished yet.
    Forbid,
    /// ReplaceConcurrent cancels currently running job and replaces it with a new one.
    Replace,
}

// Go's `+k8s:enum` type: its constants' values, sorted.
#[derive(Schema, Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum K8sConcurrencyPolicy {
    Allow,
    Forbid,
    Replace,
}

/// StringEvenType is a type that includes an expression-based validation.
#[derive(Schema, Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[x_validation(rule = "self.size() % 2 == 0", message = "must have even length")]
#[serde(transparent)]
pub struct StringEvenType(pub String);

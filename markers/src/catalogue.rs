//! The rows of the catalogue: one per schema marker.
//!
//! A row is the runtime variant (and its payload type, if any) followed by:
//! - `example`: the marker's attribute on a `field` of a type, or on the struct (`type`) whose
//!   one field has that type; attributes after the first are given beside it on the field.
//!   `tests/manifests/marker_catalogue.rs` derives a schema from it;
//! - `go`: controller-gen's spelling;
//! - `key`: webop's key and the attributes it is written in;
//! - `payload`: a [`Payload`](crate::Payload), matching the variant's payload type;
//! - `on`: the [`Place`](crate::Place)s it may be written;
//! - `fits`: the field types it applies to ([`Fits`](crate::Fits));
//! - `priority`: controller-gen's `ApplyPriority` (10 unless controller-gen says otherwise);
//! - `repeatable: true` for markers one item may carry more than once.
//!
//! Rows are in the order of docs/attributes.md.

/// Calls the macro `$then` with every row of the catalogue (see the module docs for the row
/// syntax). `webop-markers` builds [`Marker`](crate::Marker), [`MarkerKind`](crate::MarkerKind)
/// and [`CATALOGUE`](crate::CATALOGUE) from it; webop's tests build a struct per example.
#[macro_export]
macro_rules! catalogue {
    ($then:ident) => {
        $then! {
            /// `minimum = ..`: the least value a number may have.
            Minimum(f64) {
                example: field(#[validate(minimum = 1)] i32),
                go: "+kubebuilder:validation:Minimum", key: "minimum" in [Validate],
                payload: Number, on: [Field, Type, Items], fits: Numbers, priority: 10,
            }
            /// `maximum = ..`: the greatest value a number may have.
            Maximum(f64) {
                example: field(#[validate(maximum = 10)] i32),
                go: "+kubebuilder:validation:Maximum", key: "maximum" in [Validate],
                payload: Number, on: [Field, Type, Items], fits: Numbers, priority: 10,
            }
            /// `exclusive_minimum`: the minimum itself is not allowed.
            ExclusiveMinimum(bool) {
                example: field(#[validate(exclusive_minimum)] f64),
                go: "+kubebuilder:validation:ExclusiveMinimum",
                key: "exclusive_minimum" in [Validate],
                payload: Flag, on: [Field, Type, Items], fits: Numbers, priority: 10,
            }
            /// `exclusive_maximum`: the maximum itself is not allowed.
            ExclusiveMaximum(bool) {
                example: field(#[validate(exclusive_maximum)] f64),
                go: "+kubebuilder:validation:ExclusiveMaximum",
                key: "exclusive_maximum" in [Validate],
                payload: Flag, on: [Field, Type, Items], fits: Numbers, priority: 10,
            }
            /// `multiple_of = ..`.
            MultipleOf(f64) {
                example: field(#[validate(multiple_of = 2)] i32),
                go: "+kubebuilder:validation:MultipleOf", key: "multiple_of" in [Validate],
                payload: Number, on: [Field, Type, Items], fits: Numbers, priority: 10,
            }
            /// `min_length = ..`.
            MinLength(i64) {
                example: field(#[validate(min_length = 1)] String),
                go: "+kubebuilder:validation:MinLength", key: "min_length" in [Validate],
                payload: Count, on: [Field, Type, Items], fits: Text, priority: 10,
            }
            /// `max_length = ..`.
            MaxLength(i64) {
                example: field(#[validate(max_length = 63)] String),
                go: "+kubebuilder:validation:MaxLength", key: "max_length" in [Validate],
                payload: Count, on: [Field, Type, Items], fits: Text, priority: 10,
            }
            /// `pattern = "..."`: a regular expression the value must match.
            Pattern(&'static str) {
                example: field(#[validate(pattern = "^[a-z]+$")] String),
                go: "+kubebuilder:validation:Pattern", key: "pattern" in [Validate],
                payload: Text(Pattern), on: [Field, Type, Items], fits: Text, priority: 10,
            }
            /// `format = "..."`.
            Format(&'static str) {
                example: field(#[validate(format = "email")] String),
                go: "+kubebuilder:validation:Format", key: "format" in [Validate],
                payload: Text(NonEmpty), on: [Field, Type, Items], fits: Any, priority: 10,
            }
            /// `type = "..."`: overrides the type (and turns off the compile-time fit checks).
            Type(&'static str) {
                example: field(#[validate(type = "string")] i32),
                go: "+kubebuilder:validation:Type", key: "type" in [Validate],
                payload: Text(OneOf(&[
                    "string", "integer", "number", "boolean", "object", "array",
                ])),
                on: [Field, Type, Items], fits: Any, priority: 9,
            }
            /// `min_items = ..`.
            MinItems(i64) {
                example: field(#[validate(min_items = 1)] Vec<String>),
                go: "+kubebuilder:validation:MinItems", key: "min_items" in [Validate],
                payload: Count, on: [Field, Type, Items], fits: Arrays, priority: 10,
            }
            /// `max_items = ..`.
            MaxItems(i64) {
                example: field(#[validate(max_items = 3)] Vec<String>),
                go: "+kubebuilder:validation:MaxItems", key: "max_items" in [Validate],
                payload: Count, on: [Field, Type, Items], fits: Arrays, priority: 10,
            }
            /// `unique_items`.
            UniqueItems(bool) {
                example: field(#[validate(unique_items)] Vec<String>),
                go: "+kubebuilder:validation:UniqueItems", key: "unique_items" in [Validate],
                payload: Flag, on: [Field, Type, Items], fits: Arrays, priority: 10,
            }
            /// `min_properties = ..`.
            MinProperties(i64) {
                example: field(
                    #[validate(min_properties = 1)] std::collections::BTreeMap<String, String>
                ),
                go: "+kubebuilder:validation:MinProperties", key: "min_properties" in [Validate],
                payload: Count, on: [Field, Type, Items], fits: Objects, priority: 10,
            }
            /// `max_properties = ..`.
            MaxProperties(i64) {
                example: field(
                    #[validate(max_properties = 3)] std::collections::BTreeMap<String, String>
                ),
                go: "+kubebuilder:validation:MaxProperties", key: "max_properties" in [Validate],
                payload: Count, on: [Field, Type, Items], fits: Objects, priority: 10,
            }
            /// `enum = [...]`: the JSON texts of the allowed values, in order.
            Enum(&'static [&'static str]) {
                example: field(#[validate(enum = ["A", "B"])] String),
                go: "+kubebuilder:validation:Enum", key: "enum" in [Validate],
                payload: Values, on: [Field, Type, Items], fits: Any, priority: 10,
            }
            /// `embedded_resource`: an object with `apiVersion`, `kind` and `metadata`.
            EmbeddedResource {
                example: field(
                    #[validate(embedded_resource)] std::collections::BTreeMap<String, String>
                ),
                go: "+kubebuilder:validation:EmbeddedResource",
                key: "embedded_resource" in [Validate],
                payload: Bare, on: [Field, Items], fits: Any, priority: 10,
            }
            /// `int_or_string`: an integer or a string (`x-kubernetes-int-or-string`).
            IntOrString {
                example: field(#[validate(int_or_string)] String),
                go: "+kubebuilder:validation:XIntOrString", key: "int_or_string" in [Validate],
                payload: Bare, on: [Field, Type, Items], fits: Any, priority: 9,
            }
            /// `preserve_unknown_fields`: the API server keeps fields the schema does not name.
            PreserveUnknownFields {
                example: field(
                    #[schema(preserve_unknown_fields)] std::collections::BTreeMap<String, String>
                ),
                go: "+kubebuilder:pruning:PreserveUnknownFields",
                key: "preserve_unknown_fields" in [Validate, Schema],
                payload: Bare, on: [Field, Type, Items], fits: Any, priority: 10,
            }
            /// `at_most_one_of = [...]`: field names of which at most one may be set (a CEL
            /// rule on the struct).
            AtMostOneOf(&'static [&'static str]) {
                example: type(#[validate(at_most_one_of = ["field"])] Option<i32>),
                go: "+kubebuilder:validation:AtMostOneOf", key: "at_most_one_of" in [Validate],
                payload: Texts, on: [Type, Items], fits: Any, priority: 11, repeatable: true,
            }
            /// `exactly_one_of = [...]`.
            ExactlyOneOf(&'static [&'static str]) {
                example: type(#[validate(exactly_one_of = ["field"])] Option<i32>),
                go: "+kubebuilder:validation:ExactlyOneOf", key: "exactly_one_of" in [Validate],
                payload: Texts, on: [Type, Items], fits: Any, priority: 12, repeatable: true,
            }
            /// `at_least_one_of = [...]`.
            AtLeastOneOf(&'static [&'static str]) {
                example: type(#[validate(at_least_one_of = ["field"])] Option<i32>),
                go: "+kubebuilder:validation:AtLeastOneOf", key: "at_least_one_of" in [Validate],
                payload: Texts, on: [Type, Items], fits: Any, priority: 13, repeatable: true,
            }
            /// `#[x_validation(rule, message, ...)]`: a CEL validation rule.
            XValidation(XValidation) {
                example: field(#[x_validation(rule = "self > 0")] i32),
                go: "+kubebuilder:validation:XValidation", key: "x_validation" in [XValidation],
                payload: Record(&[
                    RecordField::required("rule", Text(NonEmpty)),
                    RecordField::optional("message", Text(Any)),
                    RecordField::optional("message_expression", Text(Any)),
                    RecordField::optional("reason", Text(OneOf(&REASONS))),
                    RecordField::optional("field_path", Text(Any)),
                    RecordField::optional("optional_old_self", Flag),
                ]),
                on: [Field, Type],
                fits: Any,
                priority: 10,
                repeatable: true,
            }
            /// `items(...)`: markers applied to the items of an array.
            Items(&'static [Marker]) {
                example: field(#[validate(items(max_length = 10))] Vec<String>),
                go: "+kubebuilder:validation:items:<Marker>", key: "items" in [Validate],
                payload: Items, on: [Field, Type], fits: Arrays, priority: 10,
            }
            /// `default = ..`: the JSON text of the default value.
            Default(&'static str) {
                example: field(#[schema(default = 1)] i32),
                go: "+kubebuilder:default", key: "default" in [Schema],
                payload: Value, on: [Field, Type], fits: Any, priority: 10,
            }
            /// `k8s_default = ..`: the JSON text of Kubernetes' own default (`+default`, the
            /// defaulter-gen marker), which `default` overrides; unlike `default`, it leaves the
            /// field required and does not default it in webop's `Deserialize`.
            K8sDefault(&'static str) {
                example: field(#[schema(k8s_default = 1)] i32),
                go: "+default", key: "k8s_default" in [Schema],
                payload: Value, on: [Field], fits: Any, priority: 9,
            }
            /// `example = ..`: the JSON text of an example value.
            Example(&'static str) {
                example: field(#[schema(example = 1)] i32),
                go: "+kubebuilder:example", key: "example" in [Schema],
                payload: Json, on: [Field, Type], fits: Any, priority: 10,
            }
            /// `title = "..."`.
            Title(&'static str) {
                example: field(#[schema(title = "Replicas")] i32),
                go: "+kubebuilder:title", key: "title" in [Schema],
                payload: Text(Any), on: [Field, Type], fits: Any, priority: 10,
            }
            /// `nullable`: `null` is a value.
            Nullable {
                example: field(#[schema(nullable)] Option<i32>),
                go: "+nullable", key: "nullable" in [Schema],
                payload: Bare, on: [Field, Type], fits: Any, priority: 10,
            }
            /// `list_type = "atomic" | "set" | "map"`.
            ListType(&'static str) {
                example: field(#[schema(list_type = "set")] Vec<String>),
                go: "+listType", key: "list_type" in [Schema],
                payload: Text(OneOf(&["atomic", "set", "map"])),
                on: [Field, Type], fits: Arrays, priority: 9,
            }
            /// `list_map_key = [...]`: the keys of an associative list.
            ListMapKeys(&'static [&'static str]) {
                example: field(
                    #[schema(list_map_key = ["name"])]
                    #[schema(list_type = "map")]
                    Vec<std::collections::BTreeMap<String, String>>
                ),
                go: "+listMapKey", key: "list_map_key" in [Schema],
                payload: Texts, on: [Field, Type], fits: Arrays, priority: 10,
            }
            /// `map_type = "atomic" | "granular"`.
            MapType(&'static str) {
                example: field(
                    #[schema(map_type = "atomic")] std::collections::BTreeMap<String, String>
                ),
                go: "+mapType", key: "map_type" in [Schema],
                payload: Text(OneOf(&["atomic", "granular"])),
                on: [Field, Type], fits: Objects, priority: 10,
            }
            /// `struct_type = "atomic" | "granular"`.
            StructType(&'static str) {
                example: field(
                    #[schema(struct_type = "atomic")] std::collections::BTreeMap<String, String>
                ),
                go: "+structType", key: "struct_type" in [Schema],
                payload: Text(OneOf(&["atomic", "granular"])),
                on: [Field, Type], fits: Any, priority: 10,
            }
            /// `external_docs(url, description)`.
            ExternalDocs(ExternalDocs) {
                example: field(#[schema(external_docs(url = "https://example.com/docs"))] i32),
                go: "+kubebuilder:externalDocs", key: "external_docs" in [Schema],
                payload: Record(&[
                    RecordField::required("url", Text(Url)),
                    RecordField::optional("description", Text(Any)),
                ]),
                on: [Field, Type],
                fits: Any,
                priority: 10,
            }
            /// `immutable`: the value cannot change once set (a CEL rule).
            Immutable {
                example: field(#[schema(immutable)] i32),
                go: "+k8s:immutable", key: "immutable" in [Schema],
                payload: Bare, on: [Field, Type], fits: Any, priority: 10,
            }
        }
    };
}

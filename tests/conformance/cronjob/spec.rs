//! `CronJobSpec` of `pkg/crd/testdata/cronjob_types.go` (version v1), field by field in Go's
//! order; each field's Go declaration is in the case's module doc where the Rust spelling is
//! not obvious.

use std::collections::BTreeMap;

use k8s_openapi::ByteString;
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use webop::prelude::*;

use super::status::CronJobStatus;
use super::types::*;

/// CronJobSpec defines the desired state of CronJob
#[derive(CustomResource, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[resource(group = "testdata.kubebuilder.io", version = "v1", kind = "CronJob")]
#[resource(
    doc = "CronJob is the Schema for the cronjobs API",
    singular = "mycronjob"
)]
#[subresource(status)]
#[storage_version]
#[metadata(annotations = [
    "api-approved.kubernetes.io=https://github.com/kubernetes-sigs/controller-tools",
    "cert-manager.io/inject-ca-from-secret=cert-manager/cert-manager-webhook-ca",
])]
#[selectable_field(json_path = ".spec.selectableFieldString")]
#[x_validation(
    rule = "has(oldSelf.forbiddenInt) || !has(self.forbiddenInt)",
    message = "forbiddenInt is not allowed",
    field_path = ".forbiddenInt",
    reason = "FieldValueForbidden"
)]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    /// The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.
    pub schedule: String,
    /// Optional deadline in seconds for starting the job if it misses scheduled
    /// time for any reason.  Missed jobs executions will be counted as failed ones.
    pub starting_deadline_seconds: Option<i64>,
    /// Specifies how to treat concurrent executions of a Job.
    /// Valid values are:
    /// - "Allow" (default): allows CronJobs to run concurrently;
    /// - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
    /// - "Replace": cancels currently running job and replaces it with a new one
    pub concurrency_policy: Option<ConcurrencyPolicy>,
    /// Specifies how to treat concurrent executions of a Job.
    /// Valid values are:
    /// - "Allow" (default): allows CronJobs to run concurrently;
    /// - "Forbid": forbids concurrent runs, skipping next run if previous run hasn't finished yet;
    /// - "Replace": cancels currently running job and replaces it with a new one
    pub k8s_concurrency_policy: Option<K8sConcurrencyPolicy>,
    /// This flag tells the controller to suspend subsequent executions, it does
    /// not apply to already started executions.  Defaults to false.
    pub suspend: Option<bool>,
    /// This tests that non-serialized fields aren't included in the schema.
    #[serde(skip)]
    pub internal_data: String,
    /// This flag is like suspend, but for when you really mean it.
    /// It helps test the +kubebuilder:validation:Type marker.
    pub no_really_suspend: Option<TotallyABool>,
    /// This tests byte slice schema generation.
    pub binary_name: Vec<u8>,
    /// This tests that nullable works correctly
    #[schema(nullable)]
    pub can_be_null: String,
    /// The number of successful finished jobs to retain.
    /// This is a pointer to distinguish between explicit zero and not specified.
    pub successful_jobs_history_limit: Option<i32>,
    /// The number of failed finished jobs to retain.
    /// This is a pointer to distinguish between explicit zero and not specified.
    pub failed_jobs_history_limit: Option<i32>,
    /// This tests byte slices are allowed as map values.
    pub byte_slice_data: Option<BTreeMap<String, ByteString>>,
    /// This tests string slices are allowed as map values.
    pub string_slice_data: Option<BTreeMap<String, Vec<String>>>,
    /// This tests pointers are allowed as map values.
    pub ptr_data: Option<BTreeMap<String, Option<String>>>,
    /// This tests that markers that are allowed on both fields and types are applied to fields
    #[validate(min_length = 4)]
    pub two_of_a_kind_part0: String,
    /// This tests that markers that are allowed on both fields and types are applied to types
    pub two_of_a_kind_part1: LongerString,
    /// This tests that primitive defaulting can be performed.
    #[schema(
        default = "forty-two",
        example = "forty-two",
        title = "DefaultedString"
    )]
    #[validate(required)]
    pub defaulted_string: String,
    /// This tests that slice defaulting can be performed.
    #[schema(default = ["a", "b"], example = ["a", "b"], title = "DefaultedSlice")]
    #[validate(required)]
    pub defaulted_slice: Vec<String>,
    /// This tests that slice and object defaulting can be performed.
    #[schema(
        default = json(r#"[{"nested": {"foo": "baz", "bar": true}}, {"nested": {"foo": "qux", "bar": false}}]"#),
        example = json(r#"[{"nested": {"foo": "baz", "bar": true}}, {"nested": {"foo": "qux", "bar": false}}]"#),
        title = "124"
    )]
    #[validate(required)]
    pub defaulted_object: Vec<RootObject>,
    /// This tests that empty slice defaulting can be performed.
    #[schema(default = [], title = "{}")]
    #[validate(required)]
    pub defaulted_empty_slice: Vec<String>,
    /// This tests that an empty object defaulting can be performed on a map.
    #[schema(default = json("{}"))]
    #[validate(required)]
    pub defaulted_empty_map: BTreeMap<String, String>,
    /// This tests that an empty object defaulting can be performed on an object.
    #[schema(default = json("{}"))]
    #[validate(required)]
    pub defaulted_empty_object: EmpiableObject,
    /// This tests that kubebuilder defaulting takes precedence.
    #[schema(default = "kubebuilder-default")]
    #[validate(required)]
    pub double_defaulted_string: String,
    /// This tests that primitive defaulting can be performed.
    #[schema(default = "forty-two")]
    #[validate(required)]
    pub kubernetes_defaulted_string: String,
    /// This tests that slice defaulting can be performed.
    #[schema(default = ["a", "b"])]
    #[validate(required)]
    pub kubernetes_defaulted_slice: Vec<String>,
    /// This tests that slice and object defaulting can be performed.
    #[schema(default = json(
        r#"[{"nested": {"foo": "baz", "bar": true}}, {"nested": {"foo": "qux", "bar": false}}]"#
    ))]
    #[validate(required)]
    pub kubernetes_defaulted_object: Vec<RootObject>,
    /// This tests that empty slice defaulting can be performed.
    #[schema(default = [])]
    #[validate(required)]
    pub kubernetes_defaulted_empty_slice: Vec<String>,
    /// This tests that an empty object defaulting can be performed on a map.
    #[schema(default = json("{}"))]
    #[validate(required)]
    pub kubernetes_defaulted_empty_map: BTreeMap<String, String>,
    /// This tests that an empty object defaulting can be performed on an object.
    #[schema(default = json("{}"))]
    #[validate(required)]
    pub kubernetes_defaulted_empty_object: EmpiableObject,
    /// This tests that use of +default=ref(...) doesn't break generation
    pub kubernetes_defaulted_ref: Option<String>,
    /// This tests that pattern validator is properly applied.
    #[validate(pattern = r"^$|^((https):\/\/?)[^\s()<>]+(?:\([\w\d]+\)|([^[:punct:]\s]|\/?))$")]
    pub pattern_object: String,
    #[validate(embedded_resource)]
    pub embedded_resource: RawExtension,
    #[schema(preserve_unknown_fields)]
    #[serde(rename = "unprunedJSON")]
    pub unpruned_json: NestedObject,
    #[schema(preserve_unknown_fields)]
    #[validate(embedded_resource)]
    pub unpruned_embedded_resource: RawExtension,
    /// This tests that a type-level pruning marker works.
    #[serde(rename = "unprunedFomType")]
    pub unpruned_from_type: Preserved,
    /// This tests that a type-level pruning marker combined with a field-level pruning marker works.
    #[schema(preserve_unknown_fields)]
    #[serde(rename = "unprunedFomTypeAndField")]
    pub unpruned_from_type_and_field: Preserved,
    /// This tests that associative lists work.
    #[schema(list_type = "map", list_map_key = ["name", "secondary"])]
    pub associative_list: Vec<AssociativeType>,
    /// This tests that associative lists work via a nested type.
    #[serde(rename = "nestedassociativeList")]
    pub nested_associative_list: NestedAssociativeList,
    /// A map that allows different actors to manage different fields
    #[schema(map_type = "granular")]
    pub map_of_info: BTreeMap<String, ByteString>,
    /// A map that allows different actors to manage different fields via a nested type.
    pub nested_map_of_info: NestedMapOfInfo,
    /// A struct that can only be entirely replaced
    #[schema(struct_type = "atomic")]
    pub struct_with_several_fields: NestedObject,
    /// A struct that can only be entirely replaced via a nested type.
    pub nested_struct_with_several_fields: NestedStructWithSeveralFields,
    /// A struct that can only be entirely replaced via a nested type and
    /// field markers.
    #[schema(struct_type = "atomic")]
    pub nested_struct_with_several_fields_double_marked: NestedStructWithSeveralFields,
    /// This tests that type references are properly flattened
    pub just_nested_object: Option<JustNestedObject>,
    /// This tests explicitly optional kubebuilder fields
    #[validate(optional)]
    #[serde(default)]
    pub explicitly_optional_kubebuilder: String,
    /// This tests explicitly optional kubernetes fields
    #[validate(optional)]
    #[serde(default)]
    pub explicitly_optional_kubernetes: String,
    /// This tests explicitly optional k8s fields
    #[validate(optional)]
    #[serde(default)]
    pub explicitly_optional_k8s: String,
    /// This tests explicitly required kubebuilder fields
    #[validate(required)]
    pub explicitly_required_kubebuilder: Option<String>,
    /// This tests explicitly required kubernetes fields
    #[validate(required)]
    pub explicitly_required_kubernetes: Option<String>,
    /// This tests explicitly required k8s fields
    #[validate(required)]
    pub explicitly_required_k8s: Option<String>,
    /// This tests that min/max properties work
    pub min_max_properties: Option<MinMaxObject>,
    /// This tests that the schemaless marker works
    #[validate(schemaless, type = "string")]
    pub schemaless: Option<Vec<u8>>,
    /// This tests that an IntOrString can also have string validation.
    /// This can be useful if you want to limit the string to a percentage or integer.
    /// The XIntOrString marker is a requirement for having a pattern on this type.
    #[validate(
        int_or_string,
        max_length = 11,
        min_length = 2,
        pattern = "^((100|[0-9]{1,2})%|[0-9]+)$"
    )]
    pub int_or_string_with_a_pattern: Option<IntOrString>,
    /// This tests that an IntOrString can have enum validation.
    /// The XIntOrString marker is required for applying enum to IntOrString.
    #[validate(int_or_string, enum = [1, 2, "foo", "bar"])]
    pub int_or_string_with_enum: Option<IntOrString>,
    /// Checks that nested maps work
    pub nested_map: Option<BTreeMap<String, BTreeMap<String, String>>>,
    /// Checks that multiply-nested maps work
    #[serde(default)]
    pub nested_nested_map: BTreeMap<String, BTreeMap<String, BTreeMap<String, String>>>,
    /// Checks that maps containing types that contain maps work
    #[serde(rename = "nestedMapInStruct")]
    pub contains_nested_map_map: Option<BTreeMap<String, ContainsNestedMap>>,
    /// Maps of arrays of things-that-aren’t-strings are permitted
    pub map_of_arrays_of_floats: Option<BTreeMap<String, Vec<bool>>>,
    #[validate(minimum = -0.5, maximum = 1.5, multiple_of = 0.5)]
    pub float_with_validations: f64,
    #[validate(minimum = -0.5, maximum = 1.5, multiple_of = 0.5)]
    pub float64_with_validations: f64,
    #[validate(minimum = -2, maximum = 2, multiple_of = 2)]
    pub int_with_validations: isize,
    #[validate(minimum = -2, maximum = 2, multiple_of = 2)]
    pub int32_with_validations: i32,
    /// This tests that unexported fields are skipped in the schema generation
    #[serde(skip)]
    unexported_field: String,
    /// This tests that both unexported and exported inline fields are not skipped in the schema generation
    #[serde(flatten)]
    unexported_struct: UnexportedStruct,
    #[serde(flatten)]
    pub exported_struct: ExportedStruct,
    /// Test of the expression-based validation rule marker, with optional message.
    #[x_validation(rule = "self.size() % 2 == 0", message = "must have even length")]
    #[x_validation(rule = "true")]
    pub string_with_even_length: Option<String>,
    /// Test of the expression-based validation with messageExpression marker.
    /// Due to a bug in the cost calculation we can not include the lenght in the message expression:
    /// https://github.com/kubernetes/kubernetes/issues/124234
    ///
    #[x_validation(
        rule = "self.size() % 2 == 0",
        message_expression = "self + ' has odd length, must be even'"
    )]
    pub string_with_even_length_and_message_expression: Option<String>,
    /// Test of the expression-based validation on both field and type.
    #[x_validation(rule = "self.startsWith('good-')", message = "must have good prefix")]
    pub string_with_even_length_and_good_prefix: Option<StringEvenType>,
    /// Test that we can add a forbidden field using XValidation Reason and FieldPath.
    /// The validation is applied to the spec struct itself and not the field.
    pub forbidden_int: Option<isize>,
    /// Checks that fixed-length arrays work
    pub array: Option<[isize; 3]>,
    /// Checks that arrays work when the type contains a composite literal
    pub array_using_composite_literal: Option<[String; 3]>,
    /// This tests string slice item validation.
    #[validate(
        min_items = 1,
        items(
            min_length = 1,
            max_length = 255,
            pattern = r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?([.][a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
        )
    )]
    #[schema(list_type = "set")]
    pub hosts: Option<Vec<String>>,
    /// This tests slice item validation with enum
    #[validate(items(enum = [0, 1, 3]))]
    pub enum_slice: Option<Vec<isize>>,
    pub hosts_alias: Option<Hosts>,
    /// This tests that alias imported from a package is handled correctly. The
    /// corev1.IPFamilyPolicyType is just reused since it's available from
    /// imported package. We can create our own in a separate package if needed.
    pub alias_from_package: Option<String>,
    /// This tests that string alias is handled correctly.
    pub string_alias: Option<StringAlias>,
    pub string_alias_ptr: Option<StringAlias>,
    /// This tests that validation on a string alias type is handled correctly.
    #[validate(min_length = 1, max_length = 255)]
    pub string_alias_added_validation: Option<StringAlias>,
    /// This tests that validation on a string alias type itself is handled correctly.
    pub string_alias_already_validated: Option<StringAliasWithValidation>,
    /// These test that title works on both a type and field, with field taking precedence.
    #[schema(title = "title on field")]
    pub string_alias_with_added_title: Option<StringAliasWithTitle>,
    pub string_alias_with_title: Option<StringAliasWithTitle>,
    /// This tests string slice validation.
    #[validate(min_items = 2, max_items = 2)]
    pub string_pair: Vec<String>,
    /// This tests string alias slice item validation.
    #[validate(min_items = 3)]
    pub longer_string_array: Option<Vec<LongerString>>,
    /// This tests that a slice of IntOrString can also have string validation.
    /// This can be useful if you want to limit the string to a percentage or integer.
    /// The XIntOrString marker is a requirement for having a pattern on this type.
    #[validate(items(
        int_or_string,
        max_length = 10,
        min_length = 1,
        pattern = "^((100|[0-9]{1,2})%|[0-9]+)$"
    ))]
    pub int_or_string_array_with_a_pattern: Option<Vec<IntOrString>>,
    /// This tests that we can embed protocol correctly (without ending up with allOf).
    /// Context: https://github.com/kubernetes-sigs/controller-tools/issues/1027
    /// Defaults to "TCP".
    #[schema(default = "TCP")]
    pub protocol: Option<String>,
    /// This tests that selectable field.
    pub selectable_field_string: Option<String>,
    /// This tests that embedded struct, which is an alias type, is handled correctly.
    #[serde(flatten)]
    pub inline_alias: InlineAlias,
    /// Test that we can add a field that can only be set to a non-default value on updates using XValidation OptionalOldSelf.
    #[x_validation(
        rule = "oldSelf.hasValue() || self == 0",
        message = "must be set to 0 on creation. can be set to any value on an update.",
        optional_old_self
    )]
    pub only_allow_setting_on_update: Option<i32>,
    /// This tests that unmarkered types are handled correctly.
    /// When markers are applied at the field level instead of the type level.
    #[validate(minimum = 1, maximum = 10)]
    pub locally_bounded_integer: Option<UnmarkeredInteger>,
    /// This tests that unmarkered types are handled correctly.
    /// When markers are applied at the field level instead of the type level.
    #[validate(min_length = 1, max_length = 10)]
    pub locally_bounded_string: Option<UnmarkeredString>,
    /// This tests that field-level overrides are handled correctly
    /// for local type aliases.
    #[validate(min_length = 10, max_length = 10)]
    pub field_level_alias_override: Option<StringAliasWithValidation>,
    /// This tests that field-level overrides are handled correctly
    /// for local type declarations.
    #[validate(min_length = 10, max_length = 10)]
    pub field_level_local_declaration_override: Option<LongerString>,
}

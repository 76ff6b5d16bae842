//! controller-gen's known types (`pkg/crd/known_types.go`): types of k8s.io/apimachinery whose
//! schemas it overrides instead of deriving them from their Go source.

use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{MicroTime, ObjectMeta, Time};
use k8s_openapi::apimachinery::pkg::runtime::RawExtension;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;

use crate::schema::{Definitions, JSONSchemaProps, Schema, typed};

named!(Time, |defs| typed("string", Some("date-time")));
named!(MicroTime, |defs| typed("string", Some("date-time")));

// Embedded metadata is opaque to a CRD schema: the API server owns its shape.
named!(ObjectMeta, |defs| typed("object", None));

fn int_or_string() -> JSONSchemaProps {
    JSONSchemaProps {
        x_kubernetes_int_or_string: Some(true),
        any_of: Some(vec![typed("integer", None), typed("string", None)]),
        ..JSONSchemaProps::default()
    }
}

named!(IntOrString, |defs| int_or_string());

named!(Quantity, |defs| {
    JSONSchemaProps {
            pattern: Some(
                r"^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$"
                    .to_owned(),
            ),
            ..int_or_string()
        }
});

// Any embedded object, kept as it is by the API server.
named!(RawExtension, |defs| JSONSchemaProps {
    x_kubernetes_preserve_unknown_fields: Some(true),
    ..typed("object", None)
});

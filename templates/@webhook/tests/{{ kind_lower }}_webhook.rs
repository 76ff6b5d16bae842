//! Tests of the webhooks of {{ kind }} {{ version }} (kubebuilder's {{ kind_lower }}_webhook_test.go):
//! they call the defaulter and the validator directly, on the sample of
//! config/samples/{{ group }}_{{ version }}_{{ kind_lower }}.yaml.
//!
//! TODO(user): add the cases of your defaulting and validation logic.

use serde_json::json;

use {{ crate_name }}::webhook::{{ version }}::{{ kind_lower }}_webhook::*;
use {{ api_crate }}::{{ version }}::{{ kind }};

/// The sample {{ kind }}, as `kubectl apply -k config/samples` sends it.
fn sample() -> {{ kind }} {
    serde_json::from_value(json!({{ sample_json }}))
    .expect("the sample is a {{ kind }}")
}
// +webop:scaffold:webhooktests

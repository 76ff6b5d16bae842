//! Round trips of {{ kind }} through the hub of its conversion webhook, {{ version }}: each spoke
//! converted from the hub and back gives the hub object again, which the API server relies on
//! when it stores {{ version }} and serves the other versions.
//!
//! TODO(user): add objects that exercise the fields your conversions handle.

use serde_json::json;
use webop::webhook::Convertible;

use {{ api_crate }}::{{ version_module }} as hub;

/// The sample {{ kind }} {{ version }}, as `kubectl apply -k config/samples` sends it.
fn sample() -> hub::{{ kind }} {
    serde_json::from_value(json!({{ sample_json }}))
    .expect("the sample is a {{ kind }}")
}
{% for spoke in spoke_tests %}
#[test]
{%- if spoke.todo %}
#[ignore = "TODO(user): write the conversion of {{ kind }} {{ spoke.version }} (api/src/{% if multigroup %}{{ group_module }}/{% endif %}{{ spoke.version }}/{{ kind_lower }}_conversion.rs), then remove this line"]
{%- endif %}
fn {{ spoke.version }}_round_trips_through_the_hub() {
    let hub = sample();
    let spoke: {{ api_crate }}::{{ group_prefix }}{{ spoke.version }}::{{ kind }} =
        Convertible::convert_from(&hub).expect("the hub converts to {{ spoke.version }}");
    let back: hub::{{ kind }} = spoke.convert_to().expect("{{ spoke.version }} converts back to the hub");
    assert_eq!(
        serde_json::to_value(&back).unwrap(),
        serde_json::to_value(&hub).unwrap()
    );
}
{%- endfor %}

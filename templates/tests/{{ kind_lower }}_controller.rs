//! Offline tests of the {{ kind }} controller.

use kube::Resource;
use {{ api_crate }}::{{ version }}::{ {{- kind }}, {{ kind }}Spec};

#[test]
fn the_kind_is_served_where_the_controller_watches_it() {
    assert_eq!({{ kind }}::group(&()), "{{ group_domain }}");
    assert_eq!({{ kind }}::version(&()), "{{ version }}");
    assert_eq!({{ kind }}::plural(&()), "{{ plural }}");
}

#[test]
fn a_{{ kind_lower }}_round_trips_through_json() {
    let spec = {{ kind }}Spec {
        foo: Some("bar".to_owned()),
    };
    let {{ kind_var }} = {{ kind }}::new("sample", spec);
    let json = serde_json::to_value(&{{ kind_var }}).unwrap();
    assert_eq!(json["apiVersion"], "{{ group_domain }}/{{ version }}");
    assert_eq!(json["kind"], "{{ kind }}");
    assert_eq!(json["spec"]["foo"], "bar");
    let back: {{ kind }} = serde_json::from_value(json).unwrap();
    assert_eq!(back, {{ kind_var }});
}

// TODO(user): test the reconcile: build the objects it applies from a {{ kind }} with plain
// functions, and test those (see how `webop create api --image` scaffolds it).

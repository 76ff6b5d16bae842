use super::*;

fn typed(ty: &str) -> JSONSchemaProps {
    JSONSchemaProps {
        type_: Some(ty.into()),
        ..Default::default()
    }
}

#[test]
fn numeric_bounds_need_a_numeric_type() {
    let mut s = typed("integer");
    apply(&mut s, &[Marker::Minimum(1.0), Marker::Maximum(10.0)]).unwrap();
    assert_eq!((s.minimum, s.maximum), (Some(1.0), Some(10.0)));

    let err = apply(&mut typed("string"), &[Marker::Maximum(3.0)]).unwrap_err();
    assert_eq!(err.0, "must apply maximum to a numeric value, found string");

    let err = apply(&mut typed("integer"), &[Marker::Minimum(0.5)]).unwrap_err();
    assert_eq!(
        err.0,
        "cannot apply non-integral minimum validation (0.5) to integer value"
    );
}

#[test]
fn false_flags_are_omitted_like_go_omitempty() {
    let mut s = typed("number");
    apply(
        &mut s,
        &[
            Marker::ExclusiveMinimum(false),
            Marker::ExclusiveMaximum(true),
        ],
    )
    .unwrap();
    assert_eq!(
        (s.exclusive_minimum, s.exclusive_maximum),
        (None, Some(true))
    );
}

#[test]
fn type_applies_before_the_markers_that_check_it() {
    let mut s = JSONSchemaProps::default();
    apply(&mut s, &[Marker::MaxLength(3), Marker::Type("string")]).unwrap();
    assert_eq!(s.max_length, Some(3));
}

#[test]
fn items_markers_reach_the_items() {
    let mut s = typed("array");
    s.items = Some(JSONSchemaPropsOrArray::Schema(Box::new(typed("string"))));
    apply(
        &mut s,
        &[Marker::Items(&[Marker::MaxLength(10)]), Marker::MinItems(1)],
    )
    .unwrap();
    let Some(JSONSchemaPropsOrArray::Schema(items)) = &s.items else {
        panic!()
    };
    assert_eq!((items.max_length, s.min_items), (Some(10), Some(1)));

    let err = apply(&mut typed("string"), &[Marker::Items(&[])]).unwrap_err();
    assert_eq!(
        err.0,
        "must apply items(...) to an array value, found string"
    );
}

#[test]
fn empty_object_default_on_an_array_becomes_an_empty_list() {
    let mut s = typed("array");
    apply(&mut s, &[Marker::Default("{}")]).unwrap();
    assert_eq!(s.default, Some(JSON(serde_json::json!([]))));
}

#[test]
fn the_kubebuilder_default_wins_over_the_kubernetes_one_whatever_the_order() {
    let mut s = typed("string");
    apply(
        &mut s,
        &[Marker::Default(r#""kb""#), Marker::K8sDefault(r#""k8s""#)],
    )
    .unwrap();
    assert_eq!(s.default, Some(JSON(serde_json::json!("kb"))));
    let mut s = typed("array");
    apply(&mut s, &[Marker::K8sDefault("{}")]).unwrap();
    assert_eq!(s.default, Some(JSON(serde_json::json!({}))));
}

#[test]
fn one_of_rules_are_controller_gens_cel() {
    let mut s = typed("object");
    apply(
        &mut s,
        &[
            Marker::ExactlyOneOf(&["a", "b"]),
            Marker::AtMostOneOf(&["c", "d"]),
        ],
    )
    .unwrap();
    let rules = s.x_kubernetes_validations.unwrap();
    assert_eq!(
        rules[0].rule,
        "[has(self.c),has(self.d)].filter(x,x==true).size() <= 1"
    );
    assert_eq!(
        rules[0].message.as_deref(),
        Some("at most one of the fields in [c d] may be set")
    );
    assert_eq!(
        rules[1].rule,
        "[has(self.a),has(self.b)].filter(x,x==true).size() == 1"
    );
    assert_eq!(
        rules[1].message.as_deref(),
        Some("exactly one of the fields in [a b] must be set")
    );
}

#[test]
fn list_map_keys_need_a_map_list() {
    let mut s = typed("array");
    let err = apply(&mut s, &[Marker::ListMapKeys(&["name"])]).unwrap_err();
    assert_eq!(err.0, "must apply listMapKey to an associative-list");
    apply(
        &mut s,
        &[Marker::ListMapKeys(&["name"]), Marker::ListType("map")],
    )
    .unwrap();
    assert_eq!(s.x_kubernetes_list_map_keys, Some(vec!["name".to_owned()]));
}

#[test]
fn unknown_cel_reason_is_refused() {
    let rule = XValidation {
        rule: "self > 0",
        reason: Some("Nope"),
        ..Default::default()
    };
    let err = apply(&mut typed("integer"), &[Marker::XValidation(rule)]).unwrap_err();
    assert!(err.0.starts_with("invalid reason Nope"));
}

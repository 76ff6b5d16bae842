//! Misused attributes are compile errors that point at the attribute and name the rule.

#[test]
fn attribute_errors_point_at_the_attribute() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/attributes/*.rs");
}

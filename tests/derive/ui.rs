//! Compile-time behaviour of webop's attributes, as users see it: what compiles, and the exact
//! error for what does not. Refresh the expected output with `TRYBUILD=overwrite`.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/*/pass/*.rs");
    cases.compile_fail("tests/ui/*/fail/*.rs");
}

//! Compile-time behaviour of webop's attributes, as users see it: what compiles, and the exact
//! error for what does not. Refresh the expected output with `TRYBUILD=overwrite`.
//!
//! Here, beside the macros, rather than among the workspace's tests: trybuild builds the cases
//! against this crate's dev-dependencies, and the facade without its runtime features is all a
//! types file needs, a fraction of what the workspace's tests link.

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.pass("tests/ui/*/pass/*.rs");
    cases.compile_fail("tests/ui/*/fail/*.rs");
}

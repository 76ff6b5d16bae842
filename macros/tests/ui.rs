//! Compile-time behaviour of webop's attributes, as users see it: the exact error for what does
//! not compile. Refresh the expected output with `TRYBUILD=overwrite`.
//!
//! Here, beside the macros, rather than among the workspace's tests: trybuild builds the cases
//! against this crate's dev-dependencies, and the facade without its runtime features is all a
//! types file needs, a fraction of what the workspace's tests link. Only compile-fail cases:
//! with them alone trybuild checks its dependencies rather than building them (about 40% less
//! work). What does compile is compiled by the workspace's tests (`tests/manifests`).

#[test]
fn ui() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*/fail/*.rs");
}

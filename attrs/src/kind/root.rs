//! `#[root(x_validation(...))]`: CEL rules on the root object, which the derive generates
//! (controller-gen: `+kubebuilder:validation:XValidation` on the root type). A root rule sees
//! `self.metadata.name`, so it can keep names that would make invalid child names out.

use crate::args::{Arg, unknown_key};
use crate::errors::Errors;
use crate::schema::{self, MarkerAt};

/// The keys of `#[root(...)]`.
const KEYS: [&str; 1] = ["x_validation"];

/// Reads one `#[root(...)]`, adding its rules to `rules`.
pub(super) fn add(args: &[Arg], rules: &mut Vec<MarkerAt>, errors: &Errors) {
    for arg in args {
        if arg.name() == "x_validation" {
            rules.extend(errors.ok(schema::nested_x_validation(arg, "root")));
        } else {
            errors.push(unknown_key(arg, "root", &KEYS));
        }
    }
}

//! `#[metadata(annotations = [...], labels = [...])]`: what the CRD object itself carries
//! (`+kubebuilder:metadata`).

use crate::args::{Arg, unknown_key};
use crate::errors::Errors;

/// The CRD's own annotations and labels, as `key=value` texts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Metadata {
    pub annotations: Vec<String>,
    pub labels: Vec<String>,
}

impl Metadata {
    pub(super) fn add(&mut self, args: &[Arg], errors: &Errors) {
        for arg in args {
            let target = match arg.name().as_str() {
                "annotations" => &mut self.annotations,
                "labels" => &mut self.labels,
                _ => {
                    errors.push(unknown_key(arg, "metadata", &["annotations", "labels"]));
                    continue;
                }
            };
            let Some(entries) = errors.ok(arg.strings()) else {
                continue;
            };
            for entry in entries {
                if entry.value().contains('=') {
                    target.push(entry.value());
                } else {
                    errors.push(syn::Error::new(
                        entry.span(),
                        format!(
                            "metadata entry {:?} is not in 'key=value' format",
                            entry.value()
                        ),
                    ));
                }
            }
        }
    }
}

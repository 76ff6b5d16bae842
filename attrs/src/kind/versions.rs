//! `#[storage_version]`, `#[unserved_version]`, `#[skip_version]` and `#[deprecated_version]`:
//! what this version of the kind is in its CRD (controller-gen's `+kubebuilder:storageversion`,
//! `unservedversion`, `skipversion` and `deprecatedversion`).

use syn::{Attribute, Ident};

use crate::args::{Arg, ArgValue, Seen, unknown_key};
use crate::errors::Errors;

/// This version's place in the CRD.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionState {
    pub role: VersionRole,
    /// Served by the API server (not `#[unserved_version]`).
    pub served: bool,
    pub deprecation: Option<Deprecation>,
}

/// Whether the version is the one objects are stored in, another one, or left out of the CRD
/// (a version cannot be both stored and left out).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VersionRole {
    Storage,
    Other,
    Skipped,
}

/// `#[deprecated_version]`, with the warning clients get, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Deprecation {
    pub warning: Option<String>,
}

#[derive(Default)]
pub(super) struct Builder {
    storage: bool,
    unserved: bool,
    skip: bool,
    deprecation: Option<Deprecation>,
    seen: Seen,
}

impl Builder {
    /// One of the version attributes, named `family`.
    pub(super) fn add(&mut self, family: &str, attr: &Attribute, args: &[Arg], errors: &Errors) {
        if family == "deprecated_version" {
            let mut warning = None;
            for arg in args {
                match arg.name().as_str() {
                    "warning" => warning = errors.ok(arg.string()).map(|s| s.value()),
                    _ => errors.push(unknown_key(arg, "deprecated_version", &["warning"])),
                }
            }
            self.deprecation = Some(Deprecation { warning });
            return;
        }
        if let Some(first) = args.first() {
            errors.push(syn::Error::new(
                first.key.span(),
                format!("#[{family}] takes no arguments"),
            ));
            return;
        }
        let key = attr
            .meta
            .path()
            .segments
            .last()
            .expect("a path")
            .ident
            .clone();
        if errors
            .ok(self.seen.once(&Arg {
                key,
                value: ArgValue::Flag,
            }))
            .is_none()
        {
            return;
        }
        match family {
            "storage_version" => self.storage = true,
            "unserved_version" => self.unserved = true,
            _ => self.skip = true,
        }
    }

    /// The state; `spec` is where a contradiction is reported.
    pub(super) fn finish(self, spec: &Ident) -> syn::Result<VersionState> {
        let role = match (self.storage, self.skip) {
            (true, true) => {
                return Err(syn::Error::new(
                    spec.span(),
                    "a version cannot be both #[storage_version] and #[skip_version]",
                ));
            }
            (true, false) => VersionRole::Storage,
            (false, true) => VersionRole::Skipped,
            (false, false) => VersionRole::Other,
        };
        Ok(VersionState {
            role,
            served: !self.unserved,
            deprecation: self.deprecation,
        })
    }
}

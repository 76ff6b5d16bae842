//! The API types of cronjob-operator, a crate of their own: clients depend on it without the
//! controllers, and `webop manifests` compiles only it to print the CRDs.
//!
//! Each version is a module of `src/<version>/`; each kind's types are in
//! `src/<version>/<kind>_types.rs`. This file is yours too: `webop create api` adds a new
//! version's module and each new kind's CRD version above the `+webop:scaffold:` lines and
//! leaves the rest alone (modules of your own go here: `pub mod common;`).

// Several #[printcolumn]s of a kind share keys such as `type = "string"`: that is how they are
// written, not a mistake clippy::duplicated_attributes should flag.
#![allow(clippy::duplicated_attributes)]

pub mod v1;
pub mod v2;
// +webop:scaffold:apiversions

/// The CustomResourceDefinitions of every kind, the versions of each kind merged into one.
pub fn crds() -> Result<Vec<webop::crd::CustomResourceDefinition>, webop::crd::Error> {
    webop::crd::assemble([
        v1::CronJob::crd_version(),
        v2::CronJob::crd_version(),
        // +webop:scaffold:crdversions
    ])
}

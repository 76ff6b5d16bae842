//! The in-memory API server, and envtest: each behaviour, on the testkit and (with
//! KUBEBUILDER_ASSETS) on a real kube-apiserver.

// Several #[printcolumn]s share `type = "string"`: that is their design, not a mistake.
#![allow(clippy::duplicated_attributes)]

#[macro_use]
#[path = "../testkit_common/mod.rs"]
mod testkit_common;
// The tutorial's WebApp as webop's attributes declare it (its crds() serves the conformance suite).
#[path = "../../../tests/conformance/webapp.rs"]
#[allow(dead_code)]
mod webapp;

mod envtest;
mod testkit_api;
mod testkit_api_patch;
mod testkit_apply;
mod testkit_controller;
mod testkit_controller_ssa;
mod testkit_crd;
mod testkit_crd_validation;
mod testkit_delete;
mod testkit_derived_crd;
mod testkit_faults;
mod testkit_kubectl;
mod testkit_lease;
mod testkit_namespaces;
mod testkit_openapi;
mod testkit_scale;
mod testkit_schema;
mod testkit_table;
mod testkit_watch;

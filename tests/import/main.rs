//! `webop import`: CRDs and kubebuilder projects brought into webop.

#[path = "../support/controller_gen.rs"]
mod controller_gen;
#[path = "../support/mod.rs"]
mod support;

mod import_crd;
mod import_kubebuilder;
mod import_kubebuilder_controllers;
mod import_kubebuilder_deploy_image;
mod import_kubebuilder_plugins;
mod import_kubebuilder_shared;
mod import_round_trip;

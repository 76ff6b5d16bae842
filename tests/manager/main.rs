//! The manager: leader election, metrics, probes, shutdown, and chaos on a real control plane;
//! and the webhooks it serves: admission and conversion reviews, the HTTPS server, and the API
//! server calling them (testkit and envtest).

// Several #[printcolumn]s share `type = "string"`: that is their design, not a mistake.
#![allow(clippy::duplicated_attributes)]

extern crate self as webapp_operator_api;
#[rustfmt::skip]
#[path = "../../testdata/webapp-operator/api/src/v1/mod.rs"]
pub mod v1;
#[rustfmt::skip]
#[path = "../../testdata/webapp-operator/src/controller/webapp_controller.rs"]
mod webapp_controller;
#[path = "../chaos_support/mod.rs"]
mod chaos_support;
#[path = "../manager_support/mod.rs"]
mod manager_support;
#[path = "../webhook_support/mod.rs"]
mod webhook_support;

mod manager;
mod manager_chaos;
mod manager_envtest;
mod manager_leader_election;
mod manager_metrics;
mod manager_shutdown;
mod testkit_webhooks;
mod webhook_api_server;
mod webhook_envtest;
mod webhook_reviews;
mod webhook_server;

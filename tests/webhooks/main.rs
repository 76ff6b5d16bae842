//! Admission and conversion webhooks: reviews, the HTTPS server, and the API server calling them
//! (testkit and envtest).

#[path = "../manager_support/mod.rs"]
mod manager_support;
#[path = "../webhook_support/mod.rs"]
mod webhook_support;

mod testkit_webhooks;
mod webhook_api_server;
mod webhook_envtest;
mod webhook_reviews;
mod webhook_server;

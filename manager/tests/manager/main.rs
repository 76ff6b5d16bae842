//! The manager's own behaviour: the order it works and stops in, what its clients say they are,
//! and (with the `webhook` feature) what its webhook server lets a client make it hold. The
//! hostile load, which measures a child process's memory, is a binary of its own.

mod priority_order;
mod shutdown_order;
#[cfg(feature = "webhook")]
#[path = "../support/mod.rs"]
mod support;
mod user_agent;
#[cfg(feature = "webhook")]
mod webhook_limits;

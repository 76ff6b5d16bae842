//! The chaos test's tools: a proxy that cuts and delays connections, the audit log's account
//! of who led and who wrote, and the replicas under a supervisor that restarts them.

pub mod audit;
pub mod proxy;
pub mod replicas;

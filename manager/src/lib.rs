//! The runtime of generated operators: what controller-runtime's Manager gives Go operators,
//! for kube-rs controllers (feature `manager`).
//!
//! A generated `main.rs` is three lines on top of this module:
//!
//! ```no_run
//! # use clap::Parser;
//! # #[derive(Parser)] struct Flags { #[command(flatten)] manager: webop_manager::Options }
//! # async fn run_controllers(_: webop_manager::Manager) {}
//! # async fn main_() -> Result<(), webop_manager::Error> {
//! let flags = Flags::parse();
//! webop_manager::init_logging(&flags.manager)?;
//! let manager = webop_manager::Manager::new(flags.manager, "my-operator.example.com").await?;
//! manager.run(run_controllers).await
//! # }
//! ```
//!
//! - [`Options`]: kubebuilder's flags (`--metrics-bind-address`, `--metrics-secure`,
//!   `--metrics-cert-path`, `--health-probe-bind-address`, `--leader-elect`), controller-runtime's
//!   manager options (`--leader-election-{lease-duration,renew-deadline,retry-period}`,
//!   `--graceful-shutdown-timeout`, `--sync-period`, `--watch-namespace`), log format and level
//!   and kubebuilder's `--zap-*` flags, concurrency, client QPS and burst.
//! - [`Manager`]: the client (rate-limited by [`RateLimitLayer`], counted in `rest_client_*`),
//!   `/metrics` (HTTPS; scrapers authenticated and authorized by the API server, see
//!   [`MetricsAuth`]), `/healthz`, `/readyz`, leader election on a Lease (client-go's algorithm:
//!   a leader that cannot renew within the renew deadline stops), a graceful shutdown on SIGTERM
//!   bounded by `--graceful-shutdown-timeout` that stops the servers last. docs/manager.md sets
//!   each guarantee beside controller-runtime's, with its test.
//! - [`ControllerKit`]: one controller's share: watched caches, controller-runtime's
//!   reconcile and work-queue [`Metrics`], spans, recovery from panics ([`ReconcileError`]),
//!   retries on controller-runtime's rate limiter ([`RequeueRateLimiter`]).
//! - [`reconcile`]: the operator library: children applied exactly and only when they drifted
//!   ([`Children`]), status written only when it changed, conditions, a Deployment's rollout,
//!   events with one-line notes.

mod applied;
mod backoff;
mod coalesced;
#[cfg(debug_assertions)]
#[doc(hidden)]
pub mod common_kinds;
mod compact_store;
mod controller;
mod digest_cache;
mod dispatch;
mod duration;
mod elector;
mod event_recorder;
mod leader;
mod lease_lock;
mod listen;
mod logging;
#[allow(clippy::module_inception)]
mod manager;
mod metrics;
mod metrics_auth;
mod options;
mod owned;
mod panics;
mod priority_queue;
mod rate_limit;
mod readiness;
pub mod reconcile;
mod requeue;
#[cfg(feature = "webhook")]
mod review_limits;
#[cfg(feature = "webhook")]
mod review_thread;
mod running;
mod server;
mod shutdown;
mod stack_traces;
mod tls;
mod token_bucket;
mod user_agent;
#[cfg(feature = "webhook")]
mod webhook_server;
mod zap;

pub use applied::contains;
pub use backoff::{BASE_DELAY, Backoff, MAX_DELAY};
pub use compact_store::CompactStore;
pub use controller::{ControllerKit, object_key};
pub use duration::parse_duration;
pub use event_recorder::EventRecorder;
pub use logging::init_logging;
pub use manager::{Manager, Servers};
#[cfg(feature = "webhook")]
pub use metrics::WebhookRequest;
pub use metrics::{
    ControllerMetrics, LeaderElectionMetrics, Metrics, Outcome, ReconcileMetrics,
    RestClientMetrics, RestClientMetricsLayer, WorkQueue,
};
pub use metrics_auth::MetricsAuth;
pub use options::{LogFormat, Options, parse_bind_address};
pub use panics::ReconcileError;
pub use priority_queue::{PICKS_PER_LOW_TURN, Priority};
pub use rate_limit::{RateLimit, RateLimitLayer};
pub use readiness::{Readiness, Synced};
pub use reconcile::{
    Applied, ApplyError, Change, Children, Rollout, RolloutState, condition, controller_reference,
    find_condition, one_line, publish, set_condition, write_status,
};
pub use requeue::{OVERALL_BURST, OVERALL_RATE, RequeueRateLimiter};
pub use server::{HEADER_READ_TIMEOUT, MAX_CONNECTIONS};
pub use shutdown::Shutdown;
pub use user_agent::user_agent;
#[cfg(feature = "webhook")]
pub use webhook_server::{BODY_READ_TIMEOUT, WebhookServer, webhook_routes};
pub use zap::{LogSettings, ZapEncoder, ZapLevel};

/// Why the manager could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{flag} {value:?}: expected `0`, `:port` or `ip:port`")]
    BindAddress { flag: &'static str, value: String },
    #[error("{flag}: cannot listen on {address}: {source}")]
    Bind {
        flag: &'static str,
        address: std::net::SocketAddr,
        source: std::io::Error,
    },
    #[error("--log-level {value:?}: {reason}")]
    LogLevel { value: String, reason: String },
    #[error("cannot install the logger: {0}")]
    Logging(String),
    #[error("no Kubernetes configuration (in-cluster or kubeconfig): {0}")]
    Config(#[from] kube::config::InferConfigError),
    #[error("cannot build the Kubernetes client: {0}")]
    Client(#[from] kube::Error),
    #[error("{0}")]
    Options(String),
    #[error("TLS: {0}")]
    Tls(String),
    #[error("leader election: {0}")]
    LeaderElection(String),
    #[error("lost the leader-election lease {0}; exiting so that another replica takes over")]
    LostLease(String),
    #[error(
        "the graceful shutdown took longer than --graceful-shutdown-timeout ({}); running \
         reconciles were abandoned", duration::format_duration(*.0)
    )]
    ShutdownTimeout(std::time::Duration),
}

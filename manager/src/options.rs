//! The manager's flags, named and defaulted like a kubebuilder manager's, each also readable from
//! an environment variable (a flag wins over its variable).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use super::duration::{format_duration, parse_duration};

/// Flags of a generated operator's manager. Flatten it into the binary's `clap::Parser`.
///
/// `config/manager/manager.yaml` passes `--leader-elect` and `--health-probe-bind-address=:8081`,
/// and `config/default` adds `--metrics-bind-address=:8443` (HTTPS, with authentication and
/// authorization), as kubebuilder's scaffold does. Durations are written as Go writes them
/// (`15s`, `1m30s`); a bare number is seconds.
#[derive(Clone, Debug, clap::Args)]
pub struct Options {
    /// Where `/metrics` listens: `:8443` (every interface), `127.0.0.1:8443`, or `0` to disable
    /// it. HTTPS unless `--metrics-secure=false`.
    #[arg(long, env = "METRICS_BIND_ADDRESS", default_value = "0")]
    pub metrics_bind_address: String,

    /// Serve `/metrics` over HTTPS, to clients that the API server authenticates (TokenReview)
    /// and authorizes to `get` the non-resource URL `/metrics` (SubjectAccessReview).
    /// `--metrics-secure=false` serves plain HTTP to anyone.
    #[arg(long, env = "METRICS_SECURE", default_value_t = true, num_args = 0..=1,
          require_equals = true, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub metrics_secure: bool,

    /// The directory holding the metrics server's certificate and key (for example a mounted
    /// cert-manager Secret); re-read when they change. Without it the server makes itself a
    /// self-signed certificate at start.
    #[arg(long, env = "METRICS_CERT_PATH")]
    pub metrics_cert_path: Option<PathBuf>,

    /// The certificate's file name in `--metrics-cert-path`.
    #[arg(long, env = "METRICS_CERT_NAME", default_value = "tls.crt")]
    pub metrics_cert_name: String,

    /// The private key's file name in `--metrics-cert-path`.
    #[arg(long, env = "METRICS_CERT_KEY", default_value = "tls.key")]
    pub metrics_cert_key: String,

    /// The port of the webhook server (HTTPS, every interface); `0` picks a free one.
    #[cfg(feature = "webhook")]
    #[arg(long, env = "WEBHOOK_PORT", default_value_t = 9443)]
    pub webhook_port: u16,

    /// The directory holding the webhook server's certificate and key (the mounted
    /// cert-manager Secret); re-read when they change. Without it the server makes itself a
    /// self-signed certificate at start and logs it as a `caBundle`, for local development.
    #[cfg(feature = "webhook")]
    #[arg(long, env = "WEBHOOK_CERT_PATH")]
    pub webhook_cert_path: Option<PathBuf>,

    /// The certificate's file name in `--webhook-cert-path`.
    #[cfg(feature = "webhook")]
    #[arg(long, env = "WEBHOOK_CERT_NAME", default_value = "tls.crt")]
    pub webhook_cert_name: String,

    /// The private key's file name in `--webhook-cert-path`.
    #[cfg(feature = "webhook")]
    #[arg(long, env = "WEBHOOK_CERT_KEY", default_value = "tls.key")]
    pub webhook_cert_key: String,

    /// Serve the webhooks; `ENABLE_WEBHOOKS=false` turns the server off, as kubebuilder's
    /// `main.go` does for `make run` without certificates.
    #[cfg(feature = "webhook")]
    #[arg(long, env = "ENABLE_WEBHOOKS", default_value_t = true, num_args = 0..=1,
          require_equals = true, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub enable_webhooks: bool,

    /// Where the health probes `/healthz` and `/readyz` listen; `0` disables them.
    #[arg(long, env = "HEALTH_PROBE_BIND_ADDRESS", default_value = ":8081")]
    pub health_probe_bind_address: String,

    /// Reconcile only while holding the leader-election Lease, so that one replica works at a
    /// time; a replica that loses the Lease exits.
    #[arg(long, env = "LEADER_ELECT")]
    pub leader_elect: bool,

    /// The name of the leader-election Lease (default: the operator's own, set in main.rs).
    #[arg(long, env = "LEADER_ELECTION_ID")]
    pub leader_election_id: Option<String>,

    /// The namespace of the leader-election Lease (default: the Pod's namespace, else the
    /// kubeconfig's).
    #[arg(long, env = "LEADER_ELECTION_NAMESPACE")]
    pub leader_election_namespace: Option<String>,

    /// How long the Lease holds without renewal: a standby takes over this long after it last
    /// saw the Lease change (client-go: 15s).
    #[arg(long, env = "LEADER_ELECTION_LEASE_DURATION", default_value = "15s",
          value_parser = parse_duration)]
    pub leader_election_lease_duration: Duration,

    /// How long the leader keeps trying to renew the Lease before it stops reconciling and
    /// exits; shorter than the lease duration, so it stops before a standby may take over
    /// (client-go: 10s).
    #[arg(long, env = "LEADER_ELECTION_RENEW_DEADLINE", default_value = "10s",
          value_parser = parse_duration)]
    pub leader_election_renew_deadline: Duration,

    /// How often the leader renews the Lease and a standby checks it (client-go: 2s).
    #[arg(long, env = "LEADER_ELECTION_RETRY_PERIOD", default_value = "2s",
          value_parser = parse_duration)]
    pub leader_election_retry_period: Duration,

    /// How long a shutdown (SIGTERM) may take: running reconciles finish, then the Lease is
    /// released and the servers stop; what is still running then is abandoned and the manager
    /// exits with an error (controller-runtime: 30s).
    #[arg(long, env = "GRACEFUL_SHUTDOWN_TIMEOUT", default_value = "30s",
          value_parser = parse_duration)]
    pub graceful_shutdown_timeout: Duration,

    /// Reconcile every object this often even when nothing changed (e.g. `10h`), to repair
    /// drift that no watch event reports. Off by default: watches trigger every reconcile.
    #[arg(long, env = "SYNC_PERIOD", value_parser = parse_duration)]
    pub sync_period: Option<Duration>,

    /// Watch and reconcile objects of this namespace only (a namespace-scoped operator, as
    /// kubebuilder's `--namespaced` projects run); every namespace when unset.
    #[arg(long, env = "WATCH_NAMESPACE", value_parser = single_namespace)]
    pub watch_namespace: Option<String>,

    /// Log lines as human-readable `text` or as one `json` object per line.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// The most verbose level logged (`error`, `warn`, `info`, `debug`, `trace`), or a
    /// tracing-subscriber filter like `info,kube=debug`.
    #[arg(long, env = "LOG_LEVEL", default_value = "info")]
    pub log_level: String,

    /// kubebuilder's `--zap-log-level`: `debug`, `info`, `error`, `panic` (nothing but panics),
    /// or an integer > 0 for more verbosity (1: debug, 2 and above: trace). Wins over
    /// `--log-level`.
    #[arg(long, env = "ZAP_LOG_LEVEL", value_parser = super::zap::parse_level)]
    pub zap_log_level: Option<super::zap::ZapLevel>,

    /// kubebuilder's `--zap-devel`: development defaults (console lines, debug level,
    /// stack traces from warnings on) for whichever of the other zap flags is not given.
    #[arg(long, env = "ZAP_DEVEL", default_value_t = false, num_args = 0..=1,
          require_equals = true, default_missing_value = "true", action = clap::ArgAction::Set)]
    pub zap_devel: bool,

    /// kubebuilder's `--zap-encoder`: `json` or `console` (the `text` of `--log-format`).
    /// Wins over `--log-format`.
    #[arg(long, env = "ZAP_ENCODER", value_enum)]
    pub zap_encoder: Option<super::zap::ZapEncoder>,

    /// kubebuilder's `--zap-stacktrace-level`: `info`, `error` or `panic`; events at this level
    /// and above carry a stack trace (default `error`, `warn` with `--zap-devel`).
    #[arg(long, env = "ZAP_STACKTRACE_LEVEL", value_parser = super::zap::parse_stacktrace_level)]
    pub zap_stacktrace_level: Option<super::zap::ZapLevel>,

    /// How many objects of one kind are reconciled at the same time (controller-runtime: 1).
    #[arg(long, env = "MAX_CONCURRENT_RECONCILES", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub max_concurrent_reconciles: u16,

    /// Requests per second to the API server, sustained (client-go: 20). Leader election has a
    /// client of its own, outside this limit, so that busy controllers cannot delay renewals.
    #[arg(long, env = "KUBE_API_QPS", default_value_t = 20.0, value_parser = positive)]
    pub kube_api_qps: f64,

    /// Requests allowed in a burst above `--kube-api-qps` (client-go: 30).
    #[arg(long, env = "KUBE_API_BURST", default_value_t = 30,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub kube_api_burst: u32,
}

/// How log lines are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per line, for log collectors.
    Json,
}

impl Default for Options {
    /// The defaults of every flag, except that the probes are disabled and the webhook server
    /// takes a free port: what tests want.
    fn default() -> Self {
        Options {
            metrics_bind_address: "0".to_owned(),
            metrics_secure: true,
            metrics_cert_path: None,
            metrics_cert_name: "tls.crt".to_owned(),
            metrics_cert_key: "tls.key".to_owned(),
            #[cfg(feature = "webhook")]
            webhook_port: 0,
            #[cfg(feature = "webhook")]
            webhook_cert_path: None,
            #[cfg(feature = "webhook")]
            webhook_cert_name: "tls.crt".to_owned(),
            #[cfg(feature = "webhook")]
            webhook_cert_key: "tls.key".to_owned(),
            #[cfg(feature = "webhook")]
            enable_webhooks: true,
            health_probe_bind_address: "0".to_owned(),
            leader_elect: false,
            leader_election_id: None,
            leader_election_namespace: None,
            leader_election_lease_duration: Duration::from_secs(15),
            leader_election_renew_deadline: Duration::from_secs(10),
            leader_election_retry_period: Duration::from_secs(2),
            graceful_shutdown_timeout: Duration::from_secs(30),
            sync_period: None,
            watch_namespace: None,
            log_format: LogFormat::Text,
            log_level: "info".to_owned(),
            zap_log_level: None,
            zap_devel: false,
            zap_encoder: None,
            zap_stacktrace_level: None,
            max_concurrent_reconciles: 1,
            kube_api_qps: 20.0,
            kube_api_burst: 30,
        }
    }
}

impl Options {
    /// Checks what no single flag can: the leader-election timings must let a leader stop
    /// before a standby may take over (client-go's rule: lease duration > renew deadline >
    /// 1.2 × retry period), with the lease duration as the Lease records it, in whole seconds:
    /// standbys wait that long, not the flag's `10.9s`.
    pub fn validate(&self) -> Result<(), crate::Error> {
        let (lease, renew, retry) = (
            self.leader_election_lease_duration,
            self.leader_election_renew_deadline,
            self.leader_election_retry_period,
        );
        let problem = if retry.is_zero() {
            Some("--leader-election-retry-period must be positive".to_owned())
        } else if renew <= retry.mul_f64(1.2) {
            Some(format!(
                "--leader-election-renew-deadline ({}) must be longer than 1.2 × \
                 --leader-election-retry-period ({})",
                format_duration(renew),
                format_duration(retry)
            ))
        } else if written_lease(lease) <= renew {
            let written = written_lease(lease);
            let recorded = if written == lease {
                String::new()
            } else {
                format!(", which the Lease records as {}", format_duration(written))
            };
            Some(format!(
                "--leader-election-lease-duration ({}{recorded}) must be longer than \
                 --leader-election-renew-deadline ({})",
                format_duration(lease),
                format_duration(renew)
            ))
        } else {
            None
        };
        match problem {
            Some(problem) => Err(crate::Error::Options(problem)),
            None => Ok(()),
        }
    }
}

/// One namespace: kube-runtime keeps one cache per controller and kind, which a watch of one
/// namespace (or of all) fills.
fn single_namespace(value: &str) -> Result<String, String> {
    if value.contains(',') {
        return Err(format!(
            "{value:?}: one namespace only (run one manager per namespace)"
        ));
    }
    Ok(value.trim().to_owned())
}

/// The lease duration as standbys read it from the Lease.
fn written_lease(lease: Duration) -> Duration {
    let seconds = super::elector::lease_duration_seconds(lease);
    Duration::from_secs(u64::try_from(seconds).unwrap_or(1))
}

/// The slowest client allowed: one request every 1000 s. Below it the wait for a token is not
/// a rate any more, and at `1e-30` it is no duration at all.
const MIN_QPS: f64 = 0.001;

fn positive(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(qps) if qps.is_finite() && qps >= MIN_QPS => Ok(qps),
        Ok(qps) if qps.is_finite() && qps > 0.0 => Err(format!(
            "{value:?} is below the slowest rate allowed, {MIN_QPS} requests per second"
        )),
        _ => Err(format!("{value:?} is not a positive number")),
    }
}

/// Parses a bind address as controller-runtime does: `0` disables the server, `:8080` listens
/// on every interface of both families (`[::]:8080`), `host:port` on one.
pub fn parse_bind_address(
    flag: &'static str,
    value: &str,
) -> Result<Option<SocketAddr>, crate::Error> {
    if value == "0" {
        return Ok(None);
    }
    let invalid = || crate::Error::BindAddress {
        flag,
        value: value.to_owned(),
    };
    match value.strip_prefix(':') {
        Some(port) => port
            .parse()
            .map(|port| Some(super::listen::every_interface(port)))
            .map_err(|_| invalid()),
        None => value.parse().map(Some).map_err(|_| invalid()),
    }
}

#[cfg(test)]
mod tests;

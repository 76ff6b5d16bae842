//! The manager's flags, named and defaulted like a kubebuilder manager's, each also readable from
//! an environment variable (a flag wins over its variable).

use std::net::SocketAddr;

/// Flags of a generated operator's manager. Flatten it into the binary's `clap::Parser`.
///
/// `config/manager/manager.yaml` passes `--leader-elect`, `--health-probe-bind-address=:8081`
/// and (through `config/default`) `--metrics-bind-address=:8080`.
#[derive(Clone, Debug, clap::Args)]
pub struct Options {
    /// Where `/metrics` (plain HTTP) listens: `:8080` (every interface), `127.0.0.1:8080`, or `0`
    /// to disable it.
    #[arg(long, env = "METRICS_BIND_ADDRESS", default_value = ":8080")]
    pub metrics_bind_address: String,

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

    /// How long, in seconds, the Lease holds without renewal; a standby replica takes over at
    /// most this long after the leader stops renewing (controller-runtime: 15). The leader renews
    /// a third of this before expiry.
    #[arg(long, env = "LEADER_ELECTION_LEASE_DURATION", default_value_t = 15,
          value_parser = clap::value_parser!(u64).range(2..))]
    pub leader_election_lease_duration: u64,

    /// Log lines as human-readable `text` or as one `json` object per line.
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,

    /// The most verbose level logged (`error`, `warn`, `info`, `debug`, `trace`), or a
    /// tracing-subscriber filter like `info,kube=debug`.
    #[arg(long, env = "LOG_LEVEL", default_value = "info")]
    pub log_level: String,

    /// How many objects of one kind are reconciled at the same time (controller-runtime: 1).
    #[arg(long, env = "MAX_CONCURRENT_RECONCILES", default_value_t = 1,
          value_parser = clap::value_parser!(u16).range(1..))]
    pub max_concurrent_reconciles: u16,

    /// Requests per second to the API server, sustained (client-go: 20).
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
    /// The defaults of every flag, except that both servers are disabled: what tests want.
    fn default() -> Self {
        Options {
            metrics_bind_address: "0".to_owned(),
            health_probe_bind_address: "0".to_owned(),
            leader_elect: false,
            leader_election_id: None,
            leader_election_namespace: None,
            leader_election_lease_duration: 15,
            log_format: LogFormat::Text,
            log_level: "info".to_owned(),
            max_concurrent_reconciles: 1,
            kube_api_qps: 20.0,
            kube_api_burst: 30,
        }
    }
}

fn positive(value: &str) -> Result<f64, String> {
    match value.parse::<f64>() {
        Ok(qps) if qps.is_finite() && qps > 0.0 => Ok(qps),
        _ => Err(format!("{value:?} is not a positive number")),
    }
}

/// Parses a bind address as controller-runtime does: `0` disables the server, `:8080` listens
/// on every interface, `host:port` on one.
pub fn parse_bind_address(
    flag: &'static str,
    value: &str,
) -> Result<Option<SocketAddr>, crate::manager::Error> {
    if value == "0" {
        return Ok(None);
    }
    let full = match value.strip_prefix(':') {
        Some(port) => format!("0.0.0.0:{port}"),
        None => value.to_owned(),
    };
    full.parse()
        .map(Some)
        .map_err(|_| crate::manager::Error::BindAddress {
            flag,
            value: value.to_owned(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Flags {
        #[command(flatten)]
        options: Options,
    }

    fn parse(args: &[&str]) -> Result<Options, clap::Error> {
        Flags::try_parse_from(std::iter::once("manager").chain(args.iter().copied()))
            .map(|f| f.options)
    }

    #[test]
    fn defaults_are_kubebuilders() {
        let options = parse(&[]).unwrap();
        assert_eq!(options.metrics_bind_address, ":8080");
        assert_eq!(options.health_probe_bind_address, ":8081");
        assert!(!options.leader_elect);
        assert_eq!(options.max_concurrent_reconciles, 1);
        assert_eq!(options.kube_api_qps, 20.0);
        assert_eq!(options.kube_api_burst, 30);
        assert_eq!(options.log_format, LogFormat::Text);
    }

    #[test]
    fn the_flags_of_manager_yaml_parse() {
        let options = parse(&[
            "--metrics-bind-address=:8080",
            "--leader-elect",
            "--health-probe-bind-address=:8081",
            "--log-format=json",
        ])
        .unwrap();
        assert!(options.leader_elect);
        assert_eq!(options.log_format, LogFormat::Json);
    }

    #[test]
    fn bad_values_are_refused_by_name() {
        assert!(parse(&["--max-concurrent-reconciles=0"]).is_err());
        let error = parse(&["--kube-api-qps=-1"]).unwrap_err().to_string();
        assert!(error.contains("\"-1\" is not a positive number"), "{error}");
        let error = parse_bind_address("--metrics-bind-address", "localhost").unwrap_err();
        assert_eq!(
            error.to_string(),
            "--metrics-bind-address \"localhost\": expected `0`, `:port` or `ip:port`"
        );
    }

    #[test]
    fn bind_addresses_follow_controller_runtime() {
        assert_eq!(parse_bind_address("f", "0").unwrap(), None);
        assert_eq!(
            parse_bind_address("f", ":8080").unwrap(),
            Some("0.0.0.0:8080".parse().unwrap())
        );
        assert_eq!(
            parse_bind_address("f", "127.0.0.1:0").unwrap(),
            Some("127.0.0.1:0".parse().unwrap())
        );
    }
}

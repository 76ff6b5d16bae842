//! The flags as kubebuilder's manager and controller-runtime name, default and check them.

use super::*;
use clap::Parser;

#[derive(Parser)]
struct Flags {
    #[command(flatten)]
    options: Options,
}

fn parse(args: &[&str]) -> Result<Options, clap::Error> {
    Flags::try_parse_from(std::iter::once("manager").chain(args.iter().copied())).map(|f| f.options)
}

#[test]
fn defaults_are_kubebuilders() {
    let options = parse(&[]).unwrap();
    assert_eq!(options.metrics_bind_address, "0");
    assert!(options.metrics_secure);
    assert_eq!(
        (
            options.metrics_cert_name.as_str(),
            options.metrics_cert_key.as_str()
        ),
        ("tls.crt", "tls.key")
    );
    let seconds = Duration::from_secs;
    assert_eq!(options.leader_election_lease_duration, seconds(15));
    assert_eq!(options.leader_election_renew_deadline, seconds(10));
    assert_eq!(options.leader_election_retry_period, seconds(2));
    assert_eq!(options.graceful_shutdown_timeout, seconds(30));
    assert_eq!(options.sync_period, None);
    assert_eq!(options.watch_namespace, None);
    options.validate().unwrap();
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
        "--metrics-bind-address=:8443",
        "--metrics-cert-path=/tmp/k8s-metrics-server/metrics-certs",
        "--leader-elect",
        "--health-probe-bind-address=:8081",
        "--log-format=json",
        "--sync-period=10h",
        "--watch-namespace=team-a",
        "--graceful-shutdown-timeout=1m30s",
    ])
    .unwrap();
    assert!(options.leader_elect);
    assert_eq!(options.log_format, LogFormat::Json);
    assert_eq!(options.sync_period, Some(Duration::from_secs(36_000)));
    assert_eq!(options.watch_namespace.as_deref(), Some("team-a"));
    assert_eq!(options.graceful_shutdown_timeout, Duration::from_secs(90));
    let insecure = parse(&["--metrics-secure=false"]).unwrap();
    assert!(!insecure.metrics_secure);
    assert!(parse(&["--metrics-secure"]).unwrap().metrics_secure);
    let seconds = parse(&["--leader-election-lease-duration=20"]).unwrap();
    assert_eq!(
        seconds.leader_election_lease_duration,
        Duration::from_secs(20)
    );
}

#[cfg(feature = "webhook")]
#[test]
fn webhook_flags_are_kubebuilders() {
    let options = parse(&[]).unwrap();
    assert_eq!(options.webhook_port, 9443);
    assert_eq!(options.webhook_cert_path, None);
    assert_eq!(
        (
            options.webhook_cert_name.as_str(),
            options.webhook_cert_key.as_str()
        ),
        ("tls.crt", "tls.key")
    );
    assert!(options.enable_webhooks);
    let options = parse(&[
        "--webhook-port=10250",
        "--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs",
        "--enable-webhooks=false",
    ])
    .unwrap();
    assert_eq!(options.webhook_port, 10250);
    assert!(!options.enable_webhooks);
}

#[test]
fn leader_election_timings_must_let_a_leader_stop_first() {
    let with = |lease: &str, renew: &str, retry: &str| {
        parse(&[
            &format!("--leader-election-lease-duration={lease}"),
            &format!("--leader-election-renew-deadline={renew}"),
            &format!("--leader-election-retry-period={retry}"),
        ])
        .unwrap()
        .validate()
        .map_err(|e| e.to_string())
    };
    assert_eq!(with("15s", "10s", "2s"), Ok(()));
    assert_eq!(
        with("10s", "10s", "2s"),
        Err(
            "--leader-election-lease-duration (10s) must be longer than \
             --leader-election-renew-deadline (10s)"
                .to_owned()
        )
    );
    assert!(with("15s", "2s", "2s").unwrap_err().contains("1.2 ×"));
    assert!(with("15s", "10s", "0").unwrap_err().contains("positive"));
}

#[test]
fn bad_values_are_refused_by_name() {
    assert!(parse(&["--max-concurrent-reconciles=0"]).is_err());
    assert!(parse(&["--watch-namespace=a,b"]).is_err());
    let error = parse(&["--leader-election-retry-period=soon"])
        .unwrap_err()
        .to_string();
    assert!(error.contains("\"soon\" is not a duration"), "{error}");
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
        Some("[::]:8080".parse().unwrap())
    );
    assert_eq!(
        parse_bind_address("f", "127.0.0.1:0").unwrap(),
        Some("127.0.0.1:0".parse().unwrap())
    );
}

#[test]
fn extreme_values_are_refused_naming_the_value_and_the_rule() {
    let error = parse(&["--kube-api-qps=1e-30"]).unwrap_err().to_string();
    assert!(
        error.contains("\"1e-30\" is below the slowest rate allowed, 0.001 requests per second"),
        "{error}"
    );
    for flag in ["--graceful-shutdown-timeout", "--sync-period"] {
        let error = parse(&[&format!("{flag}=1e18")]).unwrap_err().to_string();
        assert!(error.contains(flag), "{error}");
        assert!(
            error.contains("\"1e18\" is longer than the longest duration"),
            "{error}"
        );
    }
    let longest = parse(&[
        "--graceful-shutdown-timeout=2562047h",
        "--sync-period=2562047h",
    ])
    .unwrap();
    longest.validate().unwrap();
}

#[test]
fn the_lease_duration_is_checked_as_the_lease_records_it() {
    for (lease, shown) in [("10.9s", "10900ms"), ("10.5s", "10500ms")] {
        let options = parse(&[&format!("--leader-election-lease-duration={lease}")]).unwrap();
        let error = options.validate().unwrap_err().to_string();
        assert_eq!(
            error,
            format!(
                "--leader-election-lease-duration ({shown}, which the Lease records as 10s) must \
                 be longer than --leader-election-renew-deadline (10s)"
            )
        );
    }
    let options = parse(&["--leader-election-lease-duration=11s"]).unwrap();
    options.validate().unwrap();
}

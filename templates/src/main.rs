//! The manager of {{ project_name }}: runs its controllers against the cluster of the current
//! kubeconfig (or, in a Pod, of its service account), with health probes, metrics and leader
//! election as kubebuilder's manager has them.

use std::error::Error;

use clap::Parser;
use kube_lease_manager::LeaseManagerBuilder;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tracing::info;
use tracing_subscriber::EnvFilter;

use {{ crate_name }}::controller;

/// The Lease that replicas of the manager compete for with `--leader-elect`.
const LEADER_ELECTION_LEASE: &str = "{{ project_name }}.{{ domain }}";

/// Runs the controllers of {{ project_name }}.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Flags {
    /// The address the metrics endpoint (`/metrics`, plain HTTP) binds to, like `:8080`; `0`
    /// disables it.
    #[arg(long, default_value = "0")]
    metrics_bind_address: String,
    /// The address the health probes (`/healthz`, `/readyz`) bind to; `0` disables them.
    #[arg(long, default_value = ":8081")]
    health_probe_bind_address: String,
    /// Reconcile only while holding the leader-election Lease, so that one replica works at a
    /// time.
    #[arg(long)]
    leader_elect: bool,
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn Error>> {
    tracing_subscriber::fmt()
        .with_env_filter(EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()))
        .init();
    let flags = Flags::parse();
    let client = kube::Client::try_default().await?;

    serve(&flags.health_probe_bind_address, |path| match path {
        "/healthz" | "/readyz" => Some("ok\n".to_owned()),
        _ => None,
    })
    .await?;
    serve(&flags.metrics_bind_address, |path| {
        (path == "/metrics").then(controller::metrics)
    })
    .await?;

    if !flags.leader_elect {
        controller::run(client).await;
        return Ok(());
    }
    let identity = std::env::var("HOSTNAME").unwrap_or_else(|_| std::process::id().to_string());
    let lease = LeaseManagerBuilder::new(client.clone(), LEADER_ELECTION_LEASE)
        .with_namespace(client.default_namespace())
        .with_identity(identity)
        .build()
        .await?;
    let (mut leader, _renewing) = lease.watch().await;
    info!("waiting to become the leader ({LEADER_ELECTION_LEASE})");
    while !*leader.borrow_and_update() {
        leader.changed().await?;
    }
    info!("became the leader ({LEADER_ELECTION_LEASE})");
    tokio::select! {
        () = controller::run(client) => Ok(()),
        _ = leader.wait_for(|leading| !leading) => Err("lost the leader-election lease".into()),
    }
}

/// Serves `route` (a path to a body, or not found) over plain HTTP on `address` (`:8081` binds
/// every interface), on a task of its own. Does nothing for the address `0`.
async fn serve(address: &str, route: fn(&str) -> Option<String>) -> std::io::Result<()> {
    if address == "0" {
        return Ok(());
    }
    let address = match address.strip_prefix(':') {
        Some(port) => format!("0.0.0.0:{port}"),
        None => address.to_owned(),
    };
    let listener = TcpListener::bind(&address).await?;
    info!(%address, "serving");
    tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            tokio::spawn(async move {
                let mut request = [0; 1024];
                let read = stream.read(&mut request).await.unwrap_or(0);
                let request = String::from_utf8_lossy(&request[..read]);
                let path = request.split_whitespace().nth(1).unwrap_or("/");
                let (status, body) = match route(path) {
                    Some(body) => ("200 OK", body),
                    None => ("404 Not Found", "not found\n".to_owned()),
                };
                let response = format!(
                    "HTTP/1.1 {status}\r\ncontent-type: text/plain; version=0.0.4\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = stream.write_all(response.as_bytes()).await;
            });
        }
    });
    Ok(())
}

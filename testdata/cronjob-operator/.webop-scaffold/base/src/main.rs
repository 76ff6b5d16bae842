//! The manager of cronjob-operator: runs its controllers against the cluster of the environment
//! (in a Pod, its service account; elsewhere, the current kubeconfig) with what a kubebuilder
//! manager has: flags, structured logs, `/metrics` (HTTPS, for scrapers the API server
//! authorizes), `/healthz` and `/readyz`, leader election and a bounded graceful shutdown on
//! SIGTERM. `--help` lists the flags.

use std::process::ExitCode;

use clap::Parser;
use webop::manager::{Manager, Options};

use cronjob_operator::controller;

/// The Lease that replicas compete for with `--leader-elect`.
const LEADER_ELECTION_ID: &str = "cronjob-operator.tutorial.kubebuilder.io";

/// Runs the controllers of cronjob-operator.
#[derive(Debug, Parser)]
#[command(version, about)]
struct Flags {
    #[command(flatten)]
    manager: Options,
}

#[tokio::main]
async fn main() -> ExitCode {
    let flags = Flags::parse();
    if let Err(error) = webop::manager::init_logging(&flags.manager) {
        eprintln!("{error}");
        return ExitCode::FAILURE;
    }
    match run(flags.manager).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            tracing::error!(%error, "manager stopped");
            ExitCode::FAILURE
        }
    }
}

async fn run(options: Options) -> Result<(), webop::manager::Error> {
    let manager = Manager::new(options, LEADER_ELECTION_ID).await?;
    let manager = manager.with_webhooks(cronjob_operator::webhook::webhooks());
    // +webop:scaffold:manager
    manager.run(controller::run).await
}

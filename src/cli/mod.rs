//! The `webop` command line: clap definitions and one thin module per command.

pub mod cargo;
mod crdgen_artifact;
mod create_api;
mod create_webhook;
mod delete_api;
mod delete_webhook;
mod edit;
mod import;
mod import_kubebuilder;
mod init;
mod manifests;
mod upgrade;
#[cfg(feature = "validate")]
mod validate;

use std::ffi::OsString;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;
use clap::{CommandFactory, Parser, Subcommand};

use crate::scaffold::{self, RealFs, Templates};
use crate::scaffolds::{self, Request};

pub use create_api::CreateApiArgs;
pub use create_webhook::CreateWebhookArgs;
pub use delete_api::DeleteApiArgs;
pub use delete_webhook::DeleteWebhookArgs;
pub use edit::EditArgs;
pub use init::{InitArgs, License};
pub use manifests::ManifestsArgs;
pub use upgrade::UpgradeArgs;
#[cfg(feature = "validate")]
pub use validate::ValidateArgs;

/// kubebuilder for Rust: scaffold, build and test Kubernetes operators on kube-rs.
#[derive(Debug, Parser)]
#[command(
    name = "webop",
    version,
    after_help = "Examples:\n  \
        mkdir webapp-operator && cd webapp-operator\n  \
        webop init --domain example.com --repo github.com/example/webapp-operator\n  \
        webop create api --group app --version v1 --kind WebApp --image example/webapp:1.0 --port 8080\n  \
        make manifests build test"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

/// The commands of `webop`.
#[derive(Debug, Subcommand)]
pub enum Command {
    Init(InitArgs),
    /// Scaffold a new API (and its controller), or webhooks for one, into the project.
    #[command(
        subcommand,
        after_help = "Examples:\n  \
            webop create api --group app --version v1 --kind WebApp --image example/webapp:1.0 --port 8080\n  \
            webop create webhook --group app --version v1 --kind WebApp --defaulting --programmatic-validation"
    )]
    Create(CreateCommand),
    /// Remove an API (and its controller), or a kind's webhooks, from the project.
    #[command(
        subcommand,
        after_help = "Examples:\n  \
            webop delete api --group app --version v1 --kind WebApp\n  \
            webop delete webhook --group app --version v1 --kind WebApp --defaulting"
    )]
    Delete(DeleteCommand),
    Edit(EditArgs),
    /// Bring existing APIs to Rust: CRDs as API types with webop's attributes.
    #[command(
        subcommand,
        after_help = "Examples:\n  \
            webop import crd config/crd/bases/app.example.com_webapps.yaml\n  \
            webop import kubebuilder ../my-kubebuilder-project my-operator"
    )]
    Import(import::ImportCommand),
    Manifests(ManifestsArgs),
    Upgrade(UpgradeArgs),
    #[cfg(feature = "validate")]
    Validate(ValidateArgs),
    /// `webop validate` in a webop installed without it: says how to get it.
    #[cfg(not(feature = "validate"))]
    #[command(hide = true, disable_help_flag = true)]
    Validate {
        #[arg(trailing_var_arg = true, allow_hyphen_values = true, hide = true)]
        args: Vec<String>,
    },
    /// Print webop's version.
    #[command(after_help = "Examples:\n  webop version")]
    Version,
    /// Print a shell completion script.
    #[command(after_help = "Examples:\n  \
        webop completion bash > /etc/bash_completion.d/webop\n  \
        webop completion zsh > \"${fpath[1]}/_webop\"\n  \
        webop completion fish > ~/.config/fish/completions/webop.fish")]
    Completion {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
}

/// `webop create ...`.
#[derive(Debug, Subcommand)]
pub enum CreateCommand {
    Api(CreateApiArgs),
    Webhook(CreateWebhookArgs),
}

/// `webop delete ...`.
#[derive(Debug, Subcommand)]
pub enum DeleteCommand {
    Api(DeleteApiArgs),
    Webhook(DeleteWebhookArgs),
}

/// Runs `webop` with the process's arguments in the current directory.
pub fn main() -> ExitCode {
    let cli = Cli::try_parse().unwrap_or_else(|error| {
        let args: Vec<String> = std::env::args().collect();
        if let Some(hint) = bool_flag_hint(&args) {
            // clap colours its message only for a terminal; the tip follows it.
            let _ = error.print();
            eprintln!("\n{hint}");
            std::process::exit(error.exit_code());
        }
        error.exit()
    });
    let result = std::env::current_dir()
        .context("cannot read the current directory")
        .and_then(|cwd| execute(cli, &cwd, &mut std::io::stdout().lock()));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

/// The boolean flags that take their value after `=` (`--namespaced=false`).
const BOOL_FLAGS: [&str; 3] = ["--namespaced", "--resource", "--controller"];

/// A tip for `--namespaced false`, which clap reads as a flag and a stray argument.
fn bool_flag_hint(args: &[String]) -> Option<String> {
    args.windows(2).find_map(|pair| {
        let (flag, value) = (pair[0].as_str(), pair[1].as_str());
        (BOOL_FLAGS.contains(&flag) && matches!(value, "true" | "false"))
            .then(|| format!("tip: boolean flags take their value after `=`: `{flag}={value}`"))
    })
}

/// Runs the command line `args` (the program name first) as if in directory `cwd`, writing the
/// report to `out`. What `webop` runs, minus the process: for tests and benchmarks.
pub fn run<I, T>(args: I, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<T> = args.into_iter().collect();
    let strings: Vec<String> = args
        .iter()
        .map(|a| a.clone().into().to_string_lossy().into_owned())
        .collect();
    let cli = Cli::try_parse_from(args).map_err(|error| match bool_flag_hint(&strings) {
        Some(hint) => anyhow::anyhow!("{error}\n{hint}"),
        None => error.into(),
    })?;
    execute(cli, cwd, out)
}

/// Runs a parsed command line.
pub fn execute(cli: Cli, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    match cli.command {
        Command::Init(args) => init::run(args, cwd, out),
        Command::Create(CreateCommand::Api(args)) => create_api::run(args, cwd, out),
        Command::Create(CreateCommand::Webhook(args)) => create_webhook::run(args, cwd, out),
        Command::Delete(DeleteCommand::Api(args)) => delete_api::run(args, cwd, out),
        Command::Delete(DeleteCommand::Webhook(args)) => delete_webhook::run(args, cwd, out),
        Command::Edit(args) => edit::run(args, cwd, out),
        Command::Import(command) => import::run(command, cwd, out),
        Command::Manifests(args) => manifests::run(args, cwd, out),
        Command::Upgrade(args) => upgrade::run(args, cwd, out),
        #[cfg(feature = "validate")]
        Command::Validate(args) => validate::run(args, cwd, out),
        #[cfg(not(feature = "validate"))]
        Command::Validate { .. } => anyhow::bail!(
            "this webop was built without `webop validate` (it compiles the testkit's API server): \
             install it with `cargo install --locked --features validate` and the source you \
             installed from (`--path <webop source>`)"
        ),
        Command::Version => {
            writeln!(out, "webop {}", env!("CARGO_PKG_VERSION"))?;
            Ok(())
        }
        Command::Completion { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "webop", out);
            Ok(())
        }
    }
}

/// Plans `request` and, unless `dry_run`, writes the files; then prints what happened to each
/// file. A failure prints only the error: nothing was written.
fn scaffold(request: &Request, dry_run: bool, out: &mut dyn Write) -> anyhow::Result<()> {
    let templates = Templates::load()?;
    let mut plan = scaffolds::plan(&RealFs, &templates, request)?;
    let report = plan.report();
    // The scaffold lock joins the plan (written with the files, all or nothing), in one line of
    // the report: its files are webop's bookkeeping, not the project's.
    let recorded = crate::upgrade::record::record(&RealFs, &templates, request, &mut plan)?;
    if !dry_run {
        scaffold::apply(&RealFs, request.root, &plan)?;
    }
    out.write_all(report.as_bytes())?;
    if recorded.changed > 0 {
        writeln!(
            out,
            "Record {}/ (what webop rendered: the base of `webop upgrade`)",
            crate::upgrade::lock::DIR
        )?;
    }
    if dry_run {
        writeln!(out, "dry run: no file was written")?;
    }
    Ok(())
}

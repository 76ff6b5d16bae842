//! Structured logs through `tracing`: text for people, JSON for log collectors.

use tracing_subscriber::EnvFilter;

use super::{Error, LogFormat, Options};

/// Installs the global `tracing` subscriber that `--log-format` and `--log-level` describe.
/// `RUST_LOG`, when set, wins over `--log-level` (the usual tracing convention).
pub fn init_logging(options: &Options) -> Result<(), Error> {
    let filter = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.is_empty() => EnvFilter::try_new(&directives),
        _ => EnvFilter::try_new(&options.log_level),
    }
    .map_err(|e| Error::LogLevel {
        value: options.log_level.clone(),
        reason: e.to_string(),
    })?;
    let builder = tracing_subscriber::fmt().with_env_filter(filter);
    let installed = match options.log_format {
        LogFormat::Text => builder.try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .try_init(),
    };
    installed.map_err(|e| Error::Logging(e.to_string()))
}

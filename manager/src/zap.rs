//! kubebuilder's logging flags (controller-runtime's `zap.Options.BindFlags`): `--zap-log-level`,
//! `--zap-devel`, `--zap-encoder` and `--zap-stacktrace-level`, with their meanings mapped onto
//! `tracing`, so that a chart or manifest written for a kubebuilder operator runs this one.

use tracing::Level;

use super::{LogFormat, Options};

/// A zap level as the flags name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZapLevel {
    /// An integer above 0: logr's `V(n)`, more verbose than debug as it grows.
    Verbose(u8),
    Debug,
    Info,
    /// Only `--zap-devel`'s stack-trace default: no flag value names it.
    Warn,
    Error,
    /// Panics only: they reach the panic hook, never `tracing`.
    Panic,
}

/// `--zap-encoder`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ZapEncoder {
    Json,
    Console,
}

/// `--zap-log-level`: `debug`, `info`, `error`, `panic`, or an integer > 0.
pub fn parse_level(value: &str) -> Result<ZapLevel, String> {
    match value.to_ascii_lowercase().as_str() {
        "debug" => Ok(ZapLevel::Debug),
        "info" => Ok(ZapLevel::Info),
        "error" => Ok(ZapLevel::Error),
        "panic" => Ok(ZapLevel::Panic),
        other => match other.parse::<i64>() {
            Ok(n) if n > 0 => Ok(ZapLevel::Verbose(u8::try_from(n).unwrap_or(u8::MAX))),
            _ => Err(format!(
                "{value:?} is not a log level: debug, info, error, panic, or an integer > 0"
            )),
        },
    }
}

/// `--zap-stacktrace-level`: `info`, `error` or `panic`.
pub fn parse_stacktrace_level(value: &str) -> Result<ZapLevel, String> {
    match value.to_ascii_lowercase().as_str() {
        "info" => Ok(ZapLevel::Info),
        "error" => Ok(ZapLevel::Error),
        "panic" => Ok(ZapLevel::Panic),
        _ => Err(format!(
            "{value:?} is not a stack-trace level: info, error or panic"
        )),
    }
}

impl ZapLevel {
    /// The `tracing` filter directive of `--zap-log-level`.
    fn directive(self) -> &'static str {
        match self {
            ZapLevel::Verbose(1) | ZapLevel::Debug => "debug",
            ZapLevel::Verbose(_) => "trace",
            ZapLevel::Info => "info",
            ZapLevel::Warn => "warn",
            ZapLevel::Error => "error",
            ZapLevel::Panic => "off",
        }
    }

    /// The least severe `tracing` level that is at or above this one, if any.
    fn tracing_level(self) -> Option<Level> {
        match self {
            ZapLevel::Verbose(1) | ZapLevel::Debug => Some(Level::DEBUG),
            ZapLevel::Verbose(_) => Some(Level::TRACE),
            ZapLevel::Info => Some(Level::INFO),
            ZapLevel::Warn => Some(Level::WARN),
            ZapLevel::Error => Some(Level::ERROR),
            ZapLevel::Panic => None,
        }
    }
}

/// How the logger is set up, once the zap flags and ours are reconciled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogSettings {
    pub format: LogFormat,
    /// A tracing-subscriber filter.
    pub filter: String,
    /// Events at this level and more severe carry a stack trace.
    pub stacktrace: Option<Level>,
}

impl LogSettings {
    /// The zap flags win over `--log-format`/`--log-level`; `--zap-devel` gives the defaults
    /// of development mode (console, debug, stack traces from warnings on) to the ones not
    /// given, as controller-runtime does.
    pub fn of(options: &Options) -> Self {
        let devel = options.zap_devel;
        let format = match options.zap_encoder {
            Some(ZapEncoder::Json) => LogFormat::Json,
            Some(ZapEncoder::Console) => LogFormat::Text,
            None if devel => LogFormat::Text,
            None => options.log_format,
        };
        let filter = match options.zap_log_level {
            Some(level) => level.directive().to_owned(),
            None if devel => ZapLevel::Debug.directive().to_owned(),
            None => options.log_level.clone(),
        };
        let stacktrace = match options.zap_stacktrace_level {
            Some(level) => level.tracing_level(),
            None if devel => ZapLevel::Warn.tracing_level(),
            None => None,
        };
        LogSettings {
            format,
            filter,
            stacktrace,
        }
    }
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

    fn settings(args: &[&str]) -> Result<LogSettings, clap::Error> {
        let args = std::iter::once("manager").chain(args.iter().copied());
        Flags::try_parse_from(args).map(|f| LogSettings::of(&f.options))
    }

    #[test]
    fn the_zap_flags_keep_their_meanings() {
        let (text, json) = (LogFormat::Text, LogFormat::Json);
        let cases: [(&[&str], LogFormat, &str, Option<Level>); 7] = [
            (&[], text, "info", None),
            (&["--zap-devel"], text, "debug", Some(Level::WARN)),
            (
                &[
                    "--zap-encoder=json",
                    "--zap-log-level=error",
                    "--zap-stacktrace-level=info",
                ],
                json,
                "error",
                Some(Level::INFO),
            ),
            // The given flags win over development's defaults.
            (
                &[
                    "--zap-devel=true",
                    "--zap-encoder=json",
                    "--zap-log-level=3",
                ],
                json,
                "trace",
                Some(Level::WARN),
            ),
            (&["--zap-log-level=1"], text, "debug", None),
            (&["--zap-log-level=panic"], text, "off", None),
            (
                &["--zap-log-level=debug", "--log-level=warn"],
                text,
                "debug",
                None,
            ),
        ];
        for (args, format, filter, stacktrace) in cases {
            let expected = LogSettings {
                format,
                filter: filter.to_owned(),
                stacktrace,
            };
            assert_eq!(settings(args).unwrap(), expected, "{args:?}");
        }
    }

    #[test]
    fn bad_zap_values_are_refused_naming_the_value_and_the_choices() {
        let error = settings(&["--zap-log-level=0"]).unwrap_err().to_string();
        assert!(
            error
                .contains("\"0\" is not a log level: debug, info, error, panic, or an integer > 0"),
            "{error}"
        );
        let error = settings(&["--zap-stacktrace-level=debug"])
            .unwrap_err()
            .to_string();
        assert!(
            error.contains("\"debug\" is not a stack-trace level: info, error or panic"),
            "{error}"
        );
        let error = settings(&["--zap-encoder=xml"]).unwrap_err().to_string();
        assert!(
            error.contains("xml") && error.contains("console"),
            "{error}"
        );
    }
}

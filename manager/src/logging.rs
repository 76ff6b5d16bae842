//! Structured logs through `tracing`: text for people, JSON for log collectors, set up from
//! `--log-format`/`--log-level` or kubebuilder's zap flags (see [`LogSettings`]). Colour only
//! when the output is a terminal: files and pipes get plain text.

use std::io::IsTerminal;

use tracing::Subscriber;
use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

use super::stack_traces::WithStackTraces;
use super::zap::LogSettings;
use super::{Error, LogFormat, Options};

/// Installs the global `tracing` subscriber the flags describe, writing to standard output.
/// `RUST_LOG`, when set, wins over the level flags (the usual tracing convention).
pub fn init_logging(options: &Options) -> Result<(), Error> {
    let settings = LogSettings::of(options);
    let directives = match std::env::var("RUST_LOG") {
        Ok(directives) if !directives.is_empty() => directives,
        _ => settings.filter.clone(),
    };
    let ansi = std::io::stdout().is_terminal();
    let subscriber = subscriber(&settings, &directives, std::io::stdout, ansi)?;
    tracing::subscriber::set_global_default(subscriber).map_err(|e| Error::Logging(e.to_string()))
}

/// The subscriber of `settings`, filtered by `directives`, writing to `writer`, in colour
/// only with `ansi`.
pub fn subscriber<W>(
    settings: &LogSettings,
    directives: &str,
    writer: W,
    ansi: bool,
) -> Result<Box<dyn Subscriber + Send + Sync>, Error>
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    let filter = EnvFilter::try_new(directives).map_err(|e| Error::LogLevel {
        value: directives.to_owned(),
        reason: e.to_string(),
    })?;
    let json = settings.format == LogFormat::Json;
    let writer = WithStackTraces {
        inner: writer,
        level: settings.stacktrace,
        json,
    };
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(ansi);
    Ok(if json {
        Box::new(
            builder
                .json()
                .flatten_event(true)
                .with_current_span(true)
                .finish(),
        )
    } else {
        Box::new(builder.finish())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    /// A `MakeWriter` collecting everything written.
    #[derive(Clone, Default)]
    struct Collected(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Collected {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    impl<'a> MakeWriter<'a> for Collected {
        type Writer = Collected;
        fn make_writer(&'a self) -> Collected {
            self.clone()
        }
    }

    fn logged(settings: &LogSettings, ansi: bool, log: impl FnOnce()) -> String {
        let collected = Collected::default();
        let subscriber = subscriber(settings, &settings.filter, collected.clone(), ansi).unwrap();
        tracing::subscriber::with_default(subscriber, log);
        String::from_utf8(collected.0.lock().unwrap().clone()).unwrap()
    }

    fn settings(format: LogFormat, stacktrace: Option<tracing::Level>) -> LogSettings {
        LogSettings {
            format,
            filter: "info".to_owned(),
            stacktrace,
        }
    }

    #[test]
    fn no_colour_codes_unless_on_a_terminal() {
        let text = settings(LogFormat::Text, None);
        let plain = logged(&text, false, || tracing::info!(answer = 42, "hello"));
        assert!(
            plain.contains("hello") && plain.contains("answer=42"),
            "{plain}"
        );
        assert!(!plain.contains('\u{1b}'), "{plain:?}");
        let coloured = logged(&text, true, || tracing::info!("hello"));
        assert!(coloured.contains('\u{1b}'), "{coloured:?}");
    }

    #[test]
    fn events_at_the_stacktrace_level_and_above_carry_the_stack() {
        let json = settings(LogFormat::Json, Some(tracing::Level::ERROR));
        let lines = logged(&json, false, || {
            tracing::warn!("slow");
            tracing::error!("failed");
        });
        let objects: Vec<serde_json::Value> = lines
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(objects.len(), 2, "{lines}");
        assert_eq!(objects[0]["message"], "slow");
        assert!(objects[0].get("stacktrace").is_none());
        assert_eq!(objects[1]["message"], "failed");
        let stack = objects[1]["stacktrace"].as_str().unwrap();
        assert!(stack.contains("stack_traces"), "{stack}");
        assert!(!lines.contains('\u{1b}'));
    }

    #[test]
    fn a_bad_filter_is_refused_by_value() {
        let mut bad = settings(LogFormat::Text, None);
        bad.filter = "info,[".to_owned();
        let Err(error) = subscriber(&bad, &bad.filter, std::io::sink, false) else {
            panic!("a bad filter is refused");
        };
        assert!(
            error.to_string().starts_with("--log-level \"info,[\""),
            "{error}"
        );
    }
}

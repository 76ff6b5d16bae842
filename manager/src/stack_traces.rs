//! zap's `stacktrace` for `tracing`: the lines of events at or above `--zap-stacktrace-level`
//! carry the stack they were logged from, in a `stacktrace` field of the JSON object or on the
//! lines below a text line, where zap's encoders put it.

use std::backtrace::Backtrace;
use std::io::{self, Write};

use tracing::{Level, Metadata};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::fmt::writer::EitherWriter;

/// Wraps a [`MakeWriter`]: each event is written at once, as the formatter produced it, plus
/// its stack when its level is at least as severe as `level`.
#[derive(Clone, Debug)]
pub struct WithStackTraces<M> {
    pub inner: M,
    pub level: Option<Level>,
    pub json: bool,
}

/// One event's writer: buffers the formatted line, adds the stack and writes it when dropped.
pub struct EventWriter<W: Write> {
    inner: W,
    buffer: Vec<u8>,
    json: bool,
}

impl<'a, M: MakeWriter<'a>> MakeWriter<'a> for WithStackTraces<M> {
    type Writer = EitherWriter<M::Writer, EventWriter<M::Writer>>;

    fn make_writer(&'a self) -> Self::Writer {
        EitherWriter::A(self.inner.make_writer())
    }

    fn make_writer_for(&'a self, meta: &Metadata<'_>) -> Self::Writer {
        let inner = self.inner.make_writer_for(meta);
        match self.level {
            // `ERROR < WARN < … < TRACE` in tracing: smaller is more severe.
            Some(level) if *meta.level() <= level => EitherWriter::B(EventWriter {
                inner,
                buffer: Vec::new(),
                json: self.json,
            }),
            _ => EitherWriter::A(inner),
        }
    }
}

impl<W: Write> Write for EventWriter<W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.buffer.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl<W: Write> Drop for EventWriter<W> {
    fn drop(&mut self) {
        let stack = Backtrace::force_capture().to_string();
        let line = with_stack(std::mem::take(&mut self.buffer), &stack, self.json);
        let _ = self.inner.write_all(&line);
        let _ = self.inner.flush();
    }
}

/// `line` (one formatted event, ending in a newline) with `stack` added.
fn with_stack(mut line: Vec<u8>, stack: &str, json: bool) -> Vec<u8> {
    let ends_in_newline = line.last() == Some(&b'\n');
    if ends_in_newline {
        line.pop();
    }
    if json && line.last() == Some(&b'}') {
        line.pop();
        let value = serde_json::Value::String(stack.to_owned()).to_string();
        line.extend_from_slice(b",\"stacktrace\":");
        line.extend_from_slice(value.as_bytes());
        line.push(b'}');
    } else {
        line.push(b'\n');
        line.extend_from_slice(stack.trim_end().as_bytes());
    }
    line.push(b'\n');
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_lines_get_a_field_and_text_lines_the_lines_below() {
        let json = with_stack(b"{\"level\":\"ERROR\"}\n".to_vec(), "0: main\n", true);
        let object: serde_json::Value = serde_json::from_slice(&json).unwrap();
        assert_eq!(object["stacktrace"], "0: main\n");
        assert_eq!(object["level"], "ERROR");
        let text = with_stack(b"ERROR failed\n".to_vec(), "0: main\n", false);
        assert_eq!(String::from_utf8(text).unwrap(), "ERROR failed\n0: main\n");
    }
}

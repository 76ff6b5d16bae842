//! The block-style emitter: libyaml's emitter state machine (go-yaml v2 `emitterc.go`) for the
//! events yaml.v2's encoder produces from a JSON value, walked recursively.
//!
//! The output-affecting state is the same as libyaml's: the current column, whether the last
//! thing written was whitespace or indentation, and the stack of indents. Collections are always
//! block style except empty ones, which libyaml writes as `[]` / `{}`.

use serde_json::{Map, Value};

use super::key_order::sort_keys;
use super::number::format_number;
use super::scalar::{Scalar, Style};

/// Indentation step (libyaml's `best_indent`).
pub(super) const BEST_INDENT: usize = 2;
/// Column after which plain and quoted scalars are folded at a space (libyaml's `best_width`).
pub(super) const BEST_WIDTH: usize = 80;
/// Longest key, in bytes, written as `key: value`; longer ones use `? key` / `: value`.
const MAX_SIMPLE_KEY_LENGTH: usize = 128;

/// Where a node sits, as far as style decisions care.
#[derive(Clone, Copy, Default)]
struct Context {
    /// A key or value of a mapping.
    mapping: bool,
    /// A key written in the `key: value` form.
    simple_key: bool,
}

pub(super) struct Emitter {
    pub(super) out: String,
    /// Characters (not bytes) written on the current line.
    pub(super) column: usize,
    /// The last thing written was whitespace (no separating space needed).
    pub(super) whitespace: bool,
    /// Only indentation has been written on the current line so far.
    pub(super) indention: bool,
    /// Current indent; -1 before the root node.
    pub(super) indent: isize,
    indents: Vec<isize>,
}

impl Emitter {
    /// One YAML document for `value`, as `yaml.v2.Marshal` writes it (no `---`, final newline).
    pub(super) fn document(value: &Value) -> String {
        let mut emitter = Emitter {
            out: String::new(),
            column: 0,
            whitespace: true,
            indention: true,
            indent: -1,
            indents: Vec::new(),
        };
        emitter.node(value, Context::default());
        // DOCUMENT-END: end the last line.
        emitter.write_indent();
        emitter.out
    }

    fn node(&mut self, value: &Value, context: Context) {
        match value {
            Value::Null => self.scalar(&Scalar::plain("null".into()), context),
            Value::Bool(b) => self.scalar(&Scalar::plain(b.to_string()), context),
            Value::Number(n) => self.scalar(&Scalar::plain(format_number(n)), context),
            Value::String(s) => self.scalar(&Scalar::for_string(s), context),
            Value::Array(items) if items.is_empty() => self.empty_flow_collection("[", "]"),
            Value::Array(items) => self.block_sequence(items, context),
            Value::Object(map) if map.is_empty() => self.empty_flow_collection("{", "}"),
            Value::Object(map) => self.block_mapping(map),
        }
    }

    fn empty_flow_collection(&mut self, open: &str, close: &str) {
        self.write_indicator(open, true, true, false);
        self.write_indicator(close, false, false, false);
    }

    fn block_sequence(&mut self, items: &[Value], context: Context) {
        // A sequence that is a mapping value starts on the key's line and is not indented.
        let indentless = context.mapping && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, Context::default());
        }
        self.pop_indent();
    }

    fn block_mapping(&mut self, map: &Map<String, Value>) {
        self.increase_indent(false, false);
        let mut entries: Vec<(&str, &Value)> = map.iter().map(|(k, v)| (k.as_str(), v)).collect();
        sort_keys(&mut entries);
        let value_context = Context {
            mapping: true,
            simple_key: false,
        };
        for (key, value) in entries {
            self.write_indent();
            let key = Scalar::for_string(key);
            if !key.analysis.multiline && key.text.len() <= MAX_SIMPLE_KEY_LENGTH {
                self.scalar(
                    &key,
                    Context {
                        mapping: true,
                        simple_key: true,
                    },
                );
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.scalar(&key, value_context);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(value, value_context);
        }
        self.pop_indent();
    }

    fn scalar(&mut self, scalar: &Scalar, context: Context) {
        let style = scalar.select_style(context.simple_key);
        self.increase_indent(true, false);
        let allow_breaks = !context.simple_key;
        let text = scalar.text.as_str();
        match style {
            Style::Plain => self.write_plain(text, allow_breaks),
            Style::SingleQuoted => self.write_single_quoted(text, allow_breaks),
            Style::DoubleQuoted => self.write_double_quoted(text, allow_breaks),
            Style::Literal => self.write_literal(text),
        }
        self.pop_indent();
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT as isize } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT as isize;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().expect("indent pushed before popped");
    }

    // Output primitives (libyaml's put / put_break / write / write_indent / write_indicator).

    pub(super) fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    pub(super) fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    /// Copies the character at byte `i` of `text`; returns the index of the next one.
    pub(super) fn write_char(&mut self, text: &str, i: usize) -> usize {
        let c = text[i..]
            .chars()
            .next()
            .expect("index at a character boundary");
        self.put(c);
        i + c.len_utf8()
    }

    /// Copies the line break at byte `i`; a `\n` is written as the configured break.
    pub(super) fn write_break(&mut self, text: &str, i: usize) -> usize {
        if text.as_bytes()[i] == b'\n' {
            self.put_break();
            i + 1
        } else {
            let next = self.write_char(text, i);
            self.column = 0;
            next
        }
    }

    pub(super) fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    pub(super) fn write_indicator(
        &mut self,
        indicator: &str,
        need_whitespace: bool,
        is_whitespace: bool,
        is_indention: bool,
    ) {
        if need_whitespace && !self.whitespace {
            self.put(' ');
        }
        for c in indicator.chars() {
            self.put(c);
        }
        self.whitespace = is_whitespace;
        self.indention = self.indention && is_indention;
    }
}

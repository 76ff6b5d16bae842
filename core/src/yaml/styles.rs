//! The four scalar writers of libyaml's emitter (plain, single-quoted, double-quoted, literal),
//! with its folding at [`BEST_WIDTH`].

use super::chars::{is_break, is_printable, is_space, starts_with_bom, width};
use super::emitter::{BEST_INDENT, BEST_WIDTH, Emitter};

impl Emitter {
    pub(super) fn write_plain(&mut self, text: &str, allow_breaks: bool) {
        if !self.whitespace {
            self.put(' ');
        }
        let b = text.as_bytes();
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < b.len() {
            if is_space(b, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && !is_space(b, i + 1) {
                    self.write_indent();
                    i += 1;
                } else {
                    i = self.write_char(text, i);
                }
                spaces = true;
            } else if is_break(b, i) {
                if !breaks && b[i] == b'\n' {
                    self.put_break();
                }
                i = self.write_break(text, i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                i = self.write_char(text, i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    pub(super) fn write_single_quoted(&mut self, text: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        let b = text.as_bytes();
        let (mut spaces, mut breaks) = (false, false);
        let mut i = 0;
        while i < b.len() {
            if is_space(b, i) {
                let fold = allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && i > 0
                    && i + 1 < b.len()
                    && !is_space(b, i + 1);
                if fold {
                    self.write_indent();
                    i += 1;
                } else {
                    i = self.write_char(text, i);
                }
                spaces = true;
            } else if is_break(b, i) {
                if !breaks && b[i] == b'\n' {
                    self.put_break();
                }
                i = self.write_break(text, i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if b[i] == b'\'' {
                    self.put('\'');
                }
                i = self.write_char(text, i);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    pub(super) fn write_double_quoted(&mut self, text: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let b = text.as_bytes();
        let escape_all = starts_with_bom(b);
        let mut spaces = false;
        let mut i = 0;
        while i < b.len() {
            if escape_all || !is_printable(b, i) || is_break(b, i) || b[i] == b'"' || b[i] == b'\\'
            {
                let c = text[i..]
                    .chars()
                    .next()
                    .expect("index at a character boundary");
                i += c.len_utf8();
                self.put('\\');
                self.write_escape(c);
                spaces = false;
            } else if is_space(b, i) {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i > 0 && i + 1 < b.len() {
                    self.write_indent();
                    if is_space(b, i + 1) {
                        self.put('\\');
                    }
                    i += width(b[i]);
                } else {
                    i = self.write_char(text, i);
                }
                spaces = true;
            } else {
                i = self.write_char(text, i);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The part of a double-quoted escape after the backslash.
    fn write_escape(&mut self, c: char) {
        let short = match c {
            '\0' => Some('0'),
            '\u{07}' => Some('a'),
            '\u{08}' => Some('b'),
            '\t' => Some('t'),
            '\n' => Some('n'),
            '\u{0b}' => Some('v'),
            '\u{0c}' => Some('f'),
            '\r' => Some('r'),
            '\u{1b}' => Some('e'),
            '"' => Some('"'),
            '\\' => Some('\\'),
            '\u{85}' => Some('N'),
            '\u{a0}' => Some('_'),
            '\u{2028}' => Some('L'),
            '\u{2029}' => Some('P'),
            _ => None,
        };
        if let Some(short) = short {
            self.put(short);
            return;
        }
        let code = u32::from(c);
        let (prefix, digits) = match code {
            0..=0xFF => ('x', 2),
            0x100..=0xFFFF => ('u', 4),
            _ => ('U', 8),
        };
        self.put(prefix);
        for c in format!("{code:0digits$X}").chars() {
            self.put(c);
        }
    }

    pub(super) fn write_literal(&mut self, text: &str) {
        self.write_indicator("|", true, false, false);
        self.write_block_scalar_hints(text);
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let b = text.as_bytes();
        let mut breaks = true;
        let mut i = 0;
        while i < b.len() {
            if is_break(b, i) {
                i = self.write_break(text, i);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                i = self.write_char(text, i);
                self.indention = false;
                breaks = false;
            }
        }
    }

    /// The indentation hint (text starting with a space or break) and the chomping indicator:
    /// `-` without a final break, none for exactly one, `+` for more.
    fn write_block_scalar_hints(&mut self, text: &str) {
        let b = text.as_bytes();
        if is_space(b, 0) || is_break(b, 0) {
            let hint = char::from_digit(BEST_INDENT as u32, 10).expect("indent is one digit");
            self.write_indicator(&hint.to_string(), false, false, false);
        }
        let mut chars = text.chars().rev();
        let last_is_break = chars.next().is_some_and(is_break_char);
        let chomp = if !last_is_break {
            Some("-")
        } else {
            match chars.next() {
                None => Some("+"),
                Some(c) if is_break_char(c) => Some("+"),
                Some(_) => None,
            }
        };
        if let Some(chomp) = chomp {
            self.write_indicator(chomp, false, false, false);
        }
    }
}

fn is_break_char(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

//! The part of Go an API package is written in: the package clause, imports, type
//! declarations (structs with tagged fields, named and alias types), constant blocks, and the
//! comments controller-gen reads (doc comments and `+` markers, associated with declarations and
//! fields by controller-gen's rules). Function bodies are skipped, their braces balanced.
//!
//! Hand-written rather than the `gosyn` crate: the subset is small (a lexer and a declaration
//! parser of a few hundred lines), and what matters is comment association, which must follow
//! controller-gen's collector (the closest non-doc comment group and the doc group of a node;
//! line comments skipped; free comment groups at the top level are package markers) and which a
//! general Go AST leaves to its user anyway.

mod lexer;
mod parser;

use std::fmt;

pub use parser::parse;

/// A Go file that does not parse: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.message)
    }
}

/// One `+marker` comment line, without its `//` and leading spaces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MarkerLine {
    pub text: String,
    pub line: usize,
}

/// A parsed Go file.
#[derive(Clone, Debug, Default)]
pub struct GoFile {
    pub path: String,
    pub package: String,
    /// Markers of the package: the file's doc comment and free comments at the top level.
    pub package_markers: Vec<MarkerLine>,
    /// `(name, import path)`: the name is the alias, or the path's last element.
    pub imports: Vec<(String, String)>,
    pub types: Vec<TypeSpec>,
    pub consts: Vec<ConstSpec>,
    /// `(receiver type, method)` of its methods (`func (p *Position) MarshalJSON() ...`).
    pub methods: Vec<(String, String)>,
}

impl GoFile {
    /// The import path a package name stands for in this file.
    pub fn import_path(&self, name: &str) -> Option<&str> {
        self.imports
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, p)| p.as_str())
    }
}

/// `type Name T` or `type Name = T`.
#[derive(Clone, Debug)]
pub struct TypeSpec {
    pub name: String,
    pub line: usize,
    /// The doc comment's lines as controller-gen reads them (markers left out).
    pub doc: Vec<String>,
    pub markers: Vec<MarkerLine>,
    /// `type Name = T`.
    pub alias: bool,
    pub ty: GoType,
}

/// A type expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoType {
    /// `name` or `pkg.name`.
    Named {
        pkg: Option<String>,
        name: String,
    },
    Pointer(Box<GoType>),
    Slice(Box<GoType>),
    /// `[N]T`: the length as written.
    Array(String, Box<GoType>),
    Map(Box<GoType>, Box<GoType>),
    Struct(Vec<Field>),
    /// A type with no schema (interface, func, chan, generic instance): what it is.
    Other(String),
}

/// One struct field (a field declaring several names is one per name).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// `None` for an embedded field.
    pub name: Option<String>,
    pub line: usize,
    pub ty: GoType,
    /// The raw tag (`json:"name,omitempty"`).
    pub tag: Option<String>,
    pub doc: Vec<String>,
    pub markers: Vec<MarkerLine>,
}

impl Field {
    /// The value of `key` in the tag, as `reflect.StructTag.Lookup` reads it.
    pub fn tag_value(&self, key: &str) -> Option<String> {
        let mut rest = self.tag.as_deref()?;
        loop {
            rest = rest.trim_start_matches(' ');
            let colon = rest.find(':')?;
            let name = &rest[..colon];
            let quoted = rest[colon + 1..].strip_prefix('"')?;
            let mut end = None;
            let mut escaped = false;
            for (i, c) in quoted.char_indices() {
                match c {
                    '\\' if !escaped => escaped = true,
                    '"' if !escaped => {
                        end = Some(i);
                        break;
                    }
                    _ => escaped = false,
                }
            }
            let end = end?;
            if name == key {
                return Some(quoted[..end].replace("\\\"", "\"").replace("\\\\", "\\"));
            }
            rest = &quoted[end + 1..];
        }
    }
}

/// One constant of a `const` declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConstSpec {
    pub name: String,
    pub line: usize,
    /// The declared type's name (repeated from the previous spec when omitted, as Go does).
    pub ty: Option<String>,
    /// The value when it is a string literal.
    pub value: Option<String>,
}

/// A comment group's doc lines as Go's `CommentGroup.Text` gives them after controller-gen
/// dropped its marker comments: comment markers and the first space of a line comment removed,
/// trailing spaces trimmed, leading and trailing blank lines dropped, blank runs folded.
pub fn doc_lines(comments: &[&str]) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for comment in comments {
        if let Some(body) = comment.strip_prefix("//") {
            if is_directive(body) {
                continue;
            }
            lines.push(body.strip_prefix(' ').unwrap_or(body).to_owned());
        } else {
            let body = comment
                .strip_prefix("/*")
                .and_then(|b| b.strip_suffix("*/"))
                .unwrap_or(comment);
            // controller-gen trims every line of a /* */ comment.
            lines.extend(body.split('\n').map(|l| l.trim().to_owned()));
        }
    }
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        let line = line.trim_end().to_owned();
        if line.is_empty() && out.last().is_none_or(String::is_empty) {
            continue;
        }
        out.push(line);
    }
    while out.last().is_some_and(String::is_empty) {
        out.pop();
    }
    out
}

/// `//go:generate`-style directives, which `CommentGroup.Text` leaves out.
fn is_directive(body: &str) -> bool {
    if body.starts_with("line ") {
        return true;
    }
    let Some((name, _)) = body.split_once(':') else {
        return false;
    };
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        && body[name.len() + 1..]
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

/// Whether a comment is a marker comment: a `//` comment whose first non-space is `+`.
pub fn is_marker(comment: &str) -> bool {
    comment
        .strip_prefix("//")
        .is_some_and(|body| body.trim_start().starts_with('+'))
}

#[cfg(test)]
mod tests;

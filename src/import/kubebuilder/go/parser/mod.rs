//! Go declarations from tokens, with comments associated as controller-gen's marker collector
//! associates them.

// The parser's methods, split by what they read; they share `Parser`'s cursor and the token
// helpers below, which child modules see without widening them.
mod declarations;
mod type_expr;

use super::lexer::{Comment, Tok, Token, lex};
use super::{GoFile, MarkerLine, ParseError, doc_lines, is_marker};

/// Parses the Go file `path` (named in errors) holding `text`.
pub fn parse(path: &str, text: &str) -> Result<GoFile, ParseError> {
    let (toks, comments) = lex(path, text)?;
    let mut p = Parser {
        path,
        toks,
        comments,
        pos: 0,
    };
    p.file()
}

struct Parser<'a> {
    path: &'a str,
    toks: Vec<Token>,
    comments: Vec<Comment>,
    pos: usize,
}

/// The comment groups before a node: the free ones, the closest non-doc group, and the doc.
#[derive(Default)]
struct Around {
    free: Vec<MarkerLine>,
    markers: Vec<MarkerLine>,
    doc: Vec<String>,
}

impl Parser<'_> {
    fn error<T>(&self, message: impl Into<String>) -> Result<T, ParseError> {
        let line = self
            .toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(1, |t| t.line);
        Err(ParseError {
            file: self.path.to_owned(),
            line,
            message: message.into(),
        })
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }

    fn is(&self, punct: &str) -> bool {
        matches!(self.peek(), Some(Tok::Punct(p)) if *p == punct)
    }

    fn is_word(&self, word: &str) -> bool {
        matches!(self.peek(), Some(Tok::Ident(w)) if w == word)
    }

    fn line(&self) -> usize {
        self.toks.get(self.pos).map_or(0, |t| t.line)
    }

    fn offset(&self) -> usize {
        self.toks.get(self.pos).map_or(usize::MAX, |t| t.offset)
    }

    /// The offset just after the last token read: where the comments of the next node start.
    fn boundary(&self) -> usize {
        match self.pos.checked_sub(1).and_then(|i| self.toks.get(i)) {
            Some(t) => t.offset + 1,
            None => 0,
        }
    }

    fn expect(&mut self, punct: &str) -> Result<(), ParseError> {
        if self.is(punct) {
            self.pos += 1;
            Ok(())
        } else {
            self.error(format!("expected `{punct}`, found {}", self.found()))
        }
    }

    fn found(&self) -> String {
        match self.peek() {
            Some(Tok::Ident(w)) => format!("`{w}`"),
            Some(Tok::Str(s)) => format!("{s:?}"),
            Some(Tok::Lit(l)) => format!("`{l}`"),
            Some(Tok::Punct(";")) => "the end of the line".into(),
            Some(Tok::Punct(p)) => format!("`{p}`"),
            None => "the end of the file".into(),
        }
    }

    fn ident(&mut self) -> Result<String, ParseError> {
        match self.peek() {
            Some(Tok::Ident(w)) => {
                let w = w.clone();
                self.pos += 1;
                Ok(w)
            }
            _ => self.error(format!("expected a name, found {}", self.found())),
        }
    }

    /// The comment groups between `from` and the current token, by controller-gen's rules.
    fn around(&self, from: usize) -> Around {
        let until = self.offset();
        let mut groups: Vec<Vec<&Comment>> = Vec::new();
        for c in self
            .comments
            .iter()
            .filter(|c| c.offset >= from && c.offset < until && !c.trailing)
        {
            match groups.last_mut() {
                Some(group) if c.line <= group.last().map_or(0, |l| l.end_line) + 1 => {
                    group.push(c)
                }
                _ => groups.push(vec![c]),
            }
        }
        let mut around = Around::default();
        let line = self.line();
        let doc = match groups.last() {
            Some(group) if group.last().is_some_and(|c| c.end_line + 1 == line) => groups.pop(),
            _ => None,
        };
        let closest = groups.pop();
        for group in &groups {
            around.free.extend(markers_of(group));
        }
        if let Some(group) = &closest {
            around.markers.extend(markers_of(group));
        }
        if let Some(group) = &doc {
            around.markers.extend(markers_of(group));
            let texts: Vec<&str> = group
                .iter()
                .map(|c| c.text.as_str())
                .filter(|t| !is_marker(t))
                .collect();
            around.doc = doc_lines(&texts);
        }
        around
    }

    /// Skips to the `;` or `)` that ends a statement, over balanced brackets.
    fn skip_statement(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                None | Some(Tok::Punct(";" | ")")) => return Ok(()),
                Some(Tok::Punct("(")) => self.skip_balanced("(", ")")?,
                Some(Tok::Punct("[")) => self.skip_balanced("[", "]")?,
                Some(Tok::Punct("{")) => self.skip_balanced("{", "}")?,
                Some(Tok::Punct("}" | "]")) => {
                    return self.error(format!("unbalanced {}", self.found()));
                }
                _ => self.pos += 1,
            }
        }
    }

    fn skip_balanced(&mut self, open: &str, close: &str) -> Result<(), ParseError> {
        let start = self.line();
        self.expect(open)?;
        let mut depth = 1;
        while depth > 0 {
            match self.peek() {
                None => {
                    return Err(ParseError {
                        file: self.path.to_owned(),
                        line: start,
                        message: format!("`{open}` is not closed"),
                    });
                }
                Some(Tok::Punct(p)) if *p == open => depth += 1,
                Some(Tok::Punct(p)) if *p == close => depth -= 1,
                _ => {}
            }
            self.pos += 1;
        }
        Ok(())
    }
}

fn markers_of(group: &[&Comment]) -> Vec<MarkerLine> {
    group
        .iter()
        .filter(|c| is_marker(&c.text))
        .map(|c| MarkerLine {
            text: c.text[2..].trim().trim_start_matches('+').to_owned(),
            line: c.line,
        })
        .collect()
}

//! Go's tokens, as the Go specification defines them, for the declarations an API package
//! holds: identifiers, literals, operators, and the semicolons Go inserts at line ends. Comments
//! are kept aside with their lines, and whether they trail a token on their line (a line
//! comment, which is never a doc comment).

use super::ParseError;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    Ident(String),
    /// A string literal's value (interpreted or raw).
    Str(String),
    /// A number or rune literal, as written.
    Lit(String),
    /// An operator or delimiter; `;` includes the ones inserted at line ends.
    Punct(&'static str),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub line: usize,
    pub offset: usize,
}

/// One `//` or `/* */` comment.
#[derive(Clone, Debug)]
pub struct Comment {
    /// The comment as written, with its `//` or `/*`.
    pub text: String,
    pub line: usize,
    pub end_line: usize,
    pub offset: usize,
    /// On the line of the token before it: a line comment.
    pub trailing: bool,
}

const PUNCTS: [&str; 48] = [
    "<<=", ">>=", "&^=", "...", "&&", "||", "<-", "++", "--", "==", "!=", "<=", ">=", ":=", "+=",
    "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<", ">>", "&^", "~", "+", "-", "*", "/", "%", "&",
    "|", "^", "<", ">", "=", "!", ":", "(", ")", "[", "]", "{", "}", ",", ";", ".",
];

/// The tokens and comments of `text`; `file` names it in errors.
pub fn lex(file: &str, text: &str) -> Result<(Vec<Token>, Vec<Comment>), ParseError> {
    let bytes = text.as_bytes();
    let mut tokens: Vec<Token> = Vec::new();
    let mut comments = Vec::new();
    let (mut i, mut line) = (0, 1);
    let error = |line: usize, message: String| ParseError {
        file: file.to_owned(),
        line,
        message,
    };
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            if ends_statement(tokens.last()) && tokens.last().is_some_and(|t| t.line == line) {
                tokens.push(Token {
                    tok: Tok::Punct(";"),
                    line,
                    offset: i,
                });
            }
            line += 1;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let trailing = tokens
            .last()
            .is_some_and(|t| t.line == line && t.tok != Tok::Punct(";"));
        if text[i..].starts_with("//") {
            let end = text[i..].find('\n').map_or(bytes.len(), |n| i + n);
            comments.push(Comment {
                text: text[i..end].trim_end_matches('\r').to_owned(),
                line,
                end_line: line,
                offset: i,
                trailing,
            });
            i = end;
            continue;
        }
        if text[i..].starts_with("/*") {
            let end = text[i + 2..]
                .find("*/")
                .map(|n| i + 2 + n + 2)
                .ok_or_else(|| error(line, "a /* comment is not closed".into()))?;
            let body = &text[i..end];
            let newlines = body.matches('\n').count();
            comments.push(Comment {
                text: body.to_owned(),
                line,
                end_line: line + newlines,
                offset: i,
                trailing,
            });
            // A comment spanning lines ends a statement like a newline does.
            if newlines > 0 && ends_statement(tokens.last()) {
                tokens.push(Token {
                    tok: Tok::Punct(";"),
                    line,
                    offset: i,
                });
            }
            line += newlines;
            i = end;
            continue;
        }
        let start = i;
        let tok = if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 {
            while i < bytes.len()
                && (bytes[i] == b'_' || bytes[i].is_ascii_alphanumeric() || bytes[i] >= 0x80)
            {
                i += 1;
            }
            Tok::Ident(text[start..i].to_owned())
        } else if c.is_ascii_digit()
            || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric()
                    || bytes[i] == b'.'
                    || bytes[i] == b'_'
                    || ((bytes[i] == b'+' || bytes[i] == b'-')
                        && matches!(bytes[i - 1], b'e' | b'E' | b'p' | b'P')))
            {
                i += 1;
            }
            Tok::Lit(text[start..i].to_owned())
        } else if c == b'`' {
            let end = text[i + 1..]
                .find('`')
                .map(|n| i + 1 + n)
                .ok_or_else(|| error(line, "a raw string is not closed".into()))?;
            let value = text[i + 1..end].replace('\r', "");
            line += value.matches('\n').count();
            i = end + 1;
            Tok::Str(value)
        } else if c == b'"' || c == b'\'' {
            let (value, end) = quoted(text, i).map_err(|m| error(line, m))?;
            i = end;
            if c == b'"' {
                Tok::Str(value)
            } else {
                Tok::Lit(text[start..end].to_owned())
            }
        } else {
            let punct = PUNCTS
                .iter()
                .find(|p| text[i..].starts_with(**p))
                .ok_or_else(|| {
                    error(
                        line,
                        format!(
                            "unexpected character {:?}",
                            text[i..].chars().next().unwrap_or(' ')
                        ),
                    )
                })?;
            i += punct.len();
            Tok::Punct(punct)
        };
        tokens.push(Token {
            tok,
            line,
            offset: start,
        });
    }
    if ends_statement(tokens.last()) {
        tokens.push(Token {
            tok: Tok::Punct(";"),
            line,
            offset: bytes.len(),
        });
    }
    Ok((tokens, comments))
}

/// Go's keywords but the four after which a newline ends a statement.
const KEYWORDS: [&str; 21] = [
    "case",
    "chan",
    "const",
    "default",
    "defer",
    "else",
    "for",
    "func",
    "go",
    "goto",
    "if",
    "import",
    "interface",
    "map",
    "package",
    "range",
    "select",
    "struct",
    "switch",
    "type",
    "var",
];

/// Whether a newline after `last` inserts a semicolon (the Go specification's rule).
fn ends_statement(last: Option<&Token>) -> bool {
    match last.map(|t| &t.tok) {
        Some(Tok::Ident(word)) => !KEYWORDS.contains(&word.as_str()),
        Some(Tok::Str(_) | Tok::Lit(_)) => true,
        Some(Tok::Punct(p)) => matches!(*p, ")" | "]" | "}" | "++" | "--"),
        None => false,
    }
}

/// The value of the interpreted string or rune literal at `start`, and where it ends.
fn quoted(text: &str, start: usize) -> Result<(String, usize), String> {
    let quote = text.as_bytes()[start] as char;
    let mut out = String::new();
    let mut chars = text[start + 1..].char_indices();
    while let Some((n, c)) = chars.next() {
        match c {
            '\n' => return Err("a string literal is not closed on its line".into()),
            c if c == quote => return Ok((out, start + 1 + n + 1)),
            '\\' => {
                let (_, escape) = chars.next().ok_or("a string literal is not closed")?;
                match escape {
                    'n' => out.push('\n'),
                    't' => out.push('\t'),
                    'r' => out.push('\r'),
                    'a' => out.push('\u{7}'),
                    'b' => out.push('\u{8}'),
                    'f' => out.push('\u{c}'),
                    'v' => out.push('\u{b}'),
                    '\\' | '\'' | '"' => out.push(escape),
                    'x' | 'u' | 'U' => {
                        let len = match escape {
                            'x' => 2,
                            'u' => 4,
                            _ => 8,
                        };
                        let hex: String = (0..len)
                            .filter_map(|_| chars.next().map(|(_, c)| c))
                            .collect();
                        let code = u32::from_str_radix(&hex, 16)
                            .map_err(|_| format!("invalid escape \\{escape}{hex}"))?;
                        out.push(
                            char::from_u32(code)
                                .ok_or(format!("invalid escape \\{escape}{hex}"))?,
                        );
                    }
                    '0'..='7' => {
                        let rest: String = (0..2)
                            .filter_map(|_| chars.next().map(|(_, c)| c))
                            .collect();
                        let code = u32::from_str_radix(&format!("{escape}{rest}"), 8)
                            .map_err(|_| format!("invalid escape \\{escape}{rest}"))?;
                        out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                    }
                    other => return Err(format!("unknown escape \\{other} in a string literal")),
                }
            }
            c => out.push(c),
        }
    }
    Err("a string literal is not closed".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semicolons_are_inserted_at_line_ends_and_comments_kept_aside() {
        let (tokens, comments) =
            lex("a.go", "package v1 // the package\n\ntype A struct{}\n").unwrap();
        let toks: Vec<&Tok> = tokens.iter().map(|t| &t.tok).collect();
        assert_eq!(toks[0], &Tok::Ident("package".into()));
        assert_eq!(toks[2], &Tok::Punct(";"));
        assert_eq!(toks.last(), Some(&&Tok::Punct(";")));
        assert_eq!(comments.len(), 1);
        assert!(comments[0].trailing);
    }

    #[test]
    fn string_literals_are_read_with_their_escapes() {
        let (tokens, _) = lex("a.go", "x := \"a\\tb\\\"\" + `raw\\n`").unwrap();
        assert_eq!(tokens[2].tok, Tok::Str("a\tb\"".into()));
        assert_eq!(tokens[4].tok, Tok::Str("raw\\n".into()));
        assert!(lex("a.go", "x := \"open\n").is_err());
    }
}

//! Go declarations from tokens, with comments associated as controller-gen's marker collector
//! associates them.

use super::lexer::{Comment, Tok, Token, lex};
use super::{
    ConstSpec, Field, GoFile, GoType, MarkerLine, ParseError, TypeSpec, doc_lines, is_marker,
};

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

    fn file(&mut self) -> Result<GoFile, ParseError> {
        let mut file = GoFile {
            path: self.path.to_owned(),
            ..GoFile::default()
        };
        let around = self.around(0);
        file.package_markers
            .extend(around.free.into_iter().chain(around.markers));
        if !self.is_word("package") {
            return self.error(format!("expected `package`, found {}", self.found()));
        }
        self.pos += 1;
        file.package = self.ident()?;
        self.expect(";")?;
        while self.pos < self.toks.len() {
            let from = self.boundary();
            let around = self.around(from);
            let word = self.ident()?;
            match word.as_str() {
                "import" => self.group(|p| p.import(&mut file))?,
                "type" if self.is("(") => {
                    file.package_markers
                        .extend(around.free.into_iter().chain(around.markers));
                    self.group(|p| {
                        let inner = p.around(p.boundary());
                        let spec = p.type_spec(inner)?;
                        file.types.push(spec);
                        Ok(())
                    })?;
                }
                "type" => {
                    file.package_markers.extend(around.free.clone());
                    let spec = self.type_spec(around)?;
                    file.types.push(spec);
                }
                "const" => {
                    file.package_markers
                        .extend(around.free.into_iter().chain(around.markers));
                    let mut previous: Option<String> = None;
                    self.group(|p| {
                        let specs = p.const_spec(&mut previous)?;
                        file.consts.extend(specs);
                        Ok(())
                    })?;
                }
                "var" => {
                    file.package_markers
                        .extend(around.free.into_iter().chain(around.markers));
                    self.group(|p| p.skip_statement())?;
                }
                "func" => {
                    file.package_markers
                        .extend(around.free.into_iter().chain(around.markers));
                    self.func()?;
                }
                other => {
                    self.pos -= 1;
                    return self.error(format!(
                        "expected a declaration (import, type, const, var or func), found `{other}`"
                    ));
                }
            }
            self.expect(";")?;
        }
        // Comment groups after the last declaration are free groups of the package too.
        let around = self.around(self.boundary());
        file.package_markers
            .extend(around.free.into_iter().chain(around.markers));
        Ok(file)
    }

    /// One spec, or `( spec; spec; ... )`.
    fn group(
        &mut self,
        mut spec: impl FnMut(&mut Self) -> Result<(), ParseError>,
    ) -> Result<(), ParseError> {
        if !self.is("(") {
            return spec(self);
        }
        self.pos += 1;
        loop {
            if self.is(")") {
                self.pos += 1;
                return Ok(());
            }
            if self.is(";") {
                self.pos += 1;
                continue;
            }
            spec(self)?;
            if !self.is(")") {
                self.expect(";")?;
            }
        }
    }

    fn import(&mut self, file: &mut GoFile) -> Result<(), ParseError> {
        let alias = match self.peek() {
            Some(Tok::Ident(w)) => {
                let w = w.clone();
                self.pos += 1;
                Some(w)
            }
            Some(Tok::Punct(".")) => {
                self.pos += 1;
                Some(".".to_owned())
            }
            _ => None,
        };
        let Some(Tok::Str(path)) = self.peek() else {
            return self.error(format!("expected an import path, found {}", self.found()));
        };
        let path = path.clone();
        self.pos += 1;
        let name = alias.unwrap_or_else(|| {
            let last = path.rsplit('/').next().unwrap_or(&path);
            // `gopkg.in/yaml.v3` and `.../v2` major-version suffixes name the package before them.
            last.split('.').next().unwrap_or(last).to_owned()
        });
        file.imports.push((name, path));
        Ok(())
    }

    fn type_spec(&mut self, around: Around) -> Result<TypeSpec, ParseError> {
        let line = self.line();
        let name = self.ident()?;
        if self.is("[") && !matches!(self.peek_at(1), Some(Tok::Punct("]"))) {
            // Type parameters: `type List[T any] ...`.
            self.skip_balanced("[", "]")?;
            let ty = self.ty()?;
            let _ = ty;
            return Ok(TypeSpec {
                name,
                line,
                doc: around.doc,
                markers: around.markers,
                alias: false,
                ty: GoType::Other("a generic type".into()),
            });
        }
        let alias = self.is("=");
        if alias {
            self.pos += 1;
        }
        let ty = self.ty()?;
        Ok(TypeSpec {
            name,
            line,
            doc: around.doc,
            markers: around.markers,
            alias,
            ty,
        })
    }

    fn ty(&mut self) -> Result<GoType, ParseError> {
        let Some(tok) = self.peek().cloned() else {
            return self.error("expected a type, found the end of the file");
        };
        self.pos += 1;
        Ok(match tok {
            Tok::Punct("*") => GoType::Pointer(Box::new(self.ty()?)),
            Tok::Punct("(") => {
                let ty = self.ty()?;
                self.expect(")")?;
                ty
            }
            Tok::Punct("[") if self.is("]") => {
                self.pos += 1;
                GoType::Slice(Box::new(self.ty()?))
            }
            Tok::Punct("[") => {
                let mut len = String::new();
                while !self.is("]") {
                    match self.peek() {
                        Some(Tok::Lit(l) | Tok::Ident(l)) => len.push_str(l),
                        Some(Tok::Punct(p)) if *p != ";" => len.push_str(p),
                        _ => return self.error(format!("expected `]`, found {}", self.found())),
                    }
                    self.pos += 1;
                }
                self.pos += 1;
                GoType::Array(len, Box::new(self.ty()?))
            }
            Tok::Ident(word) => match word.as_str() {
                "struct" => GoType::Struct(self.fields()?),
                "map" => {
                    self.expect("[")?;
                    let key = self.ty()?;
                    self.expect("]")?;
                    GoType::Map(Box::new(key), Box::new(self.ty()?))
                }
                "interface" => {
                    self.skip_balanced("{", "}")?;
                    GoType::Other("an interface".into())
                }
                "chan" => {
                    self.ty()?;
                    GoType::Other("a channel".into())
                }
                "func" => {
                    self.skip_balanced("(", ")")?;
                    if self.is("(") {
                        self.skip_balanced("(", ")")?;
                    } else if !self.is(";")
                        && !self.is("}")
                        && !matches!(self.peek(), Some(Tok::Str(_)))
                    {
                        self.ty()?;
                    }
                    GoType::Other("a function".into())
                }
                _ => {
                    let ty = if self.is(".") {
                        self.pos += 1;
                        GoType::Named {
                            pkg: Some(word),
                            name: self.ident()?,
                        }
                    } else {
                        GoType::Named {
                            pkg: None,
                            name: word,
                        }
                    };
                    if self.is("[") {
                        self.skip_balanced("[", "]")?;
                        GoType::Other("an instance of a generic type".into())
                    } else {
                        ty
                    }
                }
            },
            _ => {
                self.pos -= 1;
                return self.error(format!("expected a type, found {}", self.found()));
            }
        })
    }

    fn fields(&mut self) -> Result<Vec<Field>, ParseError> {
        self.expect("{")?;
        let mut fields = Vec::new();
        loop {
            while self.is(";") {
                self.pos += 1;
            }
            if self.is("}") {
                self.pos += 1;
                return Ok(fields);
            }
            let from = self.boundary();
            let around = self.around(from);
            let line = self.line();
            let embedded = matches!(
                (self.peek(), self.peek_at(1)),
                (Some(Tok::Punct("*")), _)
                    | (
                        Some(Tok::Ident(_)),
                        Some(Tok::Punct(";" | "}" | ".") | Tok::Str(_))
                    )
            );
            let mut names = Vec::new();
            if !embedded {
                names.push(self.ident()?);
                while self.is(",") {
                    self.pos += 1;
                    names.push(self.ident()?);
                }
            }
            let ty = self.ty()?;
            let tag = match self.peek() {
                Some(Tok::Str(tag)) => {
                    let tag = tag.clone();
                    self.pos += 1;
                    Some(tag)
                }
                _ => None,
            };
            if !self.is("}") {
                self.expect(";")?;
            }
            let names: Vec<Option<String>> = if embedded {
                vec![None]
            } else {
                names.into_iter().map(Some).collect()
            };
            for name in names {
                fields.push(Field {
                    name,
                    line,
                    ty: ty.clone(),
                    tag: tag.clone(),
                    doc: around.doc.clone(),
                    markers: around.markers.clone(),
                });
            }
        }
    }

    fn const_spec(&mut self, previous: &mut Option<String>) -> Result<Vec<ConstSpec>, ParseError> {
        let line = self.line();
        let mut names = vec![self.ident()?];
        while self.is(",") {
            self.pos += 1;
            names.push(self.ident()?);
        }
        let mut ty = None;
        if !self.is("=") && !self.is(";") && !self.is(")") {
            ty = Some(match self.ty()? {
                GoType::Named { name, .. } => name,
                _ => String::new(),
            });
        }
        let mut value = None;
        if self.is("=") {
            self.pos += 1;
            let start = self.pos;
            self.skip_statement()?;
            if self.pos == start + 1
                && let Tok::Str(s) = &self.toks[start].tok
            {
                value = Some(s.clone());
            }
            *previous = ty.clone();
        } else if ty.is_none() {
            // An omitted type and value repeat the previous spec's (iota).
            ty = previous.clone();
        }
        Ok(names
            .into_iter()
            .map(|name| ConstSpec {
                name,
                line,
                ty: ty.clone(),
                value: value.clone(),
            })
            .collect())
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

    /// `func [receiver] Name[T] (params) results { body }`: skipped, braces balanced.
    fn func(&mut self) -> Result<(), ParseError> {
        loop {
            match self.peek() {
                None => return self.error("a function without a body"),
                Some(Tok::Punct("(")) => self.skip_balanced("(", ")")?,
                Some(Tok::Punct("[")) => self.skip_balanced("[", "]")?,
                Some(Tok::Punct("{")) => return self.skip_balanced("{", "}"),
                Some(Tok::Punct(";")) => return Ok(()),
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

//! Top-level declarations: the file's imports, type, const and func declarations, each with
//! the comments controller-gen would associate with it.

use super::super::lexer::Tok;
use super::super::{ConstSpec, GoFile, GoType, ParseError, TypeSpec};
use super::{Around, Parser};

impl Parser<'_> {
    pub(super) fn file(&mut self) -> Result<GoFile, ParseError> {
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
                    if let Some(method) = self.func()? {
                        file.methods.push(method);
                    }
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

    /// `func [receiver] Name[T] (params) results { body }`: skipped, braces balanced; a
    /// method's receiver type and name (`(p *Position) MarshalJSON`: `Position`,
    /// `MarshalJSON`).
    fn func(&mut self) -> Result<Option<(String, String)>, ParseError> {
        let mut method = None;
        if self.is("(") {
            let start = self.pos;
            self.skip_balanced("(", ")")?;
            // The receiver's type is its last name outside type arguments.
            let mut depth = 0;
            let mut receiver = None;
            for token in &self.toks[start + 1..self.pos - 1] {
                match &token.tok {
                    Tok::Punct("[") => depth += 1,
                    Tok::Punct("]") => depth -= 1,
                    Tok::Ident(name) if depth == 0 => receiver = Some(name.clone()),
                    _ => {}
                }
            }
            if let (Some(receiver), Some(Tok::Ident(name))) = (receiver, self.peek()) {
                method = Some((receiver, name.clone()));
            }
        }
        loop {
            match self.peek() {
                None => return self.error("a function without a body"),
                Some(Tok::Punct("(")) => self.skip_balanced("(", ")")?,
                Some(Tok::Punct("[")) => self.skip_balanced("[", "]")?,
                Some(Tok::Punct("{")) => return self.skip_balanced("{", "}").map(|()| method),
                Some(Tok::Punct(";")) => return Ok(method),
                _ => self.pos += 1,
            }
        }
    }
}

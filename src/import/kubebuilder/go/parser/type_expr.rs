//! Go type expressions: named, pointer, slice, array, map, struct (with its fields), and the
//! kinds the importer only needs to skip.

use super::super::lexer::Tok;
use super::super::{Field, GoType, ParseError};
use super::Parser;

impl Parser<'_> {
    pub(super) fn ty(&mut self) -> Result<GoType, ParseError> {
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
}

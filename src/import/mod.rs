//! `webop import crd`: CustomResourceDefinitions (YAML, as controller-gen or anyone writes
//! them) to Rust API types with webop's attributes, such that `webop manifests` gives the CRD
//! back. The contract is a round trip, byte for byte for controller-gen's output
//! (`tests/import/import_round_trip.rs`); what no attribute can say is a [`Note`] naming the keyword,
//! where it is and what was done instead.
//!
//! - `keywords`: which marker of the catalogue carries which schema keyword, learned by
//!   applying each row's marker, so a marker added to the catalogue is importable at once;
//! - `attribute`: a keyword's value written as its marker's attribute, by the marker's payload;
//! - `k8s`: the k8s-openapi types recognised by their schema;
//! - `convert`: schema nodes to Rust types (std, k8s-openapi, generated structs, enums and
//!   newtypes) and the markers of each use site;
//! - `kind`: a CRD's kind-level attributes and its versions;
//! - `model` and `render`: the items, and their source text.

mod attribute;
mod convert;
mod k8s;
mod keywords;
mod kind;
pub mod kubebuilder;
mod model;
mod naming;
mod render;
mod schema_keywords;

use std::collections::BTreeSet;
use std::fmt;

use serde_json::Value;

pub use keywords::KeywordTable;
pub use kind::{ImportedKind, ImportedVersion};
pub use model::Item;

/// Why a file cannot be imported. Nothing is written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{file}: not YAML: {message}")]
    Parse { file: String, message: String },
    #[error(
        "a document of apiVersion {api_version:?} and kind {kind:?} is not a CustomResourceDefinition: webop imports apiextensions.k8s.io/v1 CustomResourceDefinitions"
    )]
    NotACrd { api_version: String, kind: String },
    #[error("not a valid CustomResourceDefinition: {0}")]
    InvalidCrd(String),
    #[error(
        "unknown schema keyword {keyword:?} at {path}: a CRD schema has only the keywords of apiextensions.k8s.io/v1 JSONSchemaProps"
    )]
    UnknownKeyword { path: String, keyword: String },
    #[error("invalid schema at {path}: {keyword} {rule}")]
    InvalidSchema {
        path: String,
        keyword: String,
        rule: String,
    },
    #[error("{file}: {source}")]
    InFile {
        file: String,
        #[source]
        source: Box<Error>,
    },
    #[error("{file} holds no CustomResourceDefinition")]
    Empty { file: String },
}

/// What an import could not express: `keyword` at `path` (a JSON path in the schema of
/// `version`), and what was done instead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Note {
    pub version: String,
    pub path: String,
    pub keyword: String,
    pub message: String,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.version.is_empty() {
            write!(f, "{}: {}: {}", self.path, self.keyword, self.message)
        } else {
            write!(
                f,
                "{} {}: {}: {}",
                self.version, self.path, self.keyword, self.message
            )
        }
    }
}

/// The CRDs of one YAML file (`file` names it in errors): every document must be one.
pub fn parse(file: &str, text: &str) -> Result<Vec<Value>, Error> {
    let documents: Vec<Value> = serde_saphyr::from_multiple(text).map_err(|err| Error::Parse {
        file: file.to_owned(),
        message: err.to_string(),
    })?;
    let documents: Vec<Value> = documents.into_iter().filter(|d| !d.is_null()).collect();
    if documents.is_empty() {
        return Err(Error::Empty {
            file: file.to_owned(),
        });
    }
    Ok(documents)
}

/// One imported CRD: the kind, each version's source text, and the notes.
#[derive(Clone, Debug)]
pub struct Imported {
    pub kind: ImportedKind,
    /// `(version, source of <kind>_types.rs)`.
    pub sources: Vec<(String, String)>,
    pub notes: Vec<Note>,
}

/// Imports the CRD `crd` read from `file`; `taken(version)` are the names of the types the
/// project's version module already has, which new types avoid.
pub fn import(
    table: &KeywordTable,
    file: &str,
    crd: &Value,
    taken: &dyn Fn(&str) -> BTreeSet<String>,
) -> Result<Imported, Error> {
    let mut notes = Vec::new();
    let kind = kind::import_crd(table, crd, taken, &mut notes).map_err(|source| Error::InFile {
        file: file.to_owned(),
        source: Box::new(source),
    })?;
    for version in &kind.versions {
        for item in &version.items {
            check_docs(item, &version.version, &mut notes);
        }
    }
    let sources = kind
        .versions
        .iter()
        .map(|v| (v.version.clone(), render::source(&v.items, file)))
        .collect();
    Ok(Imported {
        kind,
        sources,
        notes,
    })
}

/// `imported` as an external API (`import crd --external`): the same types, marked
/// `#[resource(skip)]` so that the project writes no CRD for a kind it does not own.
pub fn external(mut imported: Imported, file: &str) -> Imported {
    for version in &mut imported.kind.versions {
        if let Some(Item::Struct(spec)) = version.items.first_mut() {
            spec.kind_attributes.push("#[resource(skip)]".into());
        }
    }
    imported.sources = imported
        .kind
        .versions
        .iter()
        .map(|v| (v.version.clone(), render::source(&v.items, file)))
        .collect();
    imported
}

/// Notes the descriptions a doc comment cannot give back (controller-gen's doc rules drop
/// `TODO` lines, cut at `---`, fold blank runs and trailing spaces).
fn check_docs(item: &Item, version: &str, notes: &mut Vec<Note>) {
    let mut docs: Vec<(String, &str)> = Vec::new();
    match item {
        Item::Struct(s) => {
            docs.extend(s.doc.as_deref().map(|d| (s.name.clone(), d)));
            for field in &s.fields {
                if let Some(doc) = field.doc.as_deref() {
                    docs.push((format!("{}.{}", s.name, field.ident), doc));
                }
            }
        }
        Item::Enum(e) => docs.extend(e.doc.as_deref().map(|d| (e.name.clone(), d))),
        Item::Newtype(n) => docs.extend(n.doc.as_deref().map(|d| (n.name.clone(), d))),
    }
    for (at, doc) in docs {
        let lines: Vec<String> = doc.split('\n').map(|l| l.trim_end().to_owned()).collect();
        if webop_attrs::doc::from_lines(&lines).as_deref() != Some(doc) {
            notes.push(Note {
                version: version.to_owned(),
                path: at,
                keyword: "description".into(),
                message: "a doc comment cannot give it back exactly (controller-gen's doc rules: TODO lines dropped, cut at ---, blank runs folded, trailing spaces trimmed): written as a doc comment".into(),
            });
        }
    }
}

#[cfg(test)]
mod tests;

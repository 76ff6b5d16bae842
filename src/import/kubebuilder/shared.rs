//! Types of the project's Go packages that are no API package (`api/shared`, imported by the
//! API packages of one group or of several): each such package is one module of the API crate
//! (`api/src/shared.rs`, declared in `api/src/lib.rs`) holding the types the API types reach,
//! and the kinds' files name them by path (`crate::shared::Flag`) as the Go types name
//! `shared.Flag`: one Rust type where Go has one, whichever groups use it. Also: whether a
//! kind's file names the types of its version's other files.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::super::model::Item;
use super::super::render;
use super::files::go_files;
use super::types::{Package, Translator, shared_module};
use super::{Error, Issue};

/// One module of the API crate: the types of a Go package the API packages share.
#[derive(Clone, Debug)]
pub struct SharedModule {
    /// Its name (`shared`): the file `api/src/<module>.rs`, `pub mod <module>;` in lib.rs.
    pub module: String,
    /// The Go package's directory in the project (`api/shared`).
    pub go_dir: String,
    pub source: String,
}

/// The modules of the Go packages whose types `used` names (`(directory, type)`), each with the
/// types those reach, in its package or in another shared one. `module` is the Go module's
/// path and `api_dirs` the API packages' directories, as the translators of the API packages had.
pub fn modules(
    root: &Path,
    module: &str,
    api_dirs: &BTreeSet<String>,
    used: BTreeSet<(String, String)>,
    issues: &mut Vec<Issue>,
    notes: &mut Vec<Issue>,
) -> Result<Vec<SharedModule>, Error> {
    let mut packages: BTreeMap<String, Package> = BTreeMap::new();
    let mut needed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let (mut pending, mut missing) = (used, Vec::new());
    // Until translating the needed types names no type more.
    loop {
        for (dir, name) in std::mem::take(&mut pending) {
            if !packages.contains_key(&dir) {
                let files = go_files(root, &root.join(&dir))?;
                packages.insert(dir.clone(), Package { files });
            }
            let package = &packages[&dir];
            if package.find(&name).is_none() {
                missing.push(Issue {
                    file: dir.clone(),
                    line: 0,
                    what: format!("the package declares no type {name}, which an API type names"),
                });
                continue;
            }
            let names = needed.entry(dir).or_default();
            let mut queue = vec![name];
            while let Some(name) = queue.pop() {
                if let Some((_, spec)) = package.find(&name)
                    && names.insert(name)
                {
                    Translator::references(&spec.ty, &mut queue);
                }
            }
        }
        let (mut out, mut found, mut dropped) = (Vec::new(), Vec::new(), Vec::new());
        for (dir, names) in &needed {
            let package = &packages[dir];
            let mut translator = Translator::new(package);
            translator.module = module.to_owned();
            translator.api_dirs = api_dirs.clone();
            let mut items: Vec<Item> = Vec::new();
            for file in &package.files {
                for spec in file.types.iter().filter(|t| names.contains(&t.name)) {
                    items.extend(translator.item(file, spec)?);
                }
            }
            pending.extend(
                std::mem::take(&mut translator.shared)
                    .into_iter()
                    .filter(|(d, n)| !needed.get(d).is_some_and(|s| s.contains(n))),
            );
            found.append(&mut translator.issues);
            dropped.append(&mut translator.notes);
            let header = format!(
                "// Imported by `webop import kubebuilder` from the Go package {dir}: the types\n\
                 // of it that the API types use. This file is yours: `webop manifests` writes the\n\
                 // CRDs controller-gen wrote for the Go types until you change them.\n"
            );
            out.push(SharedModule {
                module: shared_module(dir),
                go_dir: dir.clone(),
                source: render::file(&items, &header, false),
            });
        }
        if pending.is_empty() {
            issues.append(&mut missing);
            issues.append(&mut found);
            notes.append(&mut dropped);
            return Ok(out);
        }
    }
}

/// Whether the items of file `index` name a type of another file.
pub fn uses_other(items: &[Item], names_of: &[BTreeSet<String>], index: usize) -> bool {
    let mut words = BTreeSet::new();
    for item in items {
        let types: Vec<&str> = match item {
            Item::Struct(s) => s.fields.iter().map(|f| f.ty.as_str()).collect(),
            Item::Newtype(n) => vec![n.inner.as_str()],
            Item::Enum(_) => Vec::new(),
        };
        for ty in types {
            words.extend(
                ty.split(|c: char| !c.is_alphanumeric() && c != '_')
                    .map(str::to_owned),
            );
        }
    }
    names_of
        .iter()
        .enumerate()
        .any(|(i, names)| i != index && names.iter().any(|n| words.contains(n)))
}

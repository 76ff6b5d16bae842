//! The Rust paths and names that move with the layout, and how they are found in a file.

use std::collections::BTreeSet;

use crate::project::layout::group_module;
use crate::project::{Project, Resource};

/// A Rust path that moves: `from` becomes `to` wherever it stands as a whole path prefix.
#[derive(Clone, Debug)]
pub(super) struct Rename {
    pub from: String,
    pub to: String,
    /// Only in the API crate's files (`crate::v1`).
    pub api_crate_only: bool,
    /// Set when the prefix names a version whose kinds are of several groups: `to` is then the
    /// group of the file's own kind, and other files need a hand.
    pub group: Option<String>,
    pub ambiguous: bool,
}

/// The kind's user-owned files, as the single-group layout names them: those of the parts it
/// has (a kind of the same name in another group and version may own the others).
pub(super) fn kind_files(r: &Resource) -> Vec<String> {
    let (v, k) = (&r.version, r.kind.to_ascii_lowercase());
    let webhooks = r.webhooks.clone().unwrap_or_default();
    let mut out = Vec::new();
    if r.api.is_some() {
        out.push(format!("api/src/{v}/{k}_types.rs"));
        // The hub's or a spoke's conversion.
        out.push(format!("api/src/{v}/{k}_conversion.rs"));
        for role in ["admin", "editor", "viewer"] {
            out.push(format!("config/rbac/{k}_{role}_role.yaml"));
        }
    }
    if r.controller {
        out.push(format!("src/controller/{k}_controller.rs"));
        out.push(format!("tests/{k}_controller.rs"));
    }
    if webhooks.admission() {
        out.push(format!("src/webhook/{v}/{k}_webhook.rs"));
        out.push(format!("tests/{k}_webhook.rs"));
    }
    if webhooks.conversion {
        out.push(format!("tests/{k}_conversion.rs"));
    }
    out
}

/// The groups with an API type in `version`, in `project`.
pub(super) fn groups_of(project: &Project, version: &str) -> BTreeSet<String> {
    project
        .resources
        .iter()
        .filter(|r| r.api.is_some() && r.version == version)
        .map(|r| r.group.clone())
        .collect()
}

/// The Rust paths that move with the layout, single-group → multigroup (or back: swapped).
pub(super) fn renames(before: &Project, after: &Project) -> Vec<Rename> {
    let project = if after.multigroup { after } else { before };
    let api_crate = project.api_crate_name();
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for r in &project.resources {
        let gm = group_module(&r.group);
        let groups = groups_of(project, &r.version);
        let ambiguous = groups.len() > 1;
        let v = &r.version;
        if r.api.is_some() && seen.insert((r.group.clone(), v.clone())) {
            for (prefix, api_crate_only) in [(api_crate.as_str(), false), ("crate", true)] {
                out.push(Rename {
                    from: format!("{prefix}::{v}"),
                    to: format!("{prefix}::{gm}::{v}"),
                    api_crate_only,
                    group: Some(r.group.clone()),
                    ambiguous,
                });
            }
        }
        let k = r.kind.to_ascii_lowercase();
        out.push(Rename {
            from: format!("controller::{k}_controller"),
            to: format!("controller::{gm}::{k}_controller"),
            api_crate_only: false,
            group: None,
            ambiguous: false,
        });
        out.push(Rename {
            from: format!("webhook::{v}::{k}_webhook"),
            to: format!("webhook::{gm}::{v}::{k}_webhook"),
            api_crate_only: false,
            group: None,
            ambiguous: false,
        });
    }
    if !after.multigroup {
        for rename in &mut out {
            std::mem::swap(&mut rename.from, &mut rename.to);
            rename.ambiguous = false;
        }
    }
    out
}

/// `name: <kind>-<role>-role` of a kind's role, qualified by its group in a multigroup project.
pub(super) fn role_names(text: &str, kind_lower: &str, group: &str, multigroup: bool) -> String {
    let mut out = text.to_owned();
    for role in ["admin", "editor", "viewer"] {
        let single = format!("  name: {kind_lower}-{role}-role\n");
        let multi = format!("  name: {group}-{kind_lower}-{role}-role\n");
        out = if multigroup {
            out.replacen(&single, &multi, 1)
        } else {
            out.replacen(&multi, &single, 1)
        };
    }
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Where `path` stands as a whole Rust path prefix in `text`: not inside a longer identifier
/// on either side.
pub(super) fn find_path(text: &str, path: &str) -> Option<usize> {
    let mut start = 0;
    while let Some(found) = text[start..].find(path) {
        let at = start + found;
        let before = text[..at].chars().next_back();
        let after = text[at + path.len()..].chars().next();
        if !before.is_some_and(is_ident) && !after.is_some_and(is_ident) {
            return Some(at);
        }
        start = at + path.len();
    }
    None
}

pub(super) fn replace_path(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = find_path(rest, from) {
        out.push_str(&rest[..at]);
        out.push_str(to);
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

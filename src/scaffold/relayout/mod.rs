//! `edit --multigroup[=false]`: the files that move between the single-group and the multigroup
//! layout (`layout::multigroup_path`), and the lines that name them.
//!
//! What moves is known by name: each kind's user-owned files (types, conversion, controller,
//! webhook module, tests, roles) and whole version directories of the API crate. What names them
//! is rewritten where webop can tell the new path for certain: the registrations (the API crate's
//! `lib.rs`, the version and group modules, the kustomizations) and the Rust paths of moved
//! modules in every source file. A version directory that must be split between groups and holds
//! code webop did not write, or a path whose group is ambiguous, refuses the whole edit with the
//! list of what needs a hand.

use std::collections::{BTreeMap, BTreeSet};

use super::context::{GroupVars, ProjectVars, Scoped};
use super::layout::{group_module, place};
use super::templates::Templates;
use crate::project::{Project, Resource};

/// The files of a project the relayout reads: its `.rs` files and its kustomizations and roles.
pub fn reads(path: &str) -> bool {
    let rust = path.ends_with(".rs")
        && ["api/src/", "src/", "tests/", "api/examples/", "examples/"]
            .iter()
            .any(|dir| path.starts_with(dir));
    rust || path.starts_with("config/rbac/") || path == "config/crd/kustomization.yaml"
}

/// What the relayout does: every file it writes (moved files at their new path), the files it
/// removes, and the moves, for the report.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Relayout {
    pub writes: Vec<(String, String)>,
    pub removes: Vec<String>,
    pub moves: Vec<(String, String)>,
}

/// Why the relayout cannot be made: each entry a file and what it needs. Nothing is written.
#[derive(Debug, thiserror::Error)]
#[error(
    "--multigroup: {} file(s) need a change webop cannot make safely; nothing was changed:{}",
    .needs.len(),
    .needs.iter().map(|n| format!("\n  {n}")).collect::<String>()
)]
pub struct Refused {
    pub needs: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Refused(#[from] Refused),
    #[error(transparent)]
    Template(#[from] super::templates::Error),
}

/// Moves `files` (path → text, those [`reads`] picks) from `before`'s layout to `after`'s.
pub fn relayout(
    templates: &Templates,
    before: &Project,
    after: &Project,
    files: &BTreeMap<String, String>,
) -> Result<Relayout, Error> {
    let mut job = Job {
        before,
        after,
        files,
        out: Relayout::default(),
        needs: Vec::new(),
        moved: BTreeSet::new(),
        renames: renames(before, after),
    };
    job.kinds_files();
    job.version_dirs(templates)?;
    job.group_modules(templates)?;
    job.api_lib();
    job.kustomizations();
    job.other_sources();
    if !job.needs.is_empty() {
        return Err(Refused { needs: job.needs }.into());
    }
    job.out.moves.sort();
    Ok(job.out)
}

struct Job<'a> {
    before: &'a Project,
    after: &'a Project,
    files: &'a BTreeMap<String, String>,
    out: Relayout,
    needs: Vec<String>,
    /// The files moved (by their old path), so the last pass leaves them alone.
    moved: BTreeSet<String>,
    renames: Vec<Rename>,
}

/// A Rust path that moves: `from` becomes `to` wherever it stands as a whole path prefix.
#[derive(Clone, Debug)]
struct Rename {
    from: String,
    to: String,
    /// Only in the API crate's files (`crate::v1`).
    api_crate_only: bool,
    /// Set when the prefix names a version whose kinds are of several groups: `to` is then the
    /// group of the file's own kind, and other files need a hand.
    group: Option<String>,
    ambiguous: bool,
}

/// The kinds' user-owned files, as the single-group layout names them.
fn kind_files(r: &Resource) -> Vec<String> {
    let (v, k) = (&r.version, r.kind.to_ascii_lowercase());
    let mut out = vec![
        format!("api/src/{v}/{k}_types.rs"),
        format!("api/src/{v}/{k}_conversion.rs"),
        format!("src/controller/{k}_controller.rs"),
        format!("src/webhook/{v}/{k}_webhook.rs"),
        format!("tests/{k}_controller.rs"),
        format!("tests/{k}_webhook.rs"),
        format!("tests/{k}_conversion.rs"),
    ];
    for role in ["admin", "editor", "viewer"] {
        out.push(format!("config/rbac/{k}_{role}_role.yaml"));
    }
    out
}

/// The groups with an API type in `version`, in `project`.
fn groups_of(project: &Project, version: &str) -> BTreeSet<String> {
    project
        .resources
        .iter()
        .filter(|r| r.api.is_some() && r.version == version)
        .map(|r| r.group.clone())
        .collect()
}

/// The Rust paths that move with the layout, single-group → multigroup (or back: swapped).
fn renames(before: &Project, after: &Project) -> Vec<Rename> {
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

impl Job<'_> {
    fn from_path(&self, single: &str, group: &str) -> String {
        place(single, group, self.before.multigroup)
    }

    fn to_path(&self, single: &str, group: &str) -> String {
        place(single, group, self.after.multigroup)
    }

    fn move_file(&mut self, from: String, to: String, text: String) {
        if from == to {
            return;
        }
        if self.files.contains_key(&to) && !self.moved.contains(&to) {
            self.needs.push(format!(
                "{to}: exists, and {from} moves there; move or remove it"
            ));
            return;
        }
        self.moved.insert(from.clone());
        self.out.removes.push(from.clone());
        self.out.writes.push((to.clone(), text));
        self.out.moves.push((from, to));
    }

    /// Each kind's own files.
    fn kinds_files(&mut self) {
        for r in &self.before.resources {
            let kind_lower = r.kind.to_ascii_lowercase();
            for single in kind_files(r) {
                let from = self.from_path(&single, &r.group);
                if self.moved.contains(&from) {
                    continue;
                }
                let Some(text) = self.files.get(&from) else {
                    continue;
                };
                let text = if from.ends_with(".rs") {
                    self.rewrite(&from, text, Some(&r.group))
                } else {
                    role_names(text, &kind_lower, &r.group, self.after.multigroup)
                };
                let to = self.to_path(&single, &r.group);
                self.move_file(from, to, text);
            }
        }
    }

    /// The API crate's version directories: moved whole when one group has the version, split
    /// by kind when several have (only when they hold webop's files alone).
    fn version_dirs(&mut self, templates: &Templates) -> Result<(), Error> {
        let project = if self.after.multigroup {
            self.after
        } else {
            self.before
        };
        let mut versions: Vec<String> = project
            .resources
            .iter()
            .filter(|r| r.api.is_some())
            .map(|r| r.version.clone())
            .collect();
        versions.sort();
        versions.dedup();
        for version in versions {
            let groups = groups_of(project, &version);
            let single_dir = format!("api/src/{version}/");
            if groups.len() > 1 {
                self.split_version(templates, &version, &groups)?;
                continue;
            }
            let group = groups
                .first()
                .expect("a version with an API type has a group");
            let from_dir = self.from_path(&single_dir, group);
            let inside: Vec<(String, String)> = self
                .files
                .range(from_dir.clone()..)
                .take_while(|(path, _)| path.starts_with(&from_dir))
                .filter(|(path, _)| !self.moved.contains(*path))
                .map(|(path, text)| (path.clone(), text.clone()))
                .collect();
            for (from, text) in inside {
                let rest = &from[from_dir.len()..];
                let to = format!("{}{rest}", self.to_path(&single_dir, group));
                let text = self.rewrite(&from, &text, Some(group));
                self.move_file(from, to, text);
            }
        }
        Ok(())
    }

    /// A single-group version module of kinds of several groups, split into one per group:
    /// each keeps the lines of its group's kinds. Refused when the module or its directory
    /// holds anything else (webop could not tell which group it belongs to).
    fn split_version(
        &mut self,
        templates: &Templates,
        version: &str,
        groups: &BTreeSet<String>,
    ) -> Result<(), Error> {
        let module = format!("api/src/{version}/mod.rs");
        let dir = format!("api/src/{version}/");
        let why = |path: &str| {
            format!(
                "{path}: api/src/{version}/ holds kinds of the groups {}, which the multigroup \
                 layout splits into api/src/<group>/{version}/; webop cannot tell which group \
                 this belongs to: move it by hand (or remove it) and run the command again",
                groups.iter().cloned().collect::<Vec<_>>().join(", ")
            )
        };
        let others: Vec<String> = self
            .files
            .keys()
            .filter(|p| p.starts_with(&dir) && **p != module && !self.moved.contains(*p))
            .cloned()
            .collect();
        for path in others {
            self.needs.push(why(&path));
        }
        let Some(text) = self.files.get(&module) else {
            return Ok(());
        };
        let kind_lines = |group: Option<&str>| -> Vec<String> {
            let mut lines = Vec::new();
            for r in &self.after.resources {
                if r.version != version || r.api.is_none() || group.is_some_and(|g| r.group != g) {
                    continue;
                }
                let k = r.kind.to_ascii_lowercase();
                lines.push(format!("mod {k}_types;"));
                lines.push(format!("pub use {k}_types::*;"));
                lines.push(format!("mod {k}_conversion;"));
            }
            lines
        };
        let bare = super::markers::remove(text, &kind_lines(None));
        let empty = Project {
            resources: Vec::new(),
            ..self.before.clone()
        };
        let vars = ProjectVars::new(&empty, None);
        let scoped = Scoped::Version(super::context::VersionVars::new(&empty, None, version));
        let written = templates.render("api/src/{{ version }}/mod.rs", &vars.context(&scoped))?;
        if bare != written.contents {
            self.needs.push(why(&module));
            return Ok(());
        }
        self.moved.insert(module.clone());
        self.out.removes.push(module.clone());
        for group in groups {
            let others: Vec<String> = kind_lines(None)
                .into_iter()
                .filter(|line| !kind_lines(Some(group)).contains(line))
                .collect();
            let to = place(&module, group, true);
            self.out
                .writes
                .push((to.clone(), super::markers::remove(text, &others)));
            self.out.moves.push((module.clone(), to));
        }
        Ok(())
    }

    /// `api/src/<group>/mod.rs`: written for each group when going multigroup; removed going
    /// back, when it holds what webop writes.
    fn group_modules(&mut self, templates: &Templates) -> Result<(), Error> {
        let project = if self.after.multigroup {
            self.after
        } else {
            self.before
        };
        let vars = ProjectVars::new(project, None);
        for group in super::context::api_groups(project) {
            let scoped = Scoped::Group(GroupVars::new(project, group));
            let file =
                templates.render("api/src/{{ group_module }}/mod.rs", &vars.context(&scoped))?;
            let existing = self.files.get(&file.path);
            if self.after.multigroup {
                match existing {
                    Some(_) => self.needs.push(format!(
                        "{}: exists, and webop writes the module of group {group} there; move \
                         or remove it",
                        file.path
                    )),
                    None => self.out.writes.push((file.path, file.contents)),
                }
            } else if let Some(text) = existing {
                if *text == file.contents {
                    self.out.removes.push(file.path);
                } else {
                    self.needs.push(format!(
                        "{}: holds code of yours, which the single-group layout has no place \
                         for; move it (e.g. into api/src/lib.rs) and run the command again",
                        file.path
                    ));
                }
            }
        }
        Ok(())
    }

    /// The API crate's root: its version (or group) modules and the kinds' CRD versions.
    fn api_lib(&mut self) {
        let path = "api/src/lib.rs";
        let Some(text) = self.files.get(path) else {
            return;
        };
        let modules = |project: &Project| -> Vec<String> {
            let mut lines: Vec<String> = super::context::api_versions(project)
                .into_iter()
                .map(|(g, v)| format!("pub mod {};", g.map_or(v.to_owned(), group_module)))
                .collect();
            lines.dedup();
            lines
        };
        let (old, new) = (modules(self.before), modules(self.after));
        let missing: Vec<&String> = old
            .iter()
            .filter(|line| !text.lines().any(|l| l.trim() == line.as_str()))
            .collect();
        if !missing.is_empty() {
            self.needs.push(format!(
                "{path}: has no {} line, which webop replaces with the modules of the new layout \
                 ({}); restore it and run the command again",
                missing
                    .iter()
                    .map(|l| format!("`{l}`"))
                    .collect::<Vec<_>>()
                    .join(", "),
                new.join(" ")
            ));
            return;
        }
        let text = super::markers::remove(text, &old);
        let Some(text) = super::markers::insert_in_order(
            &text,
            "apiversions",
            &new,
            super::markers::Order::Sorted,
        ) else {
            self.needs.push(format!(
                "{path}: has no `// +webop:scaffold:apiversions` line, above which webop lists \
                 the modules; add it and run the command again"
            ));
            return;
        };
        let text = self.rewrite(path, &text, None);
        // The kinds' CRD versions: `v1::Kind::crd_version()` names the version module.
        let mut text = text;
        for r in self.before.resources.iter().filter(|r| r.api.is_some()) {
            let module =
                |p: &Project| super::layout::version_module(&r.group, &r.version, p.multigroup);
            let (from, to) = (
                format!("{}::{}::crd_version(),", module(self.before), r.kind),
                format!("{}::{}::crd_version(),", module(self.after), r.kind),
            );
            text = text
                .lines()
                .map(|line| {
                    if line.trim() == from {
                        line.replace(&from, &to)
                    } else {
                        line.to_owned()
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
                + "\n";
        }
        if text != *self.files.get(path).expect("read above") {
            self.out.writes.push((path.to_owned(), text));
        }
    }

    /// The role files' and conversion patches' lines of the kustomizations.
    fn kustomizations(&mut self) {
        let mut edits: BTreeMap<&str, Vec<(String, String)>> = BTreeMap::new();
        for r in &self.before.resources {
            let k = r.kind.to_ascii_lowercase();
            for role in ["admin", "editor", "viewer"] {
                let single = format!("config/rbac/{k}_{role}_role.yaml");
                let name = |p: String| format!("- {}", p.trim_start_matches("config/rbac/"));
                edits
                    .entry("config/rbac/kustomization.yaml")
                    .or_default()
                    .push((
                        name(self.from_path(&single, &r.group)),
                        name(self.to_path(&single, &r.group)),
                    ));
            }
            let single = format!("config/crd/patches/webhook_in_{}.yaml", r.plural());
            let name = |p: String| format!("- path: {}", p.trim_start_matches("config/crd/"));
            edits
                .entry("config/crd/kustomization.yaml")
                .or_default()
                .push((
                    name(self.from_path(&single, &r.group)),
                    name(self.to_path(&single, &r.group)),
                ));
        }
        for (path, lines) in edits {
            let Some(text) = self.files.get(path) else {
                continue;
            };
            let edited: String = text
                .split_inclusive('\n')
                .map(|line| {
                    let bare = line.trim_end_matches('\n');
                    match lines.iter().find(|(from, _)| from == bare) {
                        Some((from, to)) => line.replacen(from.as_str(), to, 1),
                        None => line.to_owned(),
                    }
                })
                .collect();
            if edited != *text {
                self.out.writes.push((path.to_owned(), edited));
            }
        }
    }

    /// Every other Rust file: the paths of moved modules rewritten, or listed when ambiguous.
    fn other_sources(&mut self) {
        let written: BTreeSet<String> = self.out.writes.iter().map(|(p, _)| p.clone()).collect();
        let paths: Vec<String> = self
            .files
            .keys()
            .filter(|p| p.ends_with(".rs") && !self.moved.contains(*p) && !written.contains(*p))
            .cloned()
            .collect();
        for path in paths {
            let text = &self.files[&path];
            let rewritten = self.rewrite(&path, text, None);
            if rewritten != *text {
                self.out.writes.push((path, rewritten));
            }
        }
    }

    /// `text` of the file `path` with the moved Rust paths renamed. `group`: the group of the
    /// kind the file belongs to, which settles a version shared by several groups.
    fn rewrite(&mut self, path: &str, text: &str, group: Option<&str>) -> String {
        let in_api = path.starts_with("api/");
        let mut text = text.to_owned();
        let mut ambiguous = BTreeSet::new();
        for rename in &self.renames {
            if rename.api_crate_only && !in_api {
                continue;
            }
            if rename.ambiguous && rename.group.as_deref() != group {
                if group.is_none() && find_path(&text, &rename.from).is_some() {
                    ambiguous.insert(rename.from.clone());
                }
                continue;
            }
            text = replace_path(&text, &rename.from, &rename.to);
        }
        for from in ambiguous {
            self.needs.push(format!(
                "{path}: names `{from}`, whose kinds the multigroup layout splits between groups; \
                 name the group's module (`{}`) by hand and run the command again",
                from.replacen("::", "::<group>::", 1)
            ));
        }
        text
    }
}

/// `name: <kind>-<role>-role` of a kind's role, qualified by its group in a multigroup project.
fn role_names(text: &str, kind_lower: &str, group: &str, multigroup: bool) -> String {
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
fn find_path(text: &str, path: &str) -> Option<usize> {
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

fn replace_path(text: &str, from: &str, to: &str) -> String {
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

#[cfg(test)]
#[path = "relayout_tests.rs"]
mod tests;

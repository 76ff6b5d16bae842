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

mod paths;
mod registrations;

use paths::{Rename, groups_of, kind_files, renames, role_names};

use crate::project::Project;
use crate::project::layout::place;
use crate::scaffold::context::{GroupVars, ProjectVars, Scoped};
use crate::scaffold::rendering::{Select, render};
use crate::scaffold::rustfmt;
use crate::scaffold::templates::Templates;

/// The files of a project the relayout reads: its `.rs` files and its kustomizations and roles.
pub fn reads(path: &str) -> bool {
    let rust = path.ends_with(".rs")
        && ["api/src/", "src/", "tests/", "api/examples/", "examples/"]
            .iter()
            .any(|dir| path.starts_with(dir));
    rust || path.starts_with("config/rbac/")
        || path == "config/crd/kustomization.yaml"
        || path == "README.md"
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
    Template(#[from] crate::scaffold::templates::Error),
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
    job.kinds_files(templates)?;
    job.version_dirs(templates)?;
    job.group_modules(templates)?;
    job.api_lib();
    job.kustomizations();
    job.readme(templates)?;
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

impl Job<'_> {
    fn old_path(&self, single: &str, group: &str) -> String {
        place(single, group, self.before.multigroup)
    }

    fn new_path(&self, single: &str, group: &str) -> String {
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

    /// Each kind's own files. One as webop wrote it is written as webop writes it in the new
    /// layout (a controller's name is qualified by its group in a multigroup project), so that
    /// `delete api` still knows it.
    fn kinds_files(&mut self, templates: &Templates) -> Result<(), Error> {
        for r in &self.before.resources {
            let kind_lower = r.kind.to_ascii_lowercase();
            let rendered = |project: &Project| -> Result<BTreeMap<String, String>, Error> {
                let resource = project.resource(&r.group, &r.version, &r.kind);
                let Some(resource) = resource else {
                    return Ok(BTreeMap::new());
                };
                let files = render(templates, project, None, Select::UserOwnedOf(resource))?;
                Ok(files.into_iter().map(|f| (f.path, f.contents)).collect())
            };
            let (was, will_be) = (rendered(self.before)?, rendered(self.after)?);
            for single in kind_files(r) {
                let from = self.old_path(&single, &r.group);
                if self.moved.contains(&from) {
                    continue;
                }
                let Some(text) = self.files.get(&from) else {
                    continue;
                };
                let to = self.new_path(&single, &r.group);
                let pristine = was
                    .get(&from)
                    .is_some_and(|w| rustfmt::same(&from, text.as_bytes(), w.as_bytes()));
                if let Some(render) = will_be.get(&to).filter(|_| pristine) {
                    self.move_file(from, to, render.clone());
                    continue;
                }
                let text = if from.ends_with(".rs") {
                    self.rewrite(&from, text, Some(&r.group))
                } else {
                    role_names(text, &kind_lower, &r.group, self.after.multigroup)
                };
                self.move_file(from, to, text);
            }
        }
        Ok(())
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
            let from_dir = self.old_path(&single_dir, group);
            let inside: Vec<(String, String)> = self
                .files
                .range(from_dir.clone()..)
                .take_while(|(path, _)| path.starts_with(&from_dir))
                .filter(|(path, _)| !self.moved.contains(*path))
                .map(|(path, text)| (path.clone(), text.clone()))
                .collect();
            for (from, text) in inside {
                let rest = &from[from_dir.len()..];
                let to = format!("{}{rest}", self.new_path(&single_dir, group));
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
        let bare = crate::scaffold::markers::remove(text, &kind_lines(None));
        let empty = Project {
            resources: Vec::new(),
            ..self.before.clone()
        };
        let vars = ProjectVars::new(&empty, None);
        let scoped = Scoped::Version(crate::scaffold::context::VersionVars::new(
            &empty, None, version,
        ));
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
                .push((to.clone(), crate::scaffold::markers::remove(text, &others)));
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
        for group in crate::scaffold::context::api_groups(project) {
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

    /// Every other Rust file: the paths of moved modules rewritten, or listed when ambiguous.
    fn other_sources(&mut self) {
        let written: BTreeSet<String> = self.out.writes.iter().map(|(p, _)| p.clone()).collect();
        let paths: Vec<String> = self
            .files
            .keys()
            .filter(|p| p.ends_with(".rs") && !self.moved.contains(*p) && !written.contains(*p))
            // Tool-owned files are rendered again for the new layout.
            .filter(|p| !crate::scaffold::templates::is_tool_owned(&self.files[*p]))
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
                if group.is_none() && paths::find_path(&text, &rename.from).is_some() {
                    ambiguous.insert(rename.from.clone());
                }
                continue;
            }
            text = paths::replace_path(&text, &rename.from, &rename.to);
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

#[cfg(test)]
mod tests;

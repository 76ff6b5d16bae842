//! The registrations that name a project's API modules and role files: the API crate's root
//! and the kustomizations.

use std::collections::BTreeMap;

use super::Job;
use crate::project::Project;
use crate::project::layout::group_module;
use crate::scaffold::context::{InitOptions, ProjectVars, Scoped};
use crate::scaffold::markers;
use crate::scaffold::templates::Templates;

impl Job<'_> {
    /// The API crate's root: its version (or group) modules and the kinds' CRD versions.
    pub(super) fn api_lib(&mut self) {
        let path = "api/src/lib.rs";
        let Some(text) = self.files.get(path) else {
            return;
        };
        let modules = |project: &Project| -> Vec<String> {
            let mut lines: Vec<String> = crate::scaffold::context::api_versions(project)
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
        let text = markers::remove(text, &old);
        let Some(text) =
            markers::insert_in_order(&text, "apiversions", &new, markers::Order::Sorted)
        else {
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
            let module = |p: &Project| {
                crate::project::layout::version_module(&r.group, &r.version, p.multigroup)
            };
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
    pub(super) fn kustomizations(&mut self) {
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
                        name(self.old_path(&single, &r.group)),
                        name(self.new_path(&single, &r.group)),
                    ));
            }
            let single = format!("config/crd/patches/webhook_in_{}.yaml", r.plural());
            let name = |p: String| format!("- path: {}", p.trim_start_matches("config/crd/"));
            edits
                .entry("config/crd/kustomization.yaml")
                .or_default()
                .push((
                    name(self.old_path(&single, &r.group)),
                    name(self.new_path(&single, &r.group)),
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

    /// The README's sentence on where the API types and controllers are, when it is still as
    /// `init` wrote it (documentation: an edited one is left as it is).
    pub(super) fn readme(&mut self, templates: &Templates) -> Result<(), super::Error> {
        let Some(text) = self.files.get("README.md") else {
            return Ok(());
        };
        let render = |project: &Project| -> Result<String, super::Error> {
            let options = InitOptions::default();
            let vars = ProjectVars::new(project, Some(&options));
            Ok(templates
                .render("README.md", &vars.context(&Scoped::Project))?
                .contents)
        };
        let (old, new) = (render(self.before)?, render(self.after)?);
        if let Some(text) = crate::scaffolds::edit::swap_lines(text, &old, &new) {
            self.out.writes.push(("README.md".to_owned(), text));
        }
        Ok(())
    }
}

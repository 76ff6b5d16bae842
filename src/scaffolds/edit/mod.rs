//! `edit`: the files `init` wrote that depend on a project-wide setting the command changes.
//!
//! Those files are user-owned, so `edit` rewrites one only when it still holds what webop wrote
//! for the project as it was (or already what it writes now); a file the user changed is a
//! conflict unless `--force`. `--license` and `--owner` change their lines in place
//! ([`license`]), `--multigroup` moves the files ([`relayout`]).

pub mod license;
pub mod relayout;

pub use license::{Licensed, relicense};

use crate::project::Project;
use crate::scaffold::context::{ProjectVars, Scoped};
use crate::scaffold::rendering::{Select, render};
use crate::scaffold::{Error, Planner, Scaffold, Step, Templates};

/// `edit`: with `rescope`, the manager's scope of `after` carried into the files `init` wrote
/// for it; then `removed` (files moved away by `--multigroup`) go, and `files`,
/// `(path, contents)` computed from the code or from the files as they are (the manager's role,
/// the license lines, the moved files), are written as they are.
pub(super) struct Edit<'a> {
    pub(super) rescope: bool,
    pub(super) files: &'a [(String, String)],
    pub(super) removed: &'a [String],
}

impl Scaffold for Edit<'_> {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        if self.rescope {
            let before = step.before.expect("edit has a project before");
            rewrite(planner, step.templates, before, step.after, self.files)?;
        }
        for path in self.removed {
            planner.remove(path, None)?;
        }
        for (path, contents) in self.files {
            planner.generated(path, contents.clone())?;
        }
        Ok(())
    }
}

/// The templates `init` renders that depend on the manager's scope (PROJECT `namespaced`).
pub const MANAGER_SCOPE_FILES: [&str; 3] = [
    "config/manager/manager.yaml",
    "config/rbac/role.yaml",
    "config/rbac/role_binding.yaml",
];

/// Rewrites the files of `templates_changed` from `before`'s render to `after`'s, leaving out
/// `regenerated` (paths the command writes from the code instead).
fn rewrite(
    planner: &mut Planner,
    templates: &Templates,
    before: &Project,
    after: &Project,
    regenerated: &[(String, String)],
) -> Result<(), Error> {
    let (old, new) = (
        ProjectVars::new(before, None),
        ProjectVars::new(after, None),
    );
    let reason = if after.namespaced {
        "a namespace-scoped manager"
    } else {
        "a cluster-scoped manager"
    };
    for template in MANAGER_SCOPE_FILES {
        if regenerated.iter().any(|(path, _)| path == template) {
            continue;
        }
        let previous = templates.render(template, &old.context(&Scoped::Project))?;
        let current = templates.render(template, &new.context(&Scoped::Project))?;
        planner.rewrite(&current.path, current.contents, &previous.contents, reason)?;
    }
    // The kinds' files that depend on the scope (the `--image` tests run the manager as its
    // role allows): the lines that differ are swapped, so the user's other edits stay.
    for resource in &before.resources {
        let select = Select::UserOwnedOf(resource);
        let previous = render(templates, before, None, select)?;
        let current = render(templates, after, None, select)?;
        for (previous, current) in previous.into_iter().zip(current) {
            if previous.contents == current.contents {
                continue;
            }
            let Some(disk) = planner.read_text(&current.path)? else {
                continue; // A user file the user removed stays removed.
            };
            match swap_lines(&disk, &previous.contents, &current.contents) {
                Some(swapped) => planner.rewrite(&current.path, swapped, &disk, reason)?,
                None => {
                    planner.rewrite(&current.path, current.contents, &previous.contents, reason)?
                }
            }
        }
    }
    Ok(())
}

/// `text` with the lines in which `before` and `after` differ (one run of lines, between their
/// common first and last lines) changed from `before`'s to `after`'s; `None` when `text` does not
/// hold `before`'s lines as they were written.
pub fn swap_lines(text: &str, before: &str, after: &str) -> Option<String> {
    let (old, new): (Vec<&str>, Vec<&str>) = (
        before.split_inclusive('\n').collect(),
        after.split_inclusive('\n').collect(),
    );
    let head = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let old_run: String = old[head..old.len() - tail].concat();
    let new_run: String = new[head..new.len() - tail].concat();
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let run_len = old_run.split_inclusive('\n').count();
    let found = (0..=lines.len().saturating_sub(run_len))
        .filter(|&i| lines[i..i + run_len].concat() == old_run)
        .collect::<Vec<_>>();
    match found.as_slice() {
        [at] => Some(format!(
            "{}{new_run}{}",
            lines[..*at].concat(),
            lines[at + run_len..].concat()
        )),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::swap_lines;

    #[test]
    fn only_the_differing_lines_are_swapped() {
        let before = "a\nb\nold\nc\n";
        let after = "a\nb\nnew 1\nnew 2\nc\n";
        assert_eq!(
            swap_lines("mine\nb\nold\nc\nmore\n", before, after).as_deref(),
            Some("mine\nb\nnew 1\nnew 2\nc\nmore\n")
        );
        assert_eq!(swap_lines("a\nedited\nc\n", before, after), None);
    }
}

//! `edit`: the files `init` wrote that depend on a project-wide setting the command changes.
//!
//! Those files are user-owned, so `edit` rewrites one only when it still holds what webop wrote
//! for the project as it was (or already what it writes now); a file the user changed is a
//! conflict unless `--force`.

use super::Error;
use std::path::Path;

use super::context::{InitOptions, ProjectVars, Scoped};
use super::fs::FileSystem;
use super::plan::Planner;
use super::templates::Templates;
use crate::project::Project;

/// The templates `init` renders that depend on the manager's scope (PROJECT `namespaced`).
pub const MANAGER_SCOPE_FILES: [&str; 3] = [
    "config/manager/manager.yaml",
    "config/rbac/role.yaml",
    "config/rbac/role_binding.yaml",
];

/// Rewrites the files of `templates_changed` from `before`'s render to `after`'s, leaving out
/// `regenerated` (paths the command writes from the code instead).
pub fn rewrite(
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
        let select = super::Select::UserOwnedOf(resource);
        let previous = super::render(templates, before, None, select)?;
        let current = super::render(templates, after, None, select)?;
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

/// The license of a project: `Some(owner)` for Apache-2.0 with that copyright holder, `None` for
/// none (as `init --license --owner` wrote it).
pub type Licensed = Option<String>;

/// The files `init` wrote for the license `before`, with the license `after` instead: the
/// license lines of the root and API `Cargo.toml`, the README's License section. Missing files
/// are left missing.
pub fn relicense(
    fs: &dyn FileSystem,
    templates: &Templates,
    root: &Path,
    project: &Project,
    before: &Licensed,
    after: &Licensed,
    force: bool,
) -> Result<Vec<(String, String)>, Error> {
    let read = |path: &str| -> Result<Option<String>, Error> {
        match fs.read(&root.join(path)) {
            Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(super::plan::Conflict::Io {
                path: path.into(),
                source,
            }
            .into()),
        }
    };
    let mut out = Vec::new();
    for path in ["Cargo.toml", "api/Cargo.toml"] {
        if let Some(text) = read(path)? {
            let text = super::license::cargo_toml(path, &text, after.is_some())?;
            out.push((path.to_owned(), text));
        }
    }
    if let Some(text) = read("README.md")? {
        let render = |licensed: &Licensed| -> Result<String, Error> {
            let options = InitOptions {
                owner: licensed.clone().unwrap_or_default(),
                license: if licensed.is_some() {
                    "apache2"
                } else {
                    "none"
                }
                .to_owned(),
                webop_path: None,
            };
            let vars = ProjectVars::new(project, Some(&options));
            Ok(templates
                .render("README.md", &vars.context(&Scoped::Project))?
                .contents)
        };
        let (written, wanted) = (render(before)?, render(after)?);
        let written = super::license::split_section(&written).1;
        let wanted = super::license::split_section(&wanted).1;
        let text = super::license::readme("README.md", &text, written, wanted, force)?;
        out.push(("README.md".to_owned(), text));
    }
    Ok(out)
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

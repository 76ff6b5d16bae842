//! `edit`: the files `init` wrote that depend on a project-wide setting the command changes.
//!
//! Those files are user-owned, so `edit` rewrites one only when it still holds what webop wrote
//! for the project as it was (or already what it writes now); a file the user changed is a
//! conflict unless `--force`.

use super::Error;
use super::context::{ProjectVars, Scoped};
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
    Ok(())
}

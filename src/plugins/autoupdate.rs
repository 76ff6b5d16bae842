//! `webop edit --plugins autoupdate`: `.github/workflows/auto_update.yml`, a GitHub Actions
//! workflow that installs the newest webop once a week and runs `webop upgrade` (webop's
//! counterpart of `kubebuilder alpha update`), then pushes the result to a branch and opens an
//! issue linking the pull request, as kubebuilder's autoupdate/v1-alpha plugin scaffolds it.
//!
//! The workflow is the user's (kubebuilder writes it once and skips it after): written by
//! `edit --plugins autoupdate` and by `init` of a project that records the plugin, kept when it
//! exists (`--force` rewrites it). Its template is in the template set
//! (`templates/@autoupdate/`), and `init` writes it, so the scaffold lock records it and
//! `webop upgrade` merges a newer webop's workflow into yours like any file of yours.

use crate::scaffold::context::{ProjectVars, Scoped};
use crate::scaffold::plan::Planner;
use crate::scaffold::templates::AUTOUPDATE_DIR;
use crate::scaffold::{Error, Scaffold, Step};

/// The workflow, as kubebuilder's plugin names it.
pub const WORKFLOW: &str = ".github/workflows/auto_update.yml";

/// The plugin: the workflow, once PROJECT records it.
pub struct Plugin {
    /// The command writes the workflow (`init`, `edit --plugins`); every other command leaves
    /// it alone.
    pub user_files: bool,
}

impl Scaffold for Plugin {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        if !self.user_files || step.after.plugins.autoupdate.is_none() {
            return Ok(());
        }
        let template = format!("{AUTOUPDATE_DIR}{WORKFLOW}");
        // An older webop's template set (the base of an upgrade) may have none.
        if !step.templates.has(&template) {
            return Ok(());
        }
        let vars = ProjectVars::new(step.after, None);
        let file = step
            .templates
            .render(&template, &vars.context(&Scoped::Project))?;
        planner.user_owned(&file.path, file.contents)?;
        Ok(())
    }
}

//! `init`: the project's user-owned files (the tool-owned ones are every command's).

use crate::scaffold::rendering::{Select, render};
use crate::scaffold::{Error, InitOptions, Planner, Scaffold, Step};

/// `init` with these options (owner, license, the local webop source).
pub(super) struct Init<'a>(pub(super) &'a InitOptions);

impl Scaffold for Init<'_> {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        let select = Select::InitUserOwned;
        for file in render(step.templates, step.after, Some(self.0), select)? {
            planner.user_owned(&file.path, file.contents)?;
        }
        Ok(())
    }
}

//! `import crd`: what `create api --controller=false` of each imported kind writes, with the
//! imported source as the kind's types.

use super::crd_listing;
use crate::project::{Project, Resource, layout};
use crate::scaffold::insertions::{Inserted, insertions};
use crate::scaffold::rendering::{Select, render};
use crate::scaffold::{Error, Planner, Scaffold, Step};

/// One kind and version `import crd` adds: its resource and the source of its types file.
#[derive(Clone, Debug)]
pub struct ImportedApi {
    pub resource: Resource,
    pub source: String,
}

impl ImportedApi {
    /// The types file, relative to the project root.
    pub fn types_path(&self, project: &Project) -> String {
        let path = format!(
            "api/src/{}/{}_types.rs",
            self.resource.version,
            self.resource.kind.to_ascii_lowercase()
        );
        layout::place(&path, &self.resource.group, project.multigroup)
    }
}

/// `import crd` of these kinds, whose types files must not exist (unless `--force`).
pub(super) struct ImportApi<'a>(pub(super) &'a [ImportedApi]);

impl Scaffold for ImportApi<'_> {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        let (templates, project) = (step.templates, step.after);
        for api in self.0 {
            let types = api.types_path(project);
            let select = Select::UserOwnedOf(&api.resource);
            for file in render(templates, project, None, select)? {
                // `--force` replaces the types alone: the kind's controller, roles and
                // sample stay the user's.
                if file.path == types {
                    planner.user_owned_new(&file.path, api.source.clone())?;
                } else {
                    planner.user_owned_kept(&file.path, file.contents)?;
                }
            }
            for Inserted {
                file,
                insertion,
                lines,
            } in insertions(templates, project, &api.resource)?
            {
                if !crd_listing::listed_later(planner, insertion, &lines)? {
                    planner.insert(&file, insertion.marker, &lines, insertion.order)?;
                }
            }
        }
        Ok(())
    }
}

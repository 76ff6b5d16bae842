//! `create api`: a kind's user-owned files (types, controller, roles, sample, tests), and its
//! lines at the markers of the files kinds share.

use super::crd_listing;
use crate::project::Resource;
use crate::scaffold::insertions::{Inserted, insertions};
use crate::scaffold::rendering::{Select, render_owned};
use crate::scaffold::{Error, Planner, Scaffold, Step};

/// `create api` of this kind (as recorded after the command).
pub(super) struct CreateApi<'a>(pub(super) &'a Resource);

impl Scaffold for CreateApi<'_> {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        let (resource, templates) = (self.0, step.templates);
        // A foreign kind's controller is all `create api` writes for it: its types are
        // k8s-openapi's, another crate's, or already imported (`import crd --external`).
        let wanted = |path: &str| {
            !resource.foreign() || path.starts_with("src/") || path.starts_with("tests/")
        };
        // `--force` scaffolds the kind's own files again; the files it shares with other
        // kinds keep their lines, and get the kind's at their markers.
        for (own, file) in render_owned(templates, step.after, None, Select::UserOwnedOf(resource))?
        {
            if !wanted(&file.path) {
                continue;
            }
            if own {
                planner.user_owned(&file.path, file.contents)?;
            } else {
                planner.user_owned_kept(&file.path, file.contents)?;
            }
        }
        let inserted = if resource.foreign() {
            Vec::new()
        } else {
            insertions(templates, step.after, resource)?
        };
        for Inserted {
            file,
            insertion,
            lines,
        } in inserted
        {
            if crd_listing::listed_later(planner, insertion, &lines)? {
                continue;
            }
            planner.insert(&file, insertion.marker, &lines, insertion.order)?;
        }
        Ok(())
    }
}

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
        let foreign_wanted = |path: &str| {
            !resource.foreign() || path.starts_with("src/") || path.starts_with("tests/")
        };
        // Another controller of a kind the project has (`--resource=false --controller-name`)
        // writes that controller's files alone; the kind's others are the user's already.
        let had = step
            .before
            .and_then(|before| {
                Some((
                    before,
                    before.resource(&resource.group, &resource.version, &resource.kind)?,
                ))
            })
            .filter(|_| !step.force);
        let existing: Vec<String> = match had {
            Some((before, was)) => render_owned(templates, before, None, Select::UserOwnedOf(was))?
                .into_iter()
                .map(|(_, file)| file.path)
                .collect(),
            None => Vec::new(),
        };
        let wanted = |path: &str| foreign_wanted(path) && !existing.iter().any(|p| p == path);
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
        let inserted = if resource.foreign() || had.is_some() {
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

//! `manifests`: the files generated from the code (the CRDs, the manager's role, the webhook
//! configurations), always replaced, and each new CRD listed in the CRDs' kustomization.

use super::crd_listing;
use crate::scaffold::{Error, Planner, Scaffold, Step};

/// `manifests` with the files it generated, `(path, contents)`.
pub(super) struct Manifests<'a>(pub(super) &'a [(String, String)]);

impl Scaffold for Manifests<'_> {
    fn plan(&self, planner: &mut Planner, _: &Step) -> Result<(), Error> {
        let generated = self.0;
        for (path, contents) in generated {
            planner.generated(path, contents.clone())?;
        }
        crd_listing::list_written(planner, generated)?;
        Ok(())
    }
}

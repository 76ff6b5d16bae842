//! The template sets of earlier webops (`templates-released/`, one directory per release),
//! carried so that `webop upgrade` re-renders what an older webop wrote for a project, the base
//! of its three-way merge, instead of the project keeping a copy of its own files. The scaffold
//! lock names the set that rendered the project by its id ([`Templates::id`]); a set is found by
//! computing the id of each, so a directory's name is only a label for people.

use std::path::Path;

use include_dir::{Dir, include_dir};

use crate::scaffold::Templates;
use crate::scaffold::templates::Error;

static RELEASED: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/templates-released");

/// One carried template set.
pub struct Release {
    /// The directory's name in `templates-released/` (the release it comes from).
    pub label: String,
    pub templates: Templates,
}

/// The labels of the carried sets, in name order.
pub fn labels() -> Vec<String> {
    let mut labels: Vec<String> = RELEASED
        .dirs()
        .map(|dir| dir.path().to_string_lossy().into_owned())
        .collect();
    labels.sort();
    labels
}

/// The carried set labelled `label`.
pub fn load(label: &str) -> Result<Option<Templates>, Error> {
    RELEASED
        .get_dir(Path::new(label))
        .map(Templates::from_embedded)
        .transpose()
}

/// The carried set whose id is `id`.
pub fn find(id: &str) -> Result<Option<Release>, Error> {
    for dir in RELEASED.dirs() {
        let templates = Templates::from_embedded(dir)?;
        if templates.id() == id {
            let label = dir.path().to_string_lossy().into_owned();
            return Ok(Some(Release { label, templates }));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::Project;
    use crate::upgrade::replay;

    /// Every carried set parses, has an id of its own, and renders the WebApp golden's PROJECT
    /// through today's engine: an upgrade from it can re-render its bases.
    #[test]
    fn every_released_set_renders_the_webapp_project_with_todays_engine() {
        let labels = labels();
        assert!(labels.contains(&"9dc9be8".to_owned()), "{labels:?}");
        let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/webapp-operator");
        let project = Project::load(&golden).unwrap();
        let license = Some("The webapp-operator Authors".to_owned());
        let current = Templates::load().unwrap();
        for label in labels {
            let templates = load(&label).unwrap().unwrap();
            assert_ne!(templates.id(), current.id(), "{label}");
            let found = find(templates.id()).unwrap().unwrap();
            assert_eq!(found.label, label);
            let files = replay::pristine(&templates, &project, &license).unwrap();
            assert!(files.contains_key("Makefile"), "{label}");
        }
        assert!(find("0000000000000000").unwrap().is_none());
    }
}

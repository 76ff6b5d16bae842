//! The bases of an upgrade: what the older webop rendered for each file. The lock names the
//! template set that rendered the project; replaying PROJECT's commands with that set through
//! this engine renders the bases again, and the lock's hashes prove each one is what was written
//! (an engine that rendered a set differently would be caught here, never merged from). A lock
//! from before the template id kept its bases in `.webop-scaffold/base/`, and those are read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::lock::{self, Lock, Owner};
use super::merge::Old;
use super::{releases, replay};
use crate::project::Project;
use crate::scaffold::fs::FileSystem;
use crate::scaffold::{Templates, templates};

/// Why the bases cannot be had. Nothing has been written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "this project was scaffolded by webop {webop} with templates {id}, which this webop does \
         not carry (a development build's, most likely): without them there is no base to merge \
         from. Pass that webop's templates directory with --base-templates <DIR> (a webop \
         checkout's templates/ at the commit that scaffolded the project), or use that webop \
         (nothing was changed)"
    )]
    UnknownTemplates { webop: String, id: String },
    #[error(
        "--base-templates {}: these are templates {given}, but the project was scaffolded with \
         templates {id} (nothing was changed)",
        .dir.display()
    )]
    OtherTemplates {
        dir: PathBuf,
        given: String,
        id: String,
    },
    #[error(
        "the templates {id} ({source_name}) render these files differently from what webop \
         {webop} wrote (their SHA-256 differs from {}'s): {}; this webop cannot merge into them \
         safely; run the upgrade with webop {webop}'s own build, or restore the files the lock \
         describes from version control (nothing was changed)",
        lock::FILE,
        .paths.join(", ")
    )]
    NotReproduced {
        webop: String,
        id: String,
        source_name: String,
        paths: Vec<String>,
    },
    #[error(transparent)]
    Templates(#[from] templates::Error),
    #[error(transparent)]
    Lock(#[from] lock::Error),
    #[error(transparent)]
    Replay(#[from] replay::Error),
}

/// What the older webop rendered for each file `lock` records, for the project at `root` whose
/// PROJECT is `project`. `current` is this webop's template set; `given` a directory of
/// templates the user named with `--base-templates`.
pub fn of_lock(
    fs: &dyn FileSystem,
    root: &Path,
    lock: &Lock,
    project: &Project,
    current: &Templates,
    given: Option<&Path>,
) -> Result<BTreeMap<String, Old>, Error> {
    let Some(id) = &lock.templates else {
        return kept(fs, root, lock);
    };
    let owned;
    let (templates, source_name) = if current.id() == id {
        (current, "this webop's".to_owned())
    } else if let Some(dir) = given {
        owned = Templates::from_dir(dir)?;
        if owned.id() != id {
            return Err(Error::OtherTemplates {
                dir: dir.to_owned(),
                given: owned.id().to_owned(),
                id: id.clone(),
            });
        }
        (&owned, dir.display().to_string())
    } else if let Some(release) = releases::find(id)? {
        owned = release.templates;
        (&owned, format!("templates-released/{}", release.label))
    } else {
        return Err(Error::UnknownTemplates {
            webop: lock.webop.clone(),
            id: id.clone(),
        });
    };
    let rendered = replay::pristine(templates, project, &lock.licensed())?;
    let mut olds = BTreeMap::new();
    let mut differ = Vec::new();
    for (path, locked) in &lock.files {
        let base = match locked.owner {
            Owner::Webop => None,
            Owner::User => match rendered.get(path) {
                Some(text) if lock::sha256(text.as_bytes()) == locked.sha256 => Some(text.clone()),
                _ => {
                    differ.push(path.clone());
                    continue;
                }
            },
        };
        let sha256 = locked.sha256.clone();
        olds.insert(path.clone(), Old { sha256, base });
    }
    if !differ.is_empty() {
        return Err(Error::NotReproduced {
            webop: lock.webop.clone(),
            id: id.clone(),
            source_name,
            paths: differ,
        });
    }
    Ok(olds)
}

/// The bases a lock without a template id kept in [`lock::BASE_DIR`].
fn kept(fs: &dyn FileSystem, root: &Path, lock: &Lock) -> Result<BTreeMap<String, Old>, Error> {
    let mut olds = BTreeMap::new();
    for (path, locked) in &lock.files {
        let base = lock.kept_base(fs, root, path)?;
        let sha256 = locked.sha256.clone();
        olds.insert(path.clone(), Old { sha256, base });
    }
    Ok(olds)
}

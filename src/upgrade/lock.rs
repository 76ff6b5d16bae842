//! The scaffold lock: what this webop rendered for the project, kept in the project so that a
//! later webop can merge its own templates into it without the old ones.
//!
//! `.webop-scaffold/lock.json` names the webop version, the id of the template set it rendered
//! with, the license `init` was given (the only input of the scaffold that PROJECT does not hold)
//! and, for every file the scaffold renders, who owns it and the SHA-256 of what was rendered.
//! The base of a user-owned file's three-way merge is re-rendered from that template set (see
//! [`super::releases`]), and the hash proves it is what was written; a tool-owned file needs only
//! its hash (it is re-rendered, after checking the user did not edit it). Nothing in it depends
//! on the time or the machine, so the same project always has the same lock.
//!
//! Locks written before the template id kept a copy of each base in `.webop-scaffold/base/`;
//! they are still read, and the next command that records the lock removes the copies.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

pub use crate::scaffold::digest::sha256;
use crate::scaffold::fs::{Entry, FileSystem};
use crate::scaffold::templates::is_tool_owned;
use crate::scaffolds::edit::Licensed;

/// The directory of the lock (not `.webop/`: `make vendor-webop` empties that one and
/// `.gitignore` leaves it out, while the lock belongs in version control).
pub const DIR: &str = ".webop-scaffold";
/// The lock file.
pub const FILE: &str = ".webop-scaffold/lock.json";
/// Where a lock without a template id keeps the bases of user-owned files, at their project
/// paths below it.
pub const BASE_DIR: &str = ".webop-scaffold/base";

/// Who owns a file the scaffold renders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Owner {
    /// Tool-owned: its first line is the `DO NOT EDIT` header.
    Webop,
    User,
}

/// One rendered file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Locked {
    pub owner: Owner,
    /// SHA-256 of the rendered text, lowercase hex.
    pub sha256: String,
}

/// The lock file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lock {
    /// The webop version that rendered the files.
    pub webop: String,
    /// The id of the template set that rendered them ([`crate::scaffold::Templates::id`]);
    /// `None` in a lock that keeps its bases in [`BASE_DIR`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub templates: Option<String>,
    /// `apache2` or `none`, as `init --license` (or `edit --license`) gave it.
    pub license: String,
    /// The copyright holder of the Apache-2.0 notice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Every rendered file, by path.
    pub files: BTreeMap<String, Locked>,
}

/// A lock that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{FILE}: {0}")]
    Io(std::io::Error),
    #[error(
        "{FILE} is not a scaffold lock webop can read ({0}); restore it from version control, \
         or run `webop upgrade --adopt` to record the project's files as they are"
    )]
    Format(serde_json::Error),
    #[error(
        "this project was scaffolded by webop {lock}, newer than this webop {ours}: its \
         templates are unknown to this webop, so it cannot scaffold over them (nothing was \
         changed); install webop {lock} or newer"
    )]
    Newer { lock: String, ours: &'static str },
    #[error(
        "{path} is not what webop {webop} rendered (its SHA-256 differs from {FILE}'s); restore \
         it from version control, or run `webop upgrade --adopt` to record the files as they are"
    )]
    BaseEdited { path: String, webop: String },
}

/// The base file of the project path `path`.
pub fn base_path(path: &str) -> String {
    format!("{BASE_DIR}/{path}")
}

impl Locked {
    /// Who owns a file rendered as `text`.
    pub fn owner_of(text: &str) -> Owner {
        if is_tool_owned(text) {
            Owner::Webop
        } else {
            Owner::User
        }
    }
}

impl Lock {
    /// The lock of `rendered` (from [`super::replay::pristine`]) by this webop with the
    /// template set `templates` (its id).
    pub fn new(rendered: &BTreeMap<String, String>, license: &Licensed, templates: &str) -> Lock {
        let files = rendered
            .iter()
            .map(|(path, text)| {
                let owner = Locked::owner_of(text);
                let sha256 = sha256(text.as_bytes());
                (path.clone(), Locked { owner, sha256 })
            })
            .collect();
        Lock {
            webop: env!("CARGO_PKG_VERSION").to_owned(),
            templates: Some(templates.to_owned()),
            license: if license.is_some() { "apache2" } else { "none" }.to_owned(),
            owner: license.clone(),
            files,
        }
    }

    /// The license `init` was given.
    pub fn licensed(&self) -> Licensed {
        (self.license == "apache2").then(|| self.owner.clone().unwrap_or_default())
    }

    /// The text of the lock file.
    pub fn text(&self) -> String {
        let mut json = serde_json::to_string_pretty(self).expect("a lock serializes");
        json.push('\n');
        json
    }

    /// The lock of the project at `root`, `None` when it has none.
    pub fn read(fs: &dyn FileSystem, root: &Path) -> Result<Option<Lock>, Error> {
        let path = root.join(FILE);
        if fs.entry(&path).map_err(Error::Io)? == Entry::Missing {
            return Ok(None);
        }
        let bytes = fs.read(&path).map_err(Error::Io)?;
        // The version first: a newer webop's lock may have a format this one cannot read, and
        // is refused as newer.
        let value: serde_json::Value = serde_json::from_slice(&bytes).map_err(Error::Format)?;
        let ours = super::VERSION;
        if let Some(lock) = value.get("webop").and_then(|v| v.as_str())
            && super::newer(lock, ours)
        {
            return Err(Error::Newer {
                lock: lock.to_owned(),
                ours,
            });
        }
        serde_json::from_value(value)
            .map(Some)
            .map_err(Error::Format)
    }

    /// The base of the user-owned file `path` kept in [`BASE_DIR`] by a lock without a template
    /// id, checked against its hash; `None` when the lock holds no base for it (a tool-owned
    /// file, or one it does not record).
    pub fn kept_base(
        &self,
        fs: &dyn FileSystem,
        root: &Path,
        path: &str,
    ) -> Result<Option<String>, Error> {
        let Some(locked) = self.files.get(path).filter(|l| l.owner == Owner::User) else {
            return Ok(None);
        };
        let base = base_path(path);
        let edited = || Error::BaseEdited {
            path: base.clone(),
            webop: self.webop.clone(),
        };
        let bytes = match fs.entry(&root.join(&base)).map_err(Error::Io)? {
            Entry::File { .. } => fs.read(&root.join(&base)).map_err(Error::Io)?,
            _ => return Err(edited()),
        };
        if sha256(&bytes) != locked.sha256 {
            return Err(edited());
        }
        Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lock_records_the_template_set_owners_and_hashes() {
        let rendered = BTreeMap::from([
            ("Makefile".to_owned(), "all:\n".to_owned()),
            (
                "PROJECT".to_owned(),
                "# Code generated by webop. DO NOT EDIT.\nversion: \"3\"\n".to_owned(),
            ),
        ]);
        let lock = Lock::new(&rendered, &None, "0123456789abcdef");
        assert_eq!(lock.files["Makefile"].owner, Owner::User);
        assert_eq!(lock.files["PROJECT"].owner, Owner::Webop);
        assert_eq!(
            lock.files["Makefile"].sha256,
            // printf 'all:\n' | sha256sum
            "dadd6bd529dc891f2252764150177c3d2ef3124745fcab282c4a12ed797f6e47"
        );
        let text = lock.text();
        assert!(
            text.contains("\"templates\": \"0123456789abcdef\""),
            "{text}"
        );
        let back: Lock = serde_json::from_str(&text).unwrap();
        assert_eq!(back, lock);
        assert_eq!(back.licensed(), None);
    }

    /// A lock written before the template id (its bases in `.webop-scaffold/base/`) is read.
    #[test]
    fn a_lock_without_a_template_id_is_read() {
        let text = r#"{"webop": "0.1.0", "license": "none", "files": {"Makefile": {"owner": "user", "sha256": "00"}}}"#;
        let lock: Lock = serde_json::from_str(text).unwrap();
        assert_eq!(lock.templates, None);
        assert_eq!(base_path("Makefile"), ".webop-scaffold/base/Makefile");
    }
}

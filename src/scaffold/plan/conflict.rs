//! Why a plan cannot be carried out: each refusal names the file and what the user can do.

/// Why a plan cannot be carried out. Nothing has been written.
#[derive(Debug, thiserror::Error)]
pub enum Conflict {
    #[error(
        "{path} was edited: it carries webop's DO NOT EDIT header and differs from what webop generated; \
         refusing to overwrite it (move your changes elsewhere, or pass --force to overwrite)"
    )]
    Edited { path: String },
    #[error(
        "{path} was edited since webop wrote it; refusing to delete it (keep what you need \
         elsewhere, or pass --force to delete it)"
    )]
    EditedToDelete { path: String },
    #[error(
        "{path} was edited since webop wrote it; refusing to rewrite it for {reason} (make that \
         change by hand and run the command again, or pass --force to overwrite it)"
    )]
    EditedToRewrite { path: String, reason: String },
    #[error(
        "{path} has no `+webop:scaffold:{marker}` line: webop inserts the new entries above that \
         line; add `# +webop:scaffold:{marker}` where they belong and run the command again"
    )]
    MissingMarker { path: String, marker: String },
    #[error(
        "{path} is missing: webop inserts new entries above its `+webop:scaffold:{marker}` line"
    )]
    MissingFile { path: String, marker: String },
    #[error(
        "{path} exists: refusing to overwrite it with the imported types (remove it, or pass --force to overwrite it)"
    )]
    Exists { path: String },
    #[error(
        "{path} has neither the commented-out nor the enabled form of this section, which webop \
         {purpose}:\n{section}\nadd it where it belongs (or restore the file) and run the command again"
    )]
    MissingSection {
        path: String,
        purpose: String,
        section: String,
    },
    #[error("{path} is missing: webop {purpose}")]
    MissingToEdit { path: String, purpose: String },
    #[error("{path} is read-only: refusing to write it (make it writable, or remove it)")]
    ReadOnly { path: String },
    #[error("{path} is in the way: webop needs to write a {wanted} there")]
    InTheWay { path: String, wanted: &'static str },
    #[error("{path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

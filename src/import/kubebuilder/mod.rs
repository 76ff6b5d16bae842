//! `webop import kubebuilder`: a kubebuilder go/v4 project (its `PROJECT`, the Go types of its
//! API packages with their `+kubebuilder:` markers, the RBAC markers of its controllers) read
//! into what a webop project of the same kinds needs: each kind's types file (translated from
//! Go, markers spelled from the catalogue as `import crd` spells them), its kind attributes,
//! the `#[rbac]` attributes of its controller, the `#[webhook]`s of its webhooks, its sample,
//! and the options `make manifests` needs. The CLI scaffolds the project with the engine
//! (`init`, `create api`, `create webhook`) and writes these into it.
//!
//! - `go`: the Go subset API packages are written in, with controller-gen's comment rules;
//! - `markers`: controller-tools' marker syntax and values;
//! - `known`: the marker names the import knows;
//! - `types`: Go types to Rust items; `kind`: a root type to the kind's attributes;
//! - `project`: the PROJECT file, the packages, the kinds' files; `files`: the Go files read;
//! - `rbac`: controllers' RBAC; `webhooks`: webhook markers to the scaffolded `#[webhook]`s;
//! - `external`: the type of an external kind with webhooks or a controller, from a CRD that
//!   keeps it whole;
//! - `samples`: the Go project's samples, and the controller test built from them;
//! - `shared`: the Go packages the API packages share, as modules of the API crate;
//! - `tooling`: controller-gen's Makefile options and go.mod's Kubernetes release;
//! - `deploy_image`: the deploy-image plugin's kinds as `create api --image` flags.

mod conversion;
mod deploy_image;
mod external;
mod files;
pub mod go;
mod kind;
mod known;
mod markers;
mod project;
mod project_file;
mod rbac;
mod samples;
mod shared;
mod tooling;
mod types;
mod webhooks;

use std::fmt;

pub use conversion::{server_test_needs_conversion, server_test_waiting_for_conversion};
pub use deploy_image::create_api_flags as deploy_image_flags;
pub use external::{crd as external_crd, header as external_header};
pub use project::{
    CoreController, CoreWebhooks, ImportedController, ImportedKind, KubebuilderImport, Resource,
    Webhooks, import,
};
pub use rbac::reconciler_of;
pub use samples::{Sample, controller_test};
pub use shared::SharedModule;
pub use tooling::{Tooling, cargo_toml, makefile};
pub use webhooks::{WebhookAttribute, create_webhook_flags, webhook_file};

/// Why a kubebuilder project cannot be imported. Nothing is written.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "{dir} is not a kubebuilder project: it has no PROJECT file (kubebuilder's `init` writes one)"
    )]
    NotAProject { dir: String },
    #[error("{file}: {message}")]
    Project { file: String, message: String },
    #[error("{0}: the Go file does not parse")]
    Go(go::ParseError),
    #[error("{file}:{line}: +{marker}: {why}")]
    Marker {
        file: String,
        line: usize,
        marker: String,
        why: String,
    },
    #[error("{file}:{line}: {kind} is no struct: a kind's root type is a struct with ObjectMeta")]
    NotAKind {
        file: String,
        line: usize,
        kind: String,
    },
    #[error("cannot read {path}: {message}")]
    Read { path: String, message: String },
}

/// A Go construct with no Rust mapping: where it is and what was done.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    pub file: String,
    pub line: usize,
    pub what: String,
}

impl fmt::Display for Issue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file, self.line, self.what)
    }
}

#[cfg(test)]
mod construct_tests;
#[cfg(test)]
mod tests;

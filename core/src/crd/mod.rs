//! Assembling `CustomResourceDefinition`s as controller-gen does (`pkg/crd/spec.go`,
//! `pkg/crd/markers/crd.go`, `pkg/crd/gen.go`) from what `#[derive(CustomResource)]` describes.

mod assemble;
mod root;

use std::process::ExitCode;

pub use assemble::{Error, assemble};
pub use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
pub use root::{flattened_root_schema, root_schema};

use crate::schema::JSONSchemaProps;

/// The annotation webop writes where controller-gen writes `controller-gen.kubebuilder.io/version`.
pub const VERSION_ANNOTATION: &str = "webop.dev/version";

/// The value of [`VERSION_ANNOTATION`]: this webop's version.
pub const VERSION: &str = concat!("v", env!("CARGO_PKG_VERSION"));

/// One version of one kind, as `#[derive(CustomResource)]` describes it. [`assemble`] combines
/// the versions of a kind into its CRD.
#[derive(Clone, Debug, PartialEq)]
pub struct CrdVersion {
    pub group: &'static str,
    pub version: &'static str,
    pub kind: &'static str,
    pub names: Names,
    pub namespaced: bool,
    /// The `openAPIV3Schema` of this version (see [`root_schema`]).
    pub schema: JSONSchemaProps,
    pub printer_columns: &'static [PrinterColumn],
    pub status_subresource: bool,
    pub scale: Option<Scale>,
    pub storage: bool,
    pub served: bool,
    /// Left out of the CRD (`+kubebuilder:skipversion`).
    pub skip: bool,
    /// Whether the kind has a CRD at all (`#[resource(skip)]`: `+kubebuilder:skip`).
    pub crd: bool,
    /// `Some(warning)` marks the version deprecated (`+kubebuilder:deprecatedversion`).
    pub deprecated: Option<Option<&'static str>>,
    pub selectable_fields: &'static [&'static str],
    /// `key=value` pairs for the CRD's own metadata (`+kubebuilder:metadata`).
    pub annotations: &'static [&'static str],
    pub labels: &'static [&'static str],
}

/// The names of a kind (`+kubebuilder:resource`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Names {
    pub plural: &'static str,
    pub singular: &'static str,
    pub short_names: &'static [&'static str],
    pub categories: &'static [&'static str],
}

/// `#[printcolumn(...)]` (`+kubebuilder:printcolumn`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PrinterColumn {
    pub name: &'static str,
    pub type_: &'static str,
    pub json_path: &'static str,
    pub description: Option<&'static str>,
    pub format: Option<&'static str>,
    pub priority: i32,
}

/// `#[subresource(scale(...))]` (`+kubebuilder:subresource:scale`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scale {
    pub spec_path: &'static str,
    pub status_path: &'static str,
    pub selector_path: Option<&'static str>,
}

/// The CRD of a kind that has this one version (what `<Kind>::crd()` returns).
pub fn single(version: CrdVersion) -> CustomResourceDefinition {
    let kind = version.kind;
    match assemble([version]) {
        Ok(mut crds) => crds.remove(0),
        Err(err) => panic!("webop: {kind} has no CRD of its own: {err}"),
    }
}

/// For an API crate's `crdgen` binary: prints the CRDs as a JSON array on stdout for
/// `webop manifests`, or the error on stderr.
pub fn print(crds: Result<Vec<CustomResourceDefinition>, Error>) -> ExitCode {
    match crds.map(|crds| serde_json::to_string(&crds)) {
        Ok(Ok(json)) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Ok(Err(err)) => {
            eprintln!("error: cannot serialize the CRDs: {err}");
            ExitCode::FAILURE
        }
        Err(err) => {
            eprintln!("error: {err}");
            ExitCode::FAILURE
        }
    }
}

//! What the attributes become, judged against controller-gen: the conformance cases, the oracle,
//! the differential test and the marker catalogue; and what the derive macros accept and make
//! (their compile errors are trybuild cases beside the macros, `macros/tests/ui.rs`).

// Several #[printcolumn]s share `type = "string"`: that is their design, not a mistake.
#![allow(clippy::duplicated_attributes)]

// The conformance cases: each is written as an operator's crate would be (a case names its
// siblings `crate::<case>`).
#[path = "../conformance/cronjob.rs"]
mod cronjob;
#[path = "../conformance/enums.rs"]
mod enums;
#[path = "../conformance/external_docs.rs"]
mod external_docs;
#[path = "../conformance/gen_foo.rs"]
mod gen_foo;
#[path = "../conformance/gen_zoo.rs"]
mod gen_zoo;
#[path = "../conformance/immutable.rs"]
mod immutable;
#[path = "../conformance/job.rs"]
mod job;
#[path = "../conformance/k8s_types.rs"]
mod k8s_types;
#[path = "../conformance/multiple_versions.rs"]
mod multiple_versions;
#[path = "../conformance/oneof.rs"]
mod oneof;
#[path = "../conformance/plural.rs"]
mod plural;
// Compiled, so the attributes are checked by the macro as in an operator crate.
#[path = "../conformance/rbac/controller.rs"]
mod rbac;
#[path = "../conformance/webapp.rs"]
mod webapp;
// The attributes are the case; its unit structs only carry them.
#[allow(dead_code)]
#[path = "../conformance/webhook/webhook.rs"]
mod webhook_case;
// Random kinds as Go and as Rust (`examples/differential.rs` runs it too).
// controller-gen, run as each test runs it (the differential test brings it in).
use differential::controller_gen;
#[path = "../differential/mod.rs"]
mod differential;

mod conformance;
mod controller_gen_conformance;
mod controller_gen_oracle;
mod derive_flatten_spec;
mod derive_k8s_types;
mod derive_serde;
mod derive_status_required;
mod derive_webapp;
mod derive_without_spec;
mod marker_catalogue;
mod random_kinds;
mod rbac_attribute;

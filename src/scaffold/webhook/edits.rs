//! The edits `create webhook` plans in files that exist: a block above a marker, the version's
//! `mod <kind>_conversion;`, kustomization sections uncommented, a replaced line, and the hub's
//! `#[storage_version]`; each refused with the file and what it needed when it cannot be made.

use crate::scaffold::kustomize::{self, DEFAULT_KUSTOMIZATION};
use crate::scaffold::markers::{self, Order};
use crate::scaffold::plan::{Conflict, Planner};

/// `mod <kind>_conversion;` in the version's module, among the kinds' modules.
pub(super) fn conversion_module(
    planner: &mut Planner,
    version: &str,
    kind_lower: &str,
) -> Result<(), Conflict> {
    planner.insert(
        &format!("api/src/{version}/mod.rs"),
        "kindmodules",
        &[format!("mod {kind_lower}_conversion;")],
        Order::Sorted,
    )
}

pub(super) fn insert_block(
    planner: &mut Planner,
    path: &str,
    marker: &str,
    block: &str,
) -> Result<(), Conflict> {
    planner.edit(
        path,
        &format!("inserts above its `+webop:scaffold:{marker}` line"),
        |text| {
            markers::insert_block(text, marker, block).ok_or_else(|| Conflict::MissingMarker {
                path: path.into(),
                marker: marker.into(),
            })
        },
    )
}

/// Enables a commented-out section of config/default/kustomization.yaml.
pub(super) fn uncomment(planner: &mut Planner, block: &kustomize::Block) -> Result<(), Conflict> {
    let purpose = "uncomments the [WEBHOOK] and [CERTMANAGER] sections of";
    planner.edit(DEFAULT_KUSTOMIZATION, purpose, |text| {
        markers::uncomment_block(text, block.text, "#").ok_or_else(|| Conflict::MissingSection {
            path: DEFAULT_KUSTOMIZATION.into(),
            purpose: "uncomments to serve the webhooks".into(),
            section: kustomize::commented(block.text),
        })
    })
}

pub(super) fn replace(
    planner: &mut Planner,
    path: &str,
    purpose: &str,
    old: &str,
    new: &str,
) -> Result<(), Conflict> {
    planner.edit(path, purpose, |text| {
        markers::replace_once(text, old, new).ok_or_else(|| Conflict::MissingSection {
            path: path.into(),
            purpose: format!("edits: it {purpose}, replacing `{old}` with"),
            section: new.into(),
        })
    })
}

/// `#[storage_version]` on the hub's type, after its `#[resource(... kind = "<Kind>")]` line
/// (kubebuilder's `+kubebuilder:storageversion`), unless the type has it.
pub(super) fn mark_storage_version(
    planner: &mut Planner,
    path: &str,
    kind: &str,
) -> Result<(), Conflict> {
    let purpose = "marks the hub #[storage_version]";
    planner.edit(path, purpose, |text| {
        if text.lines().any(|line| line.trim() == "#[storage_version]") {
            return Ok(text.to_owned());
        }
        let kind_key = format!("kind = \"{kind}\"");
        let mut out = String::with_capacity(text.len() + 20);
        let mut done = false;
        for line in text.split_inclusive('\n') {
            out.push_str(line);
            if !done && line.trim_start().starts_with("#[resource(") && line.contains(&kind_key) {
                out.push_str("#[storage_version]\n");
                done = true;
            }
        }
        if done {
            Ok(out)
        } else {
            Err(Conflict::MissingSection {
                path: path.into(),
                purpose: format!("needs to find {kind}'s `#[resource(...)]` line: it {purpose}"),
                section: format!("#[resource(group = \"...\", version = \"...\", {kind_key})]"),
            })
        }
    })
}

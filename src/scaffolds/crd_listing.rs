//! `config/crd/kustomization.yaml` lists a kind's CRD once the CRD exists: `create api` cannot
//! write it (it is the code's, and `webop manifests` compiles the code), and kustomize refuses a
//! kustomization that names a missing file, so `kubectl kustomize config/default` must build
//! right after `create api` as after `make manifests`. `create api` lists a CRD that exists
//! already (a second version of a kind); `manifests` lists each CRD it writes.

use crate::scaffold::Planner;
use crate::scaffold::catalogue::Insertion;
use crate::scaffold::markers::{self, Order};
use crate::scaffold::plan::Conflict;

/// The kustomization of the CRDs.
const FILE: &str = "config/crd/kustomization.yaml";
/// Its marker of the CRDs' lines.
const MARKER: &str = "crdkustomizeresource";

/// Whether `lines` of `insertion` wait for `manifests`: they list a CRD not written yet.
pub(super) fn listed_later(
    planner: &Planner,
    insertion: &Insertion,
    lines: &[String],
) -> Result<bool, Conflict> {
    if insertion.marker != MARKER {
        return Ok(false);
    }
    for line in lines {
        let Some(crd) = line.trim().strip_prefix("- ") else {
            continue;
        };
        if planner.after(&format!("config/crd/{crd}"))?.is_none() {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Lists each CRD of `generated` (`(path, contents)` that `manifests` writes) that the
/// kustomization does not list yet. A kustomization without its marker (the user's own) is
/// left alone.
pub(super) fn list_written(
    planner: &mut Planner,
    generated: &[(String, String)],
) -> Result<(), Conflict> {
    let Some(text) = planner.after(FILE)? else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(&text).into_owned();
    if !text.contains(&markers::marker(MARKER)) {
        return Ok(());
    }
    let missing: Vec<String> = generated
        .iter()
        .filter_map(|(path, _)| path.strip_prefix("config/crd/"))
        .filter(|crd| crd.starts_with("bases/"))
        .map(|crd| format!("- {crd}"))
        .filter(|line| !text.lines().any(|l| l.trim() == line))
        .collect();
    if missing.is_empty() {
        return Ok(());
    }
    planner.insert(FILE, MARKER, &missing, Order::Append)
}

//! What `create webhook` writes beyond the tool-owned files (which every command re-renders
//! from PROJECT: `src/webhook/mod.rs`, `config/webhook/`, `config/certmanager/`, ...): the kind's
//! webhook module and tests (user-owned: written whole when missing, else extended at their
//! markers with the webhook type the call adds, as kubebuilder's `WebhookUpdater` does), the
//! conversion files of the hub and its spokes, and the edits of user-owned files kubebuilder
//! makes: uncommenting the [WEBHOOK] and [CERTMANAGER] sections of
//! `config/default/kustomization.yaml`, the CRD's conversion patch, the network policy, the
//! `webhook` feature of webop, the hub's `#[storage_version]`, and the module and manager lines.

mod conversion;
pub(super) mod feature;
pub(super) mod files;

pub use files::conversion_is_incomplete;

use std::path::Path;

use crate::project::{Resource, Webhooks, layout};
use crate::scaffold::fs::{Entry, FileSystem};
use crate::scaffold::kustomize;
use crate::scaffold::markers::{self, Order};
use crate::scaffold::plan::{Conflict, Planner};
use crate::scaffold::templates::Templates;
use crate::scaffold::{Error, Scaffold, Step};

/// `create webhook` of `resource` (as recorded after the command), which had `before`.
#[derive(Clone, Copy, Debug)]
pub struct CreateWebhook<'a> {
    pub resource: &'a Resource,
    pub before: Option<&'a Webhooks>,
}

pub(super) const MODULE: &str = "@webhook/src/webhook/{{ version }}/{{ kind_lower }}_webhook.rs";
pub(super) const TESTS: &str = "@webhook/tests/{{ kind_lower }}_webhook.rs";
const HUB: &str = "@webhook/api/src/{{ version }}/{{ kind_lower }}_conversion.rs";
const SPOKE: &str = "@conversion-spoke/api/src/{{ version }}/{{ kind_lower }}_conversion.rs";
const CONVERSION_TESTS: &str = "@webhook/tests/{{ kind_lower }}_conversion.rs";

/// One admission webhook type: its fragments and the markers they go above.
pub(super) struct Admission {
    pub(super) registration: &'static str,
    pub(super) implementation: &'static str,
    pub(super) test: &'static str,
}

pub(super) const DEFAULTING: Admission = Admission {
    registration: "@fragments/webhook/defaulter_registration.rs",
    implementation: "@fragments/webhook/defaulter.rs",
    test: "@fragments/webhook/defaulter_test.rs",
};
pub(super) const VALIDATION: Admission = Admission {
    registration: "@fragments/webhook/validator_registration.rs",
    implementation: "@fragments/webhook/validator.rs",
    test: "@fragments/webhook/validator_test.rs",
};

pub(super) const DEFAULT_KUSTOMIZATION: &str = "config/default/kustomization.yaml";

impl Scaffold for CreateWebhook<'_> {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        plan(planner, step, *self)
    }
}

/// Plans the files `create webhook` writes and edits beyond the tool-owned ones.
fn plan(planner: &mut Planner, step: &Step, create: CreateWebhook) -> Result<(), Error> {
    let (fs, root, templates) = (step.fs, step.root, step.templates);
    let (project, force) = (step.after, step.force);
    let resource = create.resource;
    let webhooks = resource.webhooks.clone().unwrap_or_default();
    let before = create.before.cloned().unwrap_or_default();
    let mut context = files::context(fs, root, project, resource);
    let kind_lower = resource.kind.to_ascii_lowercase();
    let place = |path: &str| layout::place(path, &resource.group, project.multigroup);
    if webhooks.admission() {
        // A new file is the bare template with each webhook type added at its markers, as a
        // later call adds one to the existing file: one way to write both.
        let all = admissions(&webhooks, &Webhooks::default());
        let added = admissions(&webhooks, &before);
        for (template, in_file) in [(MODULE, InFile::Module), (TESTS, InFile::Tests)] {
            let bare = files::render(templates, project, resource, template, &context)?;
            if force || !exists(fs, root, &bare.path) {
                let mut contents = bare.contents;
                for admission in &all {
                    contents = add(
                        templates, &context, &bare.path, &contents, admission, in_file,
                    )?;
                }
                planner.user_owned(&bare.path, contents)?;
            } else {
                let mut failed = None;
                planner.edit(&bare.path, "adds the new webhook type to it", |text| {
                    let mut contents = text.to_owned();
                    for admission in &added {
                        match add(
                            templates, &context, &bare.path, &contents, admission, in_file,
                        ) {
                            Ok(next) => contents = next,
                            Err(Error::Conflict(conflict)) => return Err(conflict),
                            Err(other) => {
                                failed = Some(other);
                                return Ok(text.to_owned());
                            }
                        }
                    }
                    Ok(contents)
                })?;
                if let Some(error) = failed {
                    return Err(error);
                }
            }
        }
    }

    if webhooks.conversion {
        let files = files::conversion(templates, fs, root, project, resource, &mut context)?;
        planner.user_owned(&files.hub.path, files.hub.contents)?;
        mark_storage_version(planner, &files.hub_types, &resource.kind)?;
        for module in &files.modules {
            conversion_module(planner, module, &kind_lower)?;
        }
        for spoke in files.spokes {
            planner.user_owned(&spoke.path, spoke.contents)?;
        }
        planner.user_owned(&files.tests.path, files.tests.contents)?;
        let plural = resource.plural();
        let patch = place(&format!("config/crd/patches/webhook_in_{plural}.yaml"));
        let patch = patch.trim_start_matches("config/crd/");
        planner.insert(
            "config/crd/kustomization.yaml",
            "crdkustomizewebhookpatch",
            &[format!("- path: {patch}")],
            Order::Append,
        )?;
        let crd_name = format!("{plural}.{}", resource.qualified_group());
        for (block, marker, index) in [
            (
                &kustomize::CONVERSION_CA_NAMESPACE,
                kustomize::CONVERSION_CA_NAMESPACE_MARKER,
                0,
            ),
            (
                &kustomize::CONVERSION_CA_NAME,
                kustomize::CONVERSION_CA_NAME_MARKER,
                1,
            ),
        ] {
            uncomment(planner, block)?;
            let target = kustomize::conversion_ca_target(&crd_name, index);
            insert_block(planner, DEFAULT_KUSTOMIZATION, marker, &target)?;
        }
    }

    for (wanted, block) in [
        (true, &kustomize::WEBHOOK_RESOURCE),
        (true, &kustomize::CERTMANAGER_RESOURCE),
        (true, &kustomize::MANAGER_WEBHOOK_PATCH),
        (true, &kustomize::REPLACEMENTS),
        (true, &kustomize::SERVICE_DNS_NAMES),
        (webhooks.validation, &kustomize::VALIDATING_CA_INJECTION),
        (webhooks.defaulting, &kustomize::MUTATING_CA_INJECTION),
    ] {
        if wanted {
            uncomment(planner, block)?;
        }
    }
    replace(
        planner,
        "config/network-policy/kustomization.yaml",
        "lists the webhook server's network policy next to the metrics one",
        "- allow-metrics-traffic.yaml",
        "- allow-webhook-traffic.yaml\n- allow-metrics-traffic.yaml",
    )?;
    let purpose = "enables webop's `webhook` feature for the operator package";
    planner.edit("Cargo.toml", purpose, |text| {
        feature::enable(text).ok_or_else(|| Conflict::MissingSection {
            path: "Cargo.toml".into(),
            purpose: format!(
                "edits: it {purpose}, replacing the `webop.workspace = true` line with"
            ),
            section: r#"webop = { workspace = true, features = ["webhook"] }"#.into(),
        })
    })?;
    planner.insert(
        "src/lib.rs",
        "modules",
        &["pub mod webhook;".to_owned()],
        Order::Sorted,
    )?;
    planner.insert(
        "src/main.rs",
        "manager",
        &[format!(
            "let manager = manager.with_webhooks({}::webhook::webhooks());",
            project.crate_name()
        )],
        Order::Append,
    )?;
    Ok(())
}

/// The admission webhook types `webhooks` has and `before` had not.
pub(super) fn admissions(webhooks: &Webhooks, before: &Webhooks) -> Vec<&'static Admission> {
    [
        (webhooks.defaulting && !before.defaulting, &DEFAULTING),
        (webhooks.validation && !before.validation, &VALIDATION),
    ]
    .into_iter()
    .filter_map(|(added, admission)| added.then_some(admission))
    .collect()
}

/// Which of the kind's admission files.
#[derive(Clone, Copy)]
pub(super) enum InFile {
    Module,
    Tests,
}

/// `contents` of the file at `path` with the webhook type `admission` added at its markers.
pub(super) fn add(
    templates: &Templates,
    context: &tera::Context,
    path: &str,
    contents: &str,
    admission: &Admission,
    in_file: InFile,
) -> Result<String, Error> {
    let missing = |marker: &str| Conflict::MissingMarker {
        path: path.into(),
        marker: marker.into(),
    };
    let mut contents = contents.to_owned();
    if let InFile::Module = in_file {
        let line = templates.render(admission.registration, context)?.contents;
        contents = markers::insert(&contents, "webhookregistrations", &[line])
            .ok_or_else(|| missing("webhookregistrations"))?;
    }
    let (fragment, marker) = match in_file {
        InFile::Module => (admission.implementation, "webhooks"),
        InFile::Tests => (admission.test, "webhooktests"),
    };
    let block = templates.render(fragment, context)?.contents;
    Ok(markers::insert_block(&contents, marker, &block).ok_or_else(|| missing(marker))?)
}

fn exists(fs: &dyn FileSystem, root: &Path, path: &str) -> bool {
    !matches!(fs.entry(&root.join(path)), Ok(Entry::Missing))
}

pub(super) fn read(fs: &dyn FileSystem, root: &Path, path: &str) -> Option<String> {
    fs.read(&root.join(path))
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
}

/// `mod <kind>_conversion;` in the version's module (`module`, its path), among the kinds'
/// modules.
fn conversion_module(
    planner: &mut Planner,
    module: &str,
    kind_lower: &str,
) -> Result<(), Conflict> {
    planner.insert(
        module,
        "kindmodules",
        &[format!("mod {kind_lower}_conversion;")],
        Order::Sorted,
    )
}

fn insert_block(
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
fn uncomment(planner: &mut Planner, block: &kustomize::Block) -> Result<(), Conflict> {
    let purpose = "uncomments the [WEBHOOK] and [CERTMANAGER] sections of";
    planner.edit(DEFAULT_KUSTOMIZATION, purpose, |text| {
        markers::uncomment_block(text, block.text, "#").ok_or_else(|| Conflict::MissingSection {
            path: DEFAULT_KUSTOMIZATION.into(),
            purpose: "uncomments to serve the webhooks".into(),
            section: kustomize::commented(block.text),
        })
    })
}

fn replace(
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
fn mark_storage_version(planner: &mut Planner, path: &str, kind: &str) -> Result<(), Conflict> {
    let purpose = "marks the hub #[storage_version]";
    planner.edit(path, purpose, |text| {
        with_storage_version(text, kind).ok_or_else(|| Conflict::MissingSection {
            path: path.into(),
            purpose: format!("needs to find {kind}'s `#[resource(...)]` line: it {purpose}"),
            section: format!("#[resource(group = \"...\", version = \"...\", kind = \"{kind}\")]"),
        })
    })
}

/// `text` (a types file) with `#[storage_version]` on `kind`'s type as `create webhook
/// --conversion` marks the hub; `None` without the type's `#[resource(...)]` line.
pub(super) fn with_storage_version(text: &str, kind: &str) -> Option<String> {
    if text.lines().any(|line| line.trim() == "#[storage_version]") {
        return Some(text.to_owned());
    }
    let kind_key = format!("kind = \"{kind}\"");
    let mut out = String::with_capacity(text.len() + 20);
    let mut done = false;
    // The attribute so far, while in one (rustfmt spreads a long one over several lines).
    let mut attribute: Option<String> = None;
    for line in text.split_inclusive('\n') {
        out.push_str(line);
        if done {
            continue;
        }
        if line.trim_start().starts_with("#[resource(") {
            attribute = Some(String::new());
        }
        if let Some(so_far) = attribute.as_mut() {
            so_far.push_str(line);
            if line.trim_end().ends_with(")]") {
                if so_far.contains(&kind_key) {
                    out.push_str("#[storage_version]\n");
                    done = true;
                }
                attribute = None;
            }
        }
    }
    done.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scaffold::templates;

    #[test]
    fn the_fragments_are_templates() {
        let names = templates::names();
        for admission in [DEFAULTING, VALIDATION] {
            for fragment in [
                admission.registration,
                admission.implementation,
                admission.test,
            ] {
                assert!(names.iter().any(|n| n == fragment), "{fragment}");
            }
        }
        for file in [MODULE, TESTS, HUB, SPOKE, CONVERSION_TESTS] {
            assert!(names.iter().any(|n| n == file), "{file}");
        }
    }
}

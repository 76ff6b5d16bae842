//! What `create webhook` writes beyond the tool-owned files (which every command re-renders
//! from PROJECT: `src/webhook/mod.rs`, `config/webhook/`, `config/certmanager/`, ...): the kind's
//! webhook module and tests (user-owned: written whole when missing, else extended at their
//! markers with the webhook type the call adds, as kubebuilder's `WebhookUpdater` does), the
//! conversion files of the hub and its spokes, and the edits of user-owned files kubebuilder
//! makes: uncommenting the [WEBHOOK] and [CERTMANAGER] sections of
//! `config/default/kustomization.yaml`, the CRD's conversion patch, the network policy, the
//! `webhook` feature of webop, the hub's `#[storage_version]`, and the module and manager lines.

mod conversion;
mod edits;

use std::path::Path;

use super::Error;
use super::context::{ProjectVars, ResourceVars, Scoped};
use super::fs::FileSystem;
use super::kustomize;
use super::markers::{self, Order};
use super::plan::{Conflict, Planner};
use super::templates::Templates;
use crate::project::{Project, Resource, Webhooks};
use conversion::KindTypes;
use edits::{conversion_module, insert_block, mark_storage_version, replace, uncomment};

/// `create webhook` of `resource` (as recorded after the command), which had `before`.
#[derive(Clone, Copy, Debug)]
pub struct CreateWebhook<'a> {
    pub resource: &'a Resource,
    pub before: Option<&'a Webhooks>,
}

const MODULE: &str = "@webhook/src/webhook/{{ version }}/{{ kind_lower }}_webhook.rs";
const TESTS: &str = "@webhook/tests/{{ kind_lower }}_webhook.rs";
const HUB: &str = "@webhook/api/src/{{ version }}/{{ kind_lower }}_conversion.rs";
const SPOKE: &str = "@conversion-spoke/api/src/{{ version }}/{{ kind_lower }}_conversion.rs";
const CONVERSION_TESTS: &str = "@webhook/tests/{{ kind_lower }}_conversion.rs";

/// One spoke's round-trip test: ignored until its conversion is complete.
#[derive(serde::Serialize)]
struct SpokeTest<'a> {
    version: &'a str,
    /// webop could not write the whole conversion: the test waits for the user's.
    todo: bool,
}

/// One admission webhook type: its fragments and the markers they go above.
struct Admission {
    registration: &'static str,
    implementation: &'static str,
    test: &'static str,
}

const DEFAULTING: Admission = Admission {
    registration: "@fragments/webhook/defaulter_registration.rs",
    implementation: "@fragments/webhook/defaulter.rs",
    test: "@fragments/webhook/defaulter_test.rs",
};
const VALIDATION: Admission = Admission {
    registration: "@fragments/webhook/validator_registration.rs",
    implementation: "@fragments/webhook/validator.rs",
    test: "@fragments/webhook/validator_test.rs",
};

/// Plans the files `create webhook` writes and edits beyond the tool-owned ones.
pub(super) fn plan(
    planner: &mut Planner,
    fs: &dyn FileSystem,
    root: &Path,
    templates: &Templates,
    project: &Project,
    create: CreateWebhook,
    force: bool,
) -> Result<(), Error> {
    let resource = create.resource;
    let webhooks = resource.webhooks.clone().unwrap_or_default();
    let before = create.before.cloned().unwrap_or_default();
    let project_vars = ProjectVars::new(project, None);
    let mut context = project_vars.context(&Scoped::Resource(Box::new(ResourceVars::new(
        project, resource,
    ))));
    let kind_lower = resource.kind.to_ascii_lowercase();
    let version = &resource.version;

    context.insert("sample_json", &sample_json(fs, root, resource, &kind_lower));
    if webhooks.admission() {
        // A new file is the bare template with each webhook type added at its markers, as a
        // later call adds one to the existing file: one way to write both.
        let all = admissions(&webhooks, &Webhooks::default());
        let added = admissions(&webhooks, &before);
        for (template, in_file) in [(MODULE, InFile::Module), (TESTS, InFile::Tests)] {
            let bare = templates.render(template, &context)?;
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
        let hub = templates.render(HUB, &context)?;
        planner.user_owned(&hub.path, hub.contents)?;
        let hub_types = format!("api/src/{version}/{kind_lower}_types.rs");
        mark_storage_version(planner, &hub_types, &resource.kind)?;
        conversion_module(planner, version, &kind_lower)?;
        let hub_fields =
            read(fs, root, &hub_types).and_then(|s| KindTypes::read(&s, &resource.kind));
        let mut spoke_tests = Vec::new();
        for spoke_version in &webhooks.spoke {
            let Some(spoke) = project.resource(&resource.group, spoke_version, &resource.kind)
            else {
                continue; // `Project::with_webhook` checked that every spoke exists.
            };
            let spoke_types = format!("api/src/{spoke_version}/{kind_lower}_types.rs");
            let spoke_fields =
                read(fs, root, &spoke_types).and_then(|s| KindTypes::read(&s, &resource.kind));
            let mut spoke_context = project_vars.context(&Scoped::Resource(Box::new(
                ResourceVars::new(project, spoke),
            )));
            let hub_path = format!("{version}::");
            spoke_context.insert(
                "convert_to",
                &conversion::body(
                    &resource.kind,
                    spoke_fields.as_ref(),
                    hub_fields.as_ref(),
                    "self",
                    "super::",
                    &hub_path,
                    &format!("from {spoke_version} to {version}"),
                ),
            );
            spoke_context.insert(
                "convert_from",
                &conversion::body(
                    &resource.kind,
                    hub_fields.as_ref(),
                    spoke_fields.as_ref(),
                    "hub",
                    &hub_path,
                    "super::",
                    &format!("from {version} to {spoke_version}"),
                ),
            );
            let file = templates.render(SPOKE, &spoke_context)?;
            spoke_tests.push(SpokeTest {
                version: spoke_version,
                todo: file.contents.contains("Err(ConversionError::new("),
            });
            planner.user_owned(&file.path, file.contents)?;
            conversion_module(planner, spoke_version, &kind_lower)?;
        }
        context.insert("spoke_tests", &spoke_tests);
        let tests = templates.render(CONVERSION_TESTS, &context)?;
        planner.user_owned(&tests.path, tests.contents)?;
        let plural = resource.plural();
        planner.insert(
            "config/crd/kustomization.yaml",
            "crdkustomizewebhookpatch",
            &[format!("- path: patches/webhook_in_{plural}.yaml")],
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
            insert_block(planner, kustomize::DEFAULT_KUSTOMIZATION, marker, &target)?;
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
    replace(
        planner,
        "Cargo.toml",
        "enables webop's `webhook` feature for the operator package",
        r#"webop = { workspace = true, features = ["manager"] }"#,
        r#"webop = { workspace = true, features = ["manager", "webhook"] }"#,
    )?;
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
fn admissions(webhooks: &Webhooks, before: &Webhooks) -> Vec<&'static Admission> {
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
enum InFile {
    Module,
    Tests,
}

/// `contents` of the file at `path` with the webhook type `admission` added at its markers.
fn add(
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
    !matches!(fs.entry(&root.join(path)), Ok(super::fs::Entry::Missing))
}

fn read(fs: &dyn FileSystem, root: &Path, path: &str) -> Option<String> {
    fs.read(&root.join(path))
        .ok()
        .and_then(|bytes| String::from_utf8(bytes).ok())
}

/// The kind's sample (`config/samples/<group>_<version>_<kind>.yaml`) as pretty JSON for the
/// webhook tests; a bare object named `<kind>-sample` when there is no readable sample.
fn sample_json(fs: &dyn FileSystem, root: &Path, resource: &Resource, kind_lower: &str) -> String {
    let path = format!(
        "config/samples/{}_{}_{kind_lower}.yaml",
        resource.group, resource.version
    );
    let parsed = read(fs, root, &path)
        .and_then(|text| serde_saphyr::from_str::<serde_json::Value>(&text).ok())
        .filter(|value| value["metadata"]["name"].is_string());
    let value = parsed.unwrap_or_else(|| {
        serde_json::json!({
            "apiVersion": format!("{}/{}", resource.qualified_group(), resource.version),
            "kind": resource.kind,
            "metadata": {"name": format!("{kind_lower}-sample")},
            "spec": {},
        })
    });
    let pretty = serde_json::to_string_pretty(&value).expect("JSON values serialize");
    pretty.replace('\n', "\n    ")
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

//! The user-owned files of a kind's webhooks as `create webhook` writes them: `create webhook`
//! writes them, and `delete webhook` compares the tree with them to tell the files webop wrote
//! from those the user edited.

use std::path::Path;

use super::conversion::{self, KindTypes};
use super::{CONVERSION_TESTS, HUB, SPOKE, read};
use crate::project::{Project, Resource, layout};
use crate::scaffold::Error;
use crate::scaffold::context::{ProjectVars, ResourceVars, Scoped};
use crate::scaffold::fs::FileSystem;
use crate::scaffold::templates::{Rendered, Templates};

/// One spoke's round-trip test: ignored until its conversion is complete.
#[derive(serde::Serialize)]
struct SpokeTest<'a> {
    version: &'a str,
    /// webop could not write the whole conversion: the test waits for the user's.
    todo: bool,
}

/// Whether a spoke's conversion file (as webop wrote it, or as its user left it) still returns
/// the scaffold's TODO(user) error for fields webop could not convert.
pub fn conversion_is_incomplete(spoke: &str) -> bool {
    spoke.contains("Err(ConversionError::new(")
}

/// The Tera context of the kind's webhook files, with its sample for the tests.
pub(in crate::scaffolds) fn context(
    fs: &dyn FileSystem,
    root: &Path,
    project: &Project,
    resource: &Resource,
) -> tera::Context {
    let vars = ProjectVars::new(project, None);
    let mut context = vars.context(&Scoped::Resource(Box::new(ResourceVars::new(
        project, resource,
    ))));
    let kind_lower = resource.kind.to_ascii_lowercase();
    context.insert("sample_json", &sample_json(fs, root, resource, &kind_lower));
    context
}

/// Renders `template` for the kind, at its place in the project's layout (the templates are
/// written for the single-group tree).
pub(in crate::scaffolds) fn render(
    templates: &Templates,
    project: &Project,
    resource: &Resource,
    template: &str,
    context: &tera::Context,
) -> Result<Rendered, Error> {
    let mut file = templates.render(template, context)?;
    file.path = layout::place(&file.path, &resource.group, project.multigroup);
    Ok(file)
}

/// The files of the conversion webhook of the hub `resource`.
pub(in crate::scaffolds) struct ConversionFiles {
    /// `api/src/<hub>/<kind>_conversion.rs`.
    pub hub: Rendered,
    /// The hub's types file, which `create webhook` marks `#[storage_version]`.
    pub hub_types: String,
    /// The version modules that declare `mod <kind>_conversion;`: the hub's, then the spokes'.
    pub modules: Vec<String>,
    /// Each spoke's conversion, with the bodies computed from both versions' types as they are.
    pub spokes: Vec<Rendered>,
    /// The round-trip tests.
    pub tests: Rendered,
}

/// The conversion files of the hub `resource` for its PROJECT webhooks (`context`: its
/// [`context`], which gets the spokes' tests).
pub(in crate::scaffolds) fn conversion(
    templates: &Templates,
    fs: &dyn FileSystem,
    root: &Path,
    project: &Project,
    resource: &Resource,
    context: &mut tera::Context,
) -> Result<ConversionFiles, Error> {
    let place = |path: &str| layout::place(path, &resource.group, project.multigroup);
    let kind_lower = resource.kind.to_ascii_lowercase();
    let version = &resource.version;
    let project_vars = ProjectVars::new(project, None);
    let webhooks = resource.webhooks.clone().unwrap_or_default();
    let hub = render(templates, project, resource, HUB, context)?;
    let hub_types = place(&format!("api/src/{version}/{kind_lower}_types.rs"));
    let hub_fields = read(fs, root, &hub_types).and_then(|s| KindTypes::read(&s, &resource.kind));
    let mut modules = vec![place(&format!("api/src/{version}/mod.rs"))];
    let mut spokes = Vec::new();
    let mut spoke_tests = Vec::new();
    for spoke_version in &webhooks.spoke {
        let Some(spoke) = project.resource(&resource.group, spoke_version, &resource.kind) else {
            continue; // `Project::with_webhook` checked that every spoke exists.
        };
        let spoke_types = place(&format!("api/src/{spoke_version}/{kind_lower}_types.rs"));
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
        let file = render(templates, project, spoke, SPOKE, &spoke_context)?;
        spoke_tests.push(SpokeTest {
            version: spoke_version,
            todo: conversion_is_incomplete(&file.contents),
        });
        spokes.push(file);
        modules.push(place(&format!("api/src/{spoke_version}/mod.rs")));
    }
    context.insert("spoke_tests", &spoke_tests);
    let tests = render(templates, project, resource, CONVERSION_TESTS, context)?;
    Ok(ConversionFiles {
        hub,
        hub_types,
        modules,
        spokes,
        tests,
    })
}

/// The kind's sample (`config/samples/<group>_<version>_<kind>.yaml`) as pretty JSON for the
/// webhook tests; for one of Kubernetes' kinds, which has no sample, the smallest object the API
/// server admits ([`core_sample`]); a bare object named `<kind>-sample` when there is no readable
/// sample.
pub(in crate::scaffolds) fn sample_json(
    fs: &dyn FileSystem,
    root: &Path,
    resource: &Resource,
    kind_lower: &str,
) -> String {
    if resource.core {
        return pretty(&core_sample(resource, kind_lower));
    }
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
    pretty(&value)
}

fn pretty(value: &serde_json::Value) -> String {
    let pretty = serde_json::to_string_pretty(value).expect("JSON values serialize");
    pretty.replace('\n', "\n    ")
}

/// A Kubernetes kind named `<kind>-sample` as the API server admits it: the required fields of
/// the workloads and Services filled in with an unprivileged nginx, metadata alone for the rest
/// (ConfigMap, Secret, Namespace, ...: a kind that requires more is the user's to fill in).
fn core_sample(resource: &Resource, kind_lower: &str) -> serde_json::Value {
    use serde_json::json;
    let name = format!("{kind_lower}-sample");
    let group = resource.qualified_group();
    let api_version = if group.is_empty() {
        resource.version.clone()
    } else {
        format!("{group}/{}", resource.version)
    };
    let labels = json!({"app": name});
    let container = json!({"name": "app", "image": "nginxinc/nginx-unprivileged:1.27"});
    let pod = json!({"containers": [container]});
    let job = json!({"template": {"spec": {"containers": [container], "restartPolicy": "Never"}}});
    let template = json!({"metadata": {"labels": labels}, "spec": pod});
    let spec = match (group.as_str(), resource.kind.as_str()) {
        ("", "Pod") => Some(pod),
        ("", "Service") => Some(json!({"ports": [{"port": 8080}]})),
        ("apps", "Deployment" | "ReplicaSet" | "DaemonSet") => {
            Some(json!({"selector": {"matchLabels": labels}, "template": template}))
        }
        ("apps", "StatefulSet") => Some(json!({
            "selector": {"matchLabels": labels}, "serviceName": name, "template": template
        })),
        ("batch", "Job") => Some(job),
        ("batch", "CronJob") => {
            Some(json!({"schedule": "*/5 * * * *", "jobTemplate": {"spec": job}}))
        }
        _ => None,
    };
    let mut object = json!({
        "apiVersion": api_version,
        "kind": resource.kind,
        "metadata": {"name": name},
    });
    if let Some(spec) = spec {
        object["spec"] = spec;
    }
    object
}

//! The user-owned files of a kind's webhooks as `create webhook` writes them: `create webhook`
//! writes them, and `delete webhook` compares the tree with them to tell the files webop wrote
//! from those the user edited.

use std::path::Path;

use super::conversion::{self, KindTypes};
use super::{CONVERSION_TESTS, HUB, SPOKE, read};
use crate::project::{Project, Resource};
use crate::scaffold::Error;
use crate::scaffold::context::{ProjectVars, ResourceVars, Scoped};
use crate::scaffold::fs::FileSystem;
use crate::scaffold::layout;
use crate::scaffold::templates::{Rendered, Templates};

/// One spoke's round-trip test: ignored until its conversion is complete.
#[derive(serde::Serialize)]
struct SpokeTest<'a> {
    version: &'a str,
    /// webop could not write the whole conversion: the test waits for the user's.
    todo: bool,
}

/// The Tera context of the kind's webhook files, with its sample for the tests.
pub(super) fn context(
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
pub(super) fn render(
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
pub(super) struct ConversionFiles {
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
pub(super) fn conversion(
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
            todo: file.contents.contains("Err(ConversionError::new("),
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
/// webhook tests; a bare object named `<kind>-sample` when there is no readable sample.
pub(super) fn sample_json(
    fs: &dyn FileSystem,
    root: &Path,
    resource: &Resource,
    kind_lower: &str,
) -> String {
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

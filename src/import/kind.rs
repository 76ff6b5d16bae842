//! One CustomResourceDefinition to the items of each of its versions: the kind's attributes
//! (`#[resource]`, `#[subresource]`, `#[printcolumn]`, versions, `#[selectable_field]`,
//! `#[metadata]`, `#[root(x_validation)]`) on its spec struct, and the types of its schema.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::attribute::{self, string_literal};
use super::convert::{Converter, Position};
use super::keywords::{KeywordTable, same};
use super::model::{Item, Struct};
use super::{Error, Note};
use crate::crd::CustomResourceDefinition;
use crate::schema::Definitions;

/// The annotations a generator writes on every CRD (controller-gen's, webop's own): not the
/// kind's.
const GENERATOR_ANNOTATIONS: &[&str] = &[
    "controller-gen.kubebuilder.io/version",
    crate::crd::VERSION_ANNOTATION,
];

/// The root properties every kind has.
const OBJECT_PROPERTIES: &[&str] = &["apiVersion", "kind", "metadata"];

/// One version of an imported kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedVersion {
    pub version: String,
    /// The spec first, then the types it uses.
    pub items: Vec<Item>,
}

/// An imported kind: what PROJECT records, and its versions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportedKind {
    pub group: String,
    pub kind: String,
    pub plural: String,
    pub namespaced: bool,
    pub versions: Vec<ImportedVersion>,
}

/// `crd` (a parsed YAML document) as Rust items; `taken(version)` are the type names the
/// version's module already has.
pub fn import_crd(
    table: &KeywordTable,
    crd: &Value,
    taken: &dyn Fn(&str) -> BTreeSet<String>,
    notes: &mut Vec<Note>,
) -> Result<ImportedKind, Error> {
    check_is_crd(crd)?;
    let typed: CustomResourceDefinition =
        serde_json::from_value(crd.clone()).map_err(|err| Error::InvalidCrd(err.to_string()))?;
    let spec = &typed.spec;
    let names = &spec.names;
    let kind = names.kind.clone();
    let note = |notes: &mut Vec<Note>, keyword: &str, message: String| {
        notes.push(Note {
            version: String::new(),
            path: format!(
                "CustomResourceDefinition {}",
                typed.metadata.name.as_deref().unwrap_or("")
            ),
            keyword: keyword.to_owned(),
            message,
        });
    };

    let mut resource = vec![format!(
        "group = {}, version = {{version}}, kind = {}",
        string_literal(&spec.group),
        string_literal(&kind)
    )];
    if names.plural != webop_attrs::names::crd_default_plural(&kind) {
        resource.push(format!("plural = {}", string_literal(&names.plural)));
    }
    let singular = names.singular.clone().unwrap_or_default();
    if singular != webop_attrs::names::singular(&kind) {
        resource.push(format!("singular = {}", string_literal(&singular)));
    }
    if let Some(short) = names.short_names.as_ref().filter(|s| !s.is_empty()) {
        resource.push(format!("short_name = {}", list(short)));
    }
    if let Some(categories) = names.categories.as_ref().filter(|s| !s.is_empty()) {
        resource.push(format!("category = {}", list(categories)));
    }
    let namespaced = spec.scope == "Namespaced";
    if !namespaced {
        resource.push(format!("scope = {}", string_literal(&spec.scope)));
    }
    if names.list_kind.as_deref() != Some(&format!("{kind}List")) {
        note(
            notes,
            "listKind",
            format!("webop writes {kind}List, not {:?}", names.list_kind),
        );
    }
    let expected_name = format!("{}.{}", names.plural, spec.group);
    if typed.metadata.name.as_deref() != Some(&expected_name) {
        note(
            notes,
            "metadata.name",
            format!("webop names the CRD {expected_name}"),
        );
    }
    if spec
        .conversion
        .as_ref()
        .is_some_and(|c| c.strategy != "None")
    {
        note(
            notes,
            "conversion",
            "webop scaffolds no conversion webhook: left out".into(),
        );
    }
    if spec.preserve_unknown_fields == Some(true) {
        note(
            notes,
            "preserveUnknownFields",
            "apiextensions v1 refuses it: left out".into(),
        );
    }
    let mut metadata = Vec::new();
    for (key, entries) in [
        ("annotations", &typed.metadata.annotations),
        ("labels", &typed.metadata.labels),
    ] {
        let pairs: Vec<String> = entries
            .iter()
            .flatten()
            .filter(|(k, _)| !GENERATOR_ANNOTATIONS.contains(&k.as_str()))
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        if !pairs.is_empty() {
            metadata.push(format!("{key} = {}", list(&pairs)));
        }
    }

    let several = spec.versions.len() > 1;
    let mut versions = Vec::new();
    for (index, version) in spec.versions.iter().enumerate() {
        let raw = &crd["spec"]["versions"][index];
        let mut attributes = vec![format!(
            "#[resource({})]",
            resource
                .join(", ")
                .replace("{version}", &string_literal(&version.name))
        )];
        let mut taken = taken(&version.name);
        taken.extend([kind.clone(), format!("{kind}Spec"), format!("{kind}List")]);
        let mut converter = Converter::new(table, &kind, &version.name, taken);
        let Some(Value::Object(root)) = raw.pointer("/schema/openAPIV3Schema") else {
            return Err(Error::InvalidCrd(format!(
                "version {} has no schema.openAPIV3Schema: webop writes a schema for every version",
                version.name
            )));
        };
        let spec_struct = root_items(&mut converter, root, &kind, version, &mut attributes)?;
        if several && version.storage {
            attributes.push("#[storage_version]".into());
        }
        if !several && !version.storage {
            converter.note(
                "",
                "storage",
                "the one version of a CRD is its storage version",
            );
        }
        if !version.served {
            attributes.push("#[unserved_version]".into());
        }
        if version.deprecated == Some(true) {
            attributes.push(match &version.deprecation_warning {
                Some(w) => format!("#[deprecated_version(warning = {})]", string_literal(w)),
                None => "#[deprecated_version]".into(),
            });
        }
        for field in version.selectable_fields.iter().flatten() {
            attributes.push(format!(
                "#[selectable_field(json_path = {})]",
                string_literal(&field.json_path)
            ));
        }
        if !metadata.is_empty() {
            attributes.push(format!("#[metadata({})]", metadata.join(", ")));
        }
        let mut spec_struct = spec_struct;
        spec_struct.kind_attributes = attributes;
        let mut items = vec![Item::Struct(spec_struct)];
        items.append(&mut converter.items);
        notes.append(&mut converter.notes);
        versions.push(ImportedVersion {
            version: version.name.clone(),
            items,
        });
    }
    Ok(ImportedKind {
        group: spec.group.clone(),
        kind,
        plural: names.plural.clone(),
        namespaced,
        versions,
    })
}

fn check_is_crd(crd: &Value) -> Result<(), Error> {
    let api_version = crd.get("apiVersion").and_then(Value::as_str).unwrap_or("");
    let kind = crd.get("kind").and_then(Value::as_str).unwrap_or("");
    if api_version != "apiextensions.k8s.io/v1" || kind != "CustomResourceDefinition" {
        return Err(Error::NotACrd {
            api_version: api_version.to_owned(),
            kind: kind.to_owned(),
        });
    }
    Ok(())
}

/// The spec struct of one version with the root's attributes added to `attributes`; the status
/// and nested types go to the converter.
fn root_items(
    converter: &mut Converter,
    root: &Map<String, Value>,
    kind: &str,
    version: &k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinitionVersion,
    attributes: &mut Vec<String>,
) -> Result<Struct, Error> {
    for (keyword, _) in root.iter() {
        if ![
            "type",
            "properties",
            "required",
            "description",
            "x-kubernetes-validations",
        ]
        .contains(&keyword.as_str())
        {
            converter.note(
                "",
                keyword,
                "webop writes no such keyword on a kind's root: left out",
            );
        }
    }
    let empty = Map::new();
    let properties = root
        .get("properties")
        .and_then(Value::as_object)
        .unwrap_or(&empty);
    let standard = standard_properties();
    for name in OBJECT_PROPERTIES {
        match properties.get(*name) {
            Some(found) if same(found, &standard[*name]) => {}
            _ => converter.note(
                &format!(".{name}"),
                name,
                "webop writes every root's apiVersion, kind and metadata as controller-gen does",
            ),
        }
    }
    if let Some(description) = root.get("description").and_then(Value::as_str) {
        attributes.push(format!(
            "#[resource(doc = {})]",
            string_literal(description)
        ));
    }
    let required: Vec<&str> = root
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let own: Vec<&String> = properties
        .keys()
        .filter(|k| !OBJECT_PROPERTIES.contains(&k.as_str()) && *k != "spec" && *k != "status")
        .collect();
    let spec_name = format!("{kind}Spec");
    let mut spec = match properties.get("spec") {
        Some(spec) if own.is_empty() => {
            if required.contains(&"spec") {
                attributes.push("#[resource(spec_required)]".into());
            }
            let Value::Object(spec) = spec else {
                return Err(Error::InvalidSchema {
                    path: ".spec".into(),
                    keyword: String::new(),
                    rule: "a schema must be an object".into(),
                });
            };
            converter.root_struct(spec, ".spec", &spec_name, &[])?
        }
        None if !own.is_empty() => {
            // The root's own fields: the spec's fields at the root.
            attributes.push("#[resource(flatten_spec)]".into());
            let mut without_rules = root.clone();
            without_rules.remove("x-kubernetes-validations");
            without_rules.remove("description");
            let skip = ["apiVersion", "kind", "metadata", "status"];
            converter.root_struct(&without_rules, "", &spec_name, &skip)?
        }
        Some(_) => {
            for name in own {
                converter.note(
                    &format!(".{name}"),
                    name,
                    "a root with both a spec and fields of its own: left out",
                );
            }
            let spec = properties["spec"].as_object().unwrap_or(&empty);
            converter.root_struct(spec, ".spec", &spec_name, &[])?
        }
        None => Struct {
            name: spec_name,
            doc: None,
            kind_attributes: Vec::new(),
            markers: Vec::new(),
            fields: Vec::new(),
            unit: true,
        },
    };
    if let Some(rules) = root.get("x-kubernetes-validations") {
        let spec = webop_markers::MarkerKind::XValidation.spec();
        match attribute::write(spec, rules) {
            Ok(rules) => attributes.extend(
                rules
                    .into_iter()
                    .map(|rule| format!("#[root(x_validation({}))]", rule.text)),
            ),
            Err(why) => converter.note("", "x-kubernetes-validations", format!("{why}: left out")),
        }
    }
    let status_subresource = version
        .subresources
        .as_ref()
        .is_some_and(|s| s.status.is_some());
    match properties.get("status") {
        Some(status) => {
            let status = converter.resolve(status, ".status", "Status", Position::Named)?;
            let default_name = format!("{kind}Status");
            attributes.push(match (status_subresource, status.ty == default_name) {
                (true, true) => "#[subresource(status)]".into(),
                (true, false) => format!("#[subresource(status = {:?})]", status.ty),
                (false, _) => format!("#[resource(status = {:?})]", status.ty),
            });
            if required.contains(&"status") {
                attributes.push("#[resource(status_required)]".into());
            }
        }
        None if status_subresource => attributes.push("#[subresource(status = \"()\")]".into()),
        None => {}
    }
    if let Some(scale) = version.subresources.as_ref().and_then(|s| s.scale.as_ref()) {
        let mut entries = vec![
            format!("spec_path = {}", string_literal(&scale.spec_replicas_path)),
            format!(
                "status_path = {}",
                string_literal(&scale.status_replicas_path)
            ),
        ];
        if let Some(selector) = &scale.label_selector_path {
            entries.push(format!("selector_path = {}", string_literal(selector)));
        }
        attributes.push(format!("#[subresource(scale({}))]", entries.join(", ")));
    }
    for column in version.additional_printer_columns.iter().flatten() {
        let mut entries = vec![
            format!("name = {}", string_literal(&column.name)),
            format!("type = {}", string_literal(&column.type_)),
            format!("json_path = {}", string_literal(&column.json_path)),
        ];
        if let Some(description) = &column.description {
            entries.push(format!("description = {}", string_literal(description)));
        }
        if let Some(format) = &column.format {
            entries.push(format!("format = {}", string_literal(format)));
        }
        if let Some(priority) = column.priority.filter(|p| *p != 0) {
            entries.push(format!("priority = {priority}"));
        }
        attributes.push(format!("#[printcolumn({})]", entries.join(", ")));
    }
    spec.kind_attributes.clear();
    Ok(spec)
}

/// `apiVersion`, `kind` and `metadata` as webop writes them on every root.
fn standard_properties() -> Map<String, Value> {
    let root = crate::crd::root_schema(&Definitions::default(), None, None, None, &[], &[]);
    let root = serde_json::to_value(root).expect("a schema is JSON");
    root.get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default()
}

fn list(values: &[String]) -> String {
    let items: Vec<String> = values.iter().map(|v| string_literal(v)).collect();
    format!("[{}]", items.join(", "))
}

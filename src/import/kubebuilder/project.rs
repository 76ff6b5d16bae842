//! The kubebuilder project: its PROJECT file, the API packages its resources name, each kind's
//! Rust types file, and its controllers' RBAC.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::super::model::{Item, Struct};
use super::super::render;
use super::files::{go_files, go_files_under, read};
use super::go::GoFile;
use super::kind::root_kind;
use super::project_file::{ProjectFile, plugin_notes, resource_notes};
use super::samples::{self, Sample};
use super::shared::{self, SharedModule, uses_other};
use super::tooling::{self, Tooling};
use super::types::{Package, Translator};
use super::webhooks::{self, WebhookAttribute};
use super::{Error, Issue, conversion, rbac};

pub use super::project_file::{Resource, Webhooks};

/// One kind's version, ready to scaffold.
#[derive(Clone, Debug)]
pub struct ImportedKind {
    pub resource: Resource,
    pub namespaced: bool,
    /// Its controllers, in PROJECT's order.
    pub controllers: Vec<ImportedController>,
    /// The source of `api/src/<version>/<kind>_types.rs`.
    pub source: String,
    /// The Go file of its root type.
    pub go_file: String,
    /// The Go project's sample of the kind's version.
    pub sample: Option<Sample>,
    /// Its `+kubebuilder:webhook` markers as the attributes of the scaffolded webhooks.
    pub webhooks: Vec<WebhookAttribute>,
    /// The kind's API group (`<group>.<domain>` or the package's `groupName`).
    pub group_domain: String,
}

/// One controller of an imported kind.
#[derive(Clone, Debug)]
pub struct ImportedController {
    /// PROJECT's name of it (`create api --controller-name`); `None` for `controller: true`.
    pub name: Option<String>,
    /// The Go controller file whose reconciler it replaces, and its `#[rbac]` attributes.
    pub reconciler: Option<(String, Vec<String>)>,
}

/// A controller of a kind the project does not own: one of Kubernetes' (`core: true` in
/// PROJECT: on k8s-openapi's type) or an external one (`external: true`: on the type
/// `external::crd` gives it).
#[derive(Clone, Debug)]
pub struct CoreController {
    pub resource: Resource,
    /// The Go controller file it replaces, and its `#[rbac]` attributes.
    pub reconciler: Option<(String, Vec<String>)>,
}

/// The webhooks of a kind the project does not own, one of Kubernetes' (`core: true` with
/// `webhooks:` in PROJECT: on k8s-openapi's type) or an external one (`external: true`: on the
/// type `external::crd` gives it), scaffolded by `webop create webhook`.
#[derive(Clone, Debug)]
pub struct CoreWebhooks {
    pub resource: Resource,
    /// The kind's API group as the API server names it (`""`, `apps`, `cert-manager.io`).
    pub group_domain: String,
    /// Its `+kubebuilder:webhook` markers as the attributes of the scaffolded webhooks.
    pub webhooks: Vec<WebhookAttribute>,
}

/// What a kubebuilder project imports as.
#[derive(Clone, Debug)]
pub struct KubebuilderImport {
    pub project: ProjectFile,
    pub kinds: Vec<ImportedKind>,
    /// Controllers of Kubernetes' and external kinds, in PROJECT's order.
    pub core_controllers: Vec<CoreController>,
    /// Webhooks of Kubernetes' and external kinds, in PROJECT's order.
    pub core_webhooks: Vec<CoreWebhooks>,
    /// RBAC attributes of controller files that reconcile none of the kinds.
    pub other_rbac: Vec<(String, Vec<String>)>,
    /// The modules of the Go packages the API packages share (`api/shared`).
    pub shared: Vec<SharedModule>,
    /// controller-gen's options and the Kubernetes release, for the webop project.
    pub tooling: Tooling,
    pub issues: Vec<Issue>,
    /// What was dropped or collapsed as controller-gen drops or collapses it (a false flag, a
    /// repeated marker) or carried over in another form: the manifests are the same.
    pub notes: Vec<Issue>,
}

/// Reads the kubebuilder project at `root`.
pub fn import(root: &Path) -> Result<KubebuilderImport, Error> {
    let project_dir = root;
    let project_path = root.join("PROJECT");
    if !project_path.is_file() {
        return Err(Error::NotAProject {
            dir: root.display().to_string(),
        });
    }
    let shown = "PROJECT".to_owned();
    let project: ProjectFile =
        serde_saphyr::from_str(&read(&project_path)?).map_err(|err| Error::Project {
            file: shown.clone(),
            message: err.to_string(),
        })?;
    if !project
        .layout
        .iter()
        .any(|l| l.starts_with("go.kubebuilder.io/"))
    {
        return Err(Error::Project {
            file: shown,
            message: format!(
                "layout {:?} is not kubebuilder's Go layout (go.kubebuilder.io/v4)",
                project.layout
            ),
        });
    }
    let module = read(&root.join("go.mod"))?
        .lines()
        .find_map(|l| l.strip_prefix("module ").map(|m| m.trim().to_owned()))
        .ok_or_else(|| Error::Project {
            file: "go.mod".into(),
            message: "no `module` line".into(),
        })?;
    let mut issues = Vec::new();
    let mut notes = Vec::new();
    let mut packages: BTreeMap<String, Package> = BTreeMap::new();
    let owned: Vec<&Resource> = project
        .resources
        .iter()
        .filter(|r| r.api.is_some() && !r.external && !r.core)
        .collect();
    plugin_notes(&project, &mut notes, &mut issues);
    super::deploy_image::notes(&project, &mut notes, &mut issues);
    // Kubernetes' kinds with a controller: `create api --resource=false` on k8s-openapi's type;
    // external ones: on the type of the CRD `external::crd` writes.
    let core_controlled: Vec<&Resource> = project
        .resources
        .iter()
        .filter(|r| r.controller && (r.core || (r.external && r.api.is_none())))
        .collect();
    resource_notes(&project, &mut notes, &mut issues);
    for resource in &owned {
        let path = resource.path.clone().unwrap_or_default();
        let dir = path
            .strip_prefix(&format!("{module}/"))
            .ok_or_else(|| Error::Project {
                file: "PROJECT".into(),
                message: format!("{}: path {path:?} is not in module {module}", resource.kind),
            })?
            .to_owned();
        if !packages.contains_key(&dir) {
            let files = go_files(root, &root.join(&dir))?;
            packages.insert(dir.clone(), Package { files });
        }
    }

    // Controllers: RBAC and the reconciler each replaces.
    let kinds: Vec<&Resource> = owned.iter().chain(&core_controlled).copied().collect();
    let (by_reconciler, other_rbac) = rbac::by_reconciler(root, &kinds)?;

    let api_dirs: BTreeSet<String> = packages.keys().cloned().collect();
    let mut shared_uses = BTreeSet::new();
    let mut kinds = Vec::new();
    for (dir, package) in &packages {
        let resources: Vec<&&Resource> = owned
            .iter()
            .filter(|r| {
                r.path
                    .as_deref()
                    .is_some_and(|p| p.ends_with(&format!("/{dir}")))
            })
            .collect();
        let group_domain = |r: &Resource| {
            package
                .marker_value("groupName")
                .unwrap_or_else(|| format!("{}.{}", r.group, r.domain))
        };
        let mut translator = Translator::new(package);
        (translator.module, translator.api_dirs) = (module.clone(), api_dirs.clone());
        let mut roots = Vec::new();
        for resource in &resources {
            let Some((file, spec)) = package.find(&resource.kind) else {
                return Err(Error::Project {
                    file: "PROJECT".into(),
                    message: format!(
                        "{}: {dir} declares no type {}",
                        resource.kind, resource.kind
                    ),
                });
            };
            let several = owned
                .iter()
                .filter(|r| r.kind == resource.kind && r.group == resource.group)
                .count()
                > 1;
            let root = root_kind(
                &mut translator,
                file,
                spec,
                &group_domain(resource),
                &resource.version,
                several,
            )?;
            if let Some(spec) = &root.spec
                && *spec != format!("{}Spec", root.kind)
            {
                translator
                    .renames
                    .insert(spec.clone(), format!("{}Spec", root.kind));
            }
            roots.push((resource, file.path.clone(), root));
        }
        // Each local type goes to the file of the first kind that uses it.
        let mut owner: BTreeMap<String, usize> = BTreeMap::new();
        let root_names: BTreeSet<&str> = roots.iter().map(|(_, _, r)| r.kind.as_str()).collect();
        for (index, (_, _, root)) in roots.iter().enumerate() {
            let mut queue: Vec<String> = root.spec.iter().chain(&root.status).cloned().collect();
            if let Some(flattened) = &root.flattened {
                Translator::references(&flattened.ty, &mut queue);
            }
            while let Some(name) = queue.pop() {
                if owner.contains_key(&name) || root_names.contains(name.as_str()) {
                    continue;
                }
                let Some((_, spec)) = package.find(&name) else {
                    continue;
                };
                owner.insert(name.clone(), index);
                let mut refs = Vec::new();
                Translator::references(&spec.ty, &mut refs);
                queue.extend(refs);
            }
        }
        let mut items: Vec<Vec<Item>> = vec![Vec::new(); roots.len()];
        for (index, (_, _, root)) in roots.iter().enumerate() {
            if let (Some(flattened), Some((file, _))) = (&root.flattened, package.find(&root.kind))
            {
                items[index].extend(translator.item(file, flattened)?);
            }
        }
        for file in &package.files {
            for spec in &file.types {
                let Some(&index) = owner.get(&spec.name) else {
                    continue;
                };
                if let Some(item) = translator.item(file, spec)? {
                    items[index].push(item);
                }
            }
        }
        let names_of: Vec<BTreeSet<String>> = items
            .iter()
            .map(|list| list.iter().map(|i| i.name().to_owned()).collect())
            .collect();
        for (index, (resource, go_file, root)) in roots.into_iter().enumerate() {
            let spec_name = format!("{}Spec", root.kind);
            let mut list = std::mem::take(&mut items[index]);
            let at = list.iter().position(|i| i.name() == spec_name);
            let mut spec = match at.map(|at| list.remove(at)) {
                Some(Item::Struct(s)) => s,
                _ => Struct {
                    name: spec_name,
                    doc: None,
                    kind_attributes: Vec::new(),
                    markers: Vec::new(),
                    fields: Vec::new(),
                    unit: true,
                },
            };
            spec.kind_attributes = root.attributes.clone();
            if root.spec_doc.is_some() {
                spec.doc = root.spec_doc.clone();
            }
            if let Some(status) = &root.status
                && root.status_doc.is_some()
            {
                let status = translator.rust_name(status);
                for item in &mut list {
                    if let Item::Struct(s) = item
                        && s.name == status
                    {
                        s.doc = root.status_doc.clone();
                    }
                }
            }
            list.insert(0, Item::Struct(spec));
            let siblings = uses_other(&list, &names_of, index);
            let header = format!(
                "// Imported by `webop import kubebuilder` from {go_file}\n\
                 // ({} {}/{}). This file is yours: `webop manifests` writes the CRD controller-gen\n\
                 // wrote for the Go types until you change them.\n",
                root.kind, resource.group, resource.version
            );
            let source = render::file(&list, &header, siblings);
            let controllers = resource
                .controller_names()
                .into_iter()
                .map(|name| ImportedController {
                    name: name.map(str::to_owned),
                    reconciler: by_reconciler
                        .get(&(
                            resource.group.clone(),
                            rbac::reconciler_of(&root.kind, name),
                        ))
                        .cloned(),
                })
                .collect();
            let sample =
                samples::read(project_dir, &resource.group, &resource.version, &root.kind)?;
            kinds.push(ImportedKind {
                resource: Resource {
                    plural: resource.plural.clone().or(root.plural.clone()),
                    ..(**resource).clone()
                },
                namespaced: root.namespaced,
                controllers,
                source,
                go_file,
                sample,
                webhooks: Vec::new(),
                group_domain: group_domain(resource),
            });
        }
        issues.append(&mut translator.issues);
        notes.append(&mut translator.notes);
        shared_uses.append(&mut translator.shared);
        issues.extend(conversion::untranslated(&package.files));
    }
    // PROJECT's order: `create api` scaffolds them in it.
    kinds.sort_by_key(|k| {
        project.resources.iter().position(|r| {
            r.kind == k.resource.kind
                && r.version == k.resource.version
                && r.group == k.resource.group
        })
    });
    let mut webhook_files = Vec::new();
    go_files_under(root, &root.join("internal/webhook"), &mut webhook_files)?;
    let files: Vec<&GoFile> = (packages.values().flat_map(|p| &p.files))
        .chain(&webhook_files)
        .collect();
    let mut core_webhooks: Vec<CoreWebhooks> = super::external::foreign_webhooks(&project)
        .into_iter()
        .map(|(resource, group_domain)| CoreWebhooks {
            resource,
            group_domain,
            webhooks: Vec::new(),
        })
        .collect();
    let markers = webhooks::markers_of(&files)?;
    webhooks::attach(&markers, &mut kinds, &mut core_webhooks, &mut issues);
    let shared = shared::modules(
        root,
        &module,
        &api_dirs,
        shared_uses,
        &mut issues,
        &mut notes,
    )?;
    let tooling = tooling::read(project_dir, &mut issues);
    let core_controllers = core_controlled
        .iter()
        .map(|r| CoreController {
            resource: (*r).clone(),
            reconciler: by_reconciler
                .get(&(r.group.clone(), r.kind.clone()))
                .cloned(),
        })
        .collect();
    Ok(KubebuilderImport {
        project,
        kinds,
        core_controllers,
        core_webhooks,
        other_rbac,
        shared,
        tooling,
        issues,
        notes,
    })
}

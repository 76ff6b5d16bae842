//! `webop import crd`: CustomResourceDefinitions to API types, registered as `create api
//! --controller=false` registers a kind.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::{Args, Subcommand};

use crate::import::{self, KeywordTable};
use crate::project::{NewResource, Project};
use crate::scaffolds::{Command, ImportedApi, Request};

/// `webop import ...`.
#[derive(Debug, Subcommand)]
pub enum ImportCommand {
    Crd(ImportCrdArgs),
    Kubebuilder(super::import_kubebuilder::ImportKubebuilderArgs),
}

/// Import CustomResourceDefinitions as Rust API types: `webop manifests` gives them back.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # Types for a CRD, written to api/src/<version>/<kind>_types.rs and registered in PROJECT\n  \
    webop import crd config/crd/bases/app.example.com_webapps.yaml\n\n  \
    # Types for another operator's kind the project only watches: no CRD of its own\n  \
    webop import crd --external cert-manager.io_certificates.yaml")]
pub struct ImportCrdArgs {
    /// CRD YAML files (several documents each, all CustomResourceDefinitions).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Types for APIs the project only uses (another operator's), as kubebuilder's external
    /// APIs: `#[resource(skip)]` (no CRD of its own), no roles or sample, `external: true` in
    /// PROJECT.
    #[arg(long)]
    pub external: bool,
    /// Overwrite existing types files and scaffold kinds the project already has.
    #[arg(long)]
    pub force: bool,
    /// Print what would be written, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) fn run(command: ImportCommand, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let args = match command {
        ImportCommand::Crd(args) => args,
        ImportCommand::Kubebuilder(args) => return super::import_kubebuilder::run(args, cwd, out),
    };
    let (root, before) = Project::find(cwd)?;
    let table = KeywordTable::from_catalogue();
    let mut after = before.clone();
    let mut apis = Vec::new();
    let mut notes = Vec::new();
    for file in &args.files {
        let shown = file.display().to_string();
        let path = cwd.join(file);
        let text =
            std::fs::read_to_string(&path).with_context(|| format!("cannot read {shown}"))?;
        for crd in import::parse(&shown, &text)? {
            // The version modules of the CRD's group (its own directory when multigroup).
            let crd_group = split_group(
                crd["spec"]["group"].as_str().unwrap_or_default(),
                &before.domain,
            )
            .0;
            let taken = |version: &str| {
                let dir = format!("api/src/{version}");
                let dir = crate::project::layout::place(&dir, &crd_group, before.multigroup);
                taken_names(&root, &dir)
            };
            let mut imported = import::import(&table, &shown, &crd, &taken)?;
            if args.external {
                imported = import::external(imported, &shown);
            }
            for (version, source) in &imported.sources {
                let (group, domain) = split_group(&imported.kind.group, &before.domain);
                let default_plural = crate::names::plural(&imported.kind.kind);
                // `--force` over a kind the project has replaces its types: its controller
                // (and the image it runs) stays registered.
                let existing = after.resource(&group, version, &imported.kind.kind);
                let controller = existing.is_some_and(|r| r.has_controller());
                let image = existing.and_then(|r| after.deploy_image_options(r).cloned());
                let new = NewResource {
                    group,
                    version: version.clone(),
                    kind: imported.kind.kind.clone(),
                    plural: (imported.kind.plural != default_plural)
                        .then(|| imported.kind.plural.clone()),
                    namespaced: imported.kind.namespaced,
                    resource: true,
                    controller,
                    controller_name: None,
                    image,
                    force: args.force,
                    domain: Some(domain),
                    any_version: true,
                    external: args.external,
                    external_path: None,
                };
                let (next, resource) = after
                    .with_resource(&new)
                    .with_context(|| format!("{shown}: {} {version}", imported.kind.kind))?;
                after = next;
                apis.push(ImportedApi {
                    resource,
                    source: source.clone(),
                });
            }
            notes.extend(
                imported
                    .notes
                    .into_iter()
                    .map(|n| (shown.clone(), imported.kind.kind.clone(), n)),
            );
        }
    }
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::ImportApi(&apis),
        force: args.force,
    };
    super::scaffold(&request, args.dry_run, out)?;
    if notes.is_empty() {
        writeln!(out, "every schema keyword was written as an attribute")?;
    } else {
        writeln!(
            out,
            "{} schema keyword(s) have no webop attribute:",
            notes.len()
        )?;
        for (file, kind, note) in notes {
            writeln!(out, "  {file}: {kind} {note}")?;
        }
    }
    if !args.dry_run {
        writeln!(
            out,
            "Next: run `make manifests` to write the CRDs from the imported types"
        )?;
    }
    Ok(())
}

/// A CRD's group as PROJECT records it: the part before the project's domain, or before the
/// first dot for a group of another domain.
fn split_group(group: &str, domain: &str) -> (String, String) {
    if let Some(prefix) = group.strip_suffix(&format!(".{domain}")) {
        return (prefix.to_owned(), domain.to_owned());
    }
    match group.split_once('.') {
        Some((first, rest)) => (first.to_owned(), rest.to_owned()),
        None => (group.to_owned(), String::new()),
    }
}

/// The types the version module (`version_dir`) of the project's API crate already declares (`pub struct X`,
/// `pub enum X`, `pub type X`), which imported types must not reuse.
fn taken_names(root: &Path, version_dir: &str) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let Ok(entries) = std::fs::read_dir(root.join(version_dir)) else {
        return names;
    };
    for entry in entries.flatten() {
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        for line in text.lines() {
            let line = line.trim_start();
            for prefix in ["pub struct ", "pub enum ", "pub type "] {
                if let Some(rest) = line.strip_prefix(prefix) {
                    let name: String = rest
                        .chars()
                        .take_while(|c| c.is_alphanumeric() || *c == '_')
                        .collect();
                    names.insert(name.clone());
                    // A spec's derive also declares the kind.
                    if let Some(kind) = name.strip_suffix("Spec") {
                        names.insert(kind.to_owned());
                    }
                }
            }
        }
    }
    names
}

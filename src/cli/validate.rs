//! `webop validate`: check custom resources against the project's CRDs (or others) offline.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use clap::Args;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use serde_json::Value;

use crate::project::Project;
use crate::validate::{Validator, Verdict};

/// Check custom resources (YAML or JSON, several documents a file) as the API server would check
/// a create: schema, formats, defaults, CEL rules, list-map keys, names.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    webop validate config/samples/app_v1_webapp.yaml\n  \
    kubectl get webapps -o yaml | webop validate --strict -\n  \
    webop validate --crd crds/certificates.yaml certificate.yaml --show-defaults")]
pub struct ValidateArgs {
    /// Files to check; `-` reads standard input.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// CRD files to check against instead of the project's config/crd/bases.
    #[arg(long = "crd", value_name = "FILE")]
    pub crds: Vec<PathBuf>,
    /// Refuse unknown fields (fieldValidation=Strict) instead of pruning them.
    #[arg(long)]
    pub strict: bool,
    /// Print each valid object as the API server would store it, defaults applied.
    #[arg(long)]
    pub show_defaults: bool,
}

pub(super) fn run(args: ValidateArgs, cwd: &Path, out: &mut dyn Write) -> anyhow::Result<()> {
    let crds = if args.crds.is_empty() {
        project_crds(cwd)?
    } else {
        let mut crds = Vec::new();
        for file in &args.crds {
            crds.extend(crds_in(&cwd.join(file))?);
        }
        crds
    };
    let validator = Validator::new(&crds)?;
    let mut refused = 0;
    for file in &args.files {
        let (shown, text) = read(cwd, file)?;
        let documents: Vec<Value> = serde_saphyr::from_multiple(&text)
            .with_context(|| format!("{shown} is not YAML or JSON"))?;
        // `config/samples/*.yaml` names the samples' kustomization too: kustomize's file, no
        // object of the API server.
        if is_kustomization(file, &documents) {
            writeln!(
                out,
                "{shown}: a kustomization (kustomize's, not the API server's): skipped"
            )?;
            continue;
        }
        for (index, document) in documents.iter().enumerate().filter(|(_, d)| !d.is_null()) {
            let at = if documents.len() > 1 {
                format!("{shown} (document {})", index + 1)
            } else {
                shown.clone()
            };
            let what = format!(
                "{} {}",
                document["kind"].as_str().unwrap_or("(no kind)"),
                document
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or("(no name)")
            );
            match validator.check(document, args.strict) {
                Verdict::Valid(stored) => {
                    writeln!(out, "{at}: {what}: valid")?;
                    if args.show_defaults {
                        out.write_all(crate::yaml::to_string(&stored).as_bytes())?;
                    }
                }
                Verdict::Invalid(message) | Verdict::UnknownKind(message) => {
                    refused += 1;
                    writeln!(out, "{at}: {what}: {message}")?;
                }
            }
        }
    }
    if refused > 0 {
        bail!("{refused} document(s) would be refused by the API server");
    }
    Ok(())
}

/// Whether `file` is kustomize's: named `kustomization.yaml` (or `.yml`, `Kustomization`) with
/// no `apiVersion`, or of kind `Kustomization`/`Component` of `kustomize.config.k8s.io`.
fn is_kustomization(file: &Path, documents: &[Value]) -> bool {
    let named = file.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
        matches!(
            n,
            "kustomization.yaml" | "kustomization.yml" | "Kustomization"
        )
    });
    let kustomize_api = |d: &Value| {
        d["apiVersion"]
            .as_str()
            .is_some_and(|v| v.starts_with("kustomize.config.k8s.io/"))
    };
    let documents: Vec<&Value> = documents.iter().filter(|d| !d.is_null()).collect();
    !documents.is_empty()
        && documents
            .iter()
            .all(|d| kustomize_api(d) || (named && d.get("apiVersion").is_none()))
}

/// The CRDs in the project's config/crd/bases (what `make manifests` wrote).
fn project_crds(cwd: &Path) -> anyhow::Result<Vec<CustomResourceDefinition>> {
    let (root, _) = Project::find(cwd).context("pass --crd FILE outside a webop project")?;
    let dir = root.join("config/crd/bases");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .with_context(|| format!("cannot read {}: run `make manifests` first", dir.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "yaml" || e == "json"))
        .collect();
    paths.sort();
    let mut crds = Vec::new();
    for path in paths {
        crds.extend(crds_in(&path)?);
    }
    if crds.is_empty() {
        bail!("{} has no CRD: run `make manifests` first", dir.display());
    }
    Ok(crds)
}

/// The CRDs among the documents of `path`.
fn crds_in(path: &Path) -> anyhow::Result<Vec<CustomResourceDefinition>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let documents: Vec<Value> = serde_saphyr::from_multiple(&text)
        .with_context(|| format!("{} is not YAML or JSON", path.display()))?;
    let crds: Vec<CustomResourceDefinition> = documents
        .into_iter()
        .filter(|d| d["kind"] == "CustomResourceDefinition")
        .map(serde_json::from_value)
        .collect::<Result<_, _>>()
        .with_context(|| format!("{} has a CRD that is not valid", path.display()))?;
    if crds.is_empty() {
        bail!("{} has no CustomResourceDefinition", path.display());
    }
    Ok(crds)
}

/// The text of `file` (`-`: standard input) and how to name it.
fn read(cwd: &Path, file: &Path) -> anyhow::Result<(String, String)> {
    if file == Path::new("-") {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("cannot read standard input")?;
        return Ok(("<stdin>".to_owned(), text));
    }
    let text = std::fs::read_to_string(cwd.join(file))
        .with_context(|| format!("cannot read {}", file.display()))?;
    Ok((file.display().to_string(), text))
}

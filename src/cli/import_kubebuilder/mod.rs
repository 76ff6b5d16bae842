//! `webop import kubebuilder DIR [OUT]`: a new webop project from a kubebuilder go/v4 project.
//! The project is scaffolded by the engine as the user would (`init`, `create api` per kind in
//! PROJECT's order, `create webhook` per kind with webhooks), in a staging directory beside OUT;
//! the translated types files and the controllers' RBAC are written into it, and it becomes OUT
//! only when all of that succeeded: a failure leaves nothing behind.

mod rewrite;

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::Args;

use crate::import::kubebuilder::{self, ImportedKind, KubebuilderImport};

/// Import a kubebuilder project (Go types and markers) as a new webop project.
#[derive(Debug, Args)]
#[command(after_help = "Examples:\n  \
    # A webop project of the same kinds, written to ./cronjob-operator\n  \
    webop import kubebuilder ../project cronjob-operator\n  \
    cd cronjob-operator && make test")]
pub struct ImportKubebuilderArgs {
    /// The kubebuilder project (the directory of its PROJECT file).
    pub dir: PathBuf,
    /// The new project's directory [default: the project's name]; must not exist or be empty.
    pub out: Option<PathBuf>,
    /// Build the project against the webop source in DIR (as `webop init --webop-path`).
    #[arg(long, value_name = "DIR")]
    pub webop_path: Option<PathBuf>,
    /// Print what would be imported, and write nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub(super) fn run(
    args: ImportKubebuilderArgs,
    cwd: &Path,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    let dir = cwd.join(&args.dir);
    let imported = kubebuilder::import(&dir)?;
    let name = imported
        .project
        .project_name
        .clone()
        .unwrap_or_else(|| "project".to_owned());
    let target = cwd.join(args.out.clone().unwrap_or_else(|| PathBuf::from(&name)));
    if target.exists()
        && std::fs::read_dir(&target)
            .map(|mut d| d.next().is_some())
            .unwrap_or(true)
    {
        anyhow::bail!(
            "{} exists and is not empty: `webop import kubebuilder` writes a new project",
            target.display()
        );
    }
    for kind in &imported.kinds {
        writeln!(
            out,
            "{} {}/{}: {} ({})",
            kind.resource.kind,
            kind.resource.group,
            kind.resource.version,
            types_path(kind, imported.project.multigroup),
            kind.go_file
        )?;
    }
    for shared in &imported.shared {
        let (module, go) = (&shared.module, &shared.go_dir);
        writeln!(out, "shared types: api/src/{module}.rs ({go})")?;
    }
    report_issues(&imported, out)?;
    if args.dry_run {
        writeln!(out, "dry run: no file was written")?;
        return Ok(());
    }
    let staging = target.with_file_name(format!(
        ".{}.webop-import-{}",
        target
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("project"),
        std::process::id()
    ));
    std::fs::create_dir_all(&staging)
        .with_context(|| format!("cannot create {}", staging.display()))?;
    let built = scaffold(&imported, &name, &args, &staging);
    if let Err(err) = built {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(err);
    }
    if target.exists() {
        std::fs::remove_dir(&target)?;
    }
    std::fs::rename(&staging, &target).inspect_err(|_| {
        let _ = std::fs::remove_dir_all(&staging);
    })?;
    writeln!(
        out,
        "Imported into {}. Next: `cd {} && make test` (the manifests, then the tests)",
        target.display(),
        target.display()
    )?;
    Ok(())
}

/// `path` (as a single-group project has it) of `kind` in the imported project, whose layout
/// is the Go project's: multigroup ones put each group's files in its own directory.
fn place(path: &str, kind: &ImportedKind, multigroup: bool) -> String {
    crate::project::layout::place(path, &kind.resource.group, multigroup)
}

fn types_path(kind: &ImportedKind, multigroup: bool) -> String {
    let path = format!(
        "api/src/{}/{}_types.rs",
        kind.resource.version,
        kind.resource.kind.to_ascii_lowercase()
    );
    place(&path, kind, multigroup)
}

fn report_issues(imported: &KubebuilderImport, out: &mut dyn Write) -> anyhow::Result<()> {
    if !imported.notes.is_empty() {
        writeln!(
            out,
            "{} note(s), where the import follows controller-gen (nothing is lost):",
            imported.notes.len()
        )?;
        for note in &imported.notes {
            writeln!(out, "  {note}")?;
        }
    }
    if imported.issues.is_empty() {
        writeln!(out, "every Go type and marker has a Rust mapping")?;
        return Ok(());
    }
    writeln!(
        out,
        "{} Go construct(s) have no Rust mapping (the rest is imported):",
        imported.issues.len()
    )?;
    for issue in &imported.issues {
        writeln!(out, "  {issue}")?;
    }
    Ok(())
}

/// webop's plugins for the kubebuilder project's: its helm chart, its Grafana dashboards and its
/// auto-update workflow.
fn webop_plugins(imported: &KubebuilderImport) -> Vec<String> {
    let keys = imported.project.plugins.keys();
    keys.filter_map(|key| match key.split('.').next() {
        Some(name @ ("helm" | "grafana" | "autoupdate")) => Some(name.to_owned()),
        _ => None,
    })
    .collect()
}

/// `webop create <what>` for `resource`'s group, version and kind.
fn command(what: &str, resource: &kubebuilder::Resource) -> Vec<String> {
    [
        "create",
        what,
        "--group",
        &resource.group,
        "--version",
        &resource.version,
        "--kind",
        &resource.kind,
    ]
    .map(str::to_owned)
    .to_vec()
}

/// `webop create webhook` of the webhooks PROJECT lists for `resource`, each served where its
/// marker says; the markers' attributes (`attributes`) then replace the scaffold's `#[webhook]`s.
fn create_webhooks(
    dir: &Path,
    resource: &kubebuilder::Resource,
    attributes: &[kubebuilder::WebhookAttribute],
    multigroup: bool,
) -> anyhow::Result<()> {
    let webhooks = resource.webhooks.clone().unwrap_or_default();
    let mut create = command("webhook", resource);
    create.extend(kubebuilder::create_webhook_flags(&webhooks, attributes));
    if webhooks.conversion {
        create.push("--conversion".into());
        for spoke in &webhooks.spoke {
            create.extend(["--spoke".into(), spoke.clone()]);
        }
    }
    webop(dir, &create)?;
    if attributes.is_empty() {
        return Ok(());
    }
    let kind = resource.kind.to_ascii_lowercase();
    let path = format!("src/webhook/{}/{kind}_webhook.rs", resource.version);
    let file = crate::project::layout::place(&path, &resource.group, multigroup);
    rewrite::edit(dir, &file, |text| {
        crate::scaffold::rustfmt::format(&kubebuilder::webhook_file(text, attributes))
    })
}

/// The Rust type of an external kind with webhooks or a controller, which the Go project takes
/// from another Go module: `webop import crd --external` of a CRD that keeps the kind whole
/// (`kubebuilder::external_crd`), the CRD file removed after and the types' header saying so.
fn import_external_type(
    dir: &Path,
    resource: &kubebuilder::Resource,
    multigroup: bool,
) -> anyhow::Result<()> {
    let (file, crd) = kubebuilder::external_crd(resource);
    std::fs::write(dir.join(&file), crd)?;
    let imported = webop(
        dir,
        &[
            "import".into(),
            "crd".into(),
            "--external".into(),
            file.clone(),
        ],
    );
    std::fs::remove_file(dir.join(&file))?;
    imported?;
    let types = format!(
        "api/src/{}/{}_types.rs",
        resource.version,
        resource.kind.to_ascii_lowercase()
    );
    let types = crate::project::layout::place(&types, &resource.group, multigroup);
    let (written, instead) = kubebuilder::external_header(resource, &file);
    rewrite::edit(dir, &types, |text| text.replacen(&written, &instead, 1))
}

/// Runs `args` as a `webop` command in `dir`, its report discarded.
fn webop(dir: &Path, args: &[String]) -> anyhow::Result<()> {
    let mut sink = Vec::new();
    let argv = std::iter::once("webop".to_owned()).chain(args.iter().cloned());
    super::run(argv, dir, &mut sink).with_context(|| format!("webop {}", args.join(" ")))
}

fn scaffold(
    imported: &KubebuilderImport,
    name: &str,
    args: &ImportKubebuilderArgs,
    dir: &Path,
) -> anyhow::Result<()> {
    let project = &imported.project;
    let mut init = vec!["init".to_owned(), "--domain".into(), project.domain.clone()];
    init.extend(["--project-name".into(), name.to_owned()]);
    if let Some(repo) = &project.repo {
        init.extend(["--repo".into(), repo.clone()]);
    }
    if let Some(path) = &args.webop_path {
        init.extend(["--webop-path".into(), path.display().to_string()]);
    }
    let multigroup = project.multigroup;
    if multigroup {
        init.push("--multigroup".into());
    }
    webop(dir, &init)?;
    let plugins = webop_plugins(imported);
    if !plugins.is_empty() {
        webop(dir, &["edit".into(), "--plugins".into(), plugins.join(",")])?;
    }
    rewrite::edit(dir, "Makefile", |text| {
        kubebuilder::makefile(text, &imported.tooling)
    })?;
    if let Some(feature) = &imported.tooling.k8s_feature {
        rewrite::edit(dir, "Cargo.toml", |text| {
            kubebuilder::cargo_toml(text, feature)
        })?;
    }
    for kind in &imported.kinds {
        let r = &kind.resource;
        let (first, others) = match kind.controllers.split_first() {
            Some((first, others)) => (Some(first), others),
            None => (None, &[][..]),
        };
        let mut create = command("api", r);
        create.extend([
            "--resource=true".into(),
            format!("--controller={}", first.is_some()),
            format!("--namespaced={}", kind.namespaced),
        ]);
        if let Some(plural) = &r.plural {
            create.extend(["--plural".into(), plural.clone()]);
        }
        if let Some(name) = first.and_then(|c| c.name.as_ref()) {
            create.extend(["--controller-name".into(), name.clone()]);
        }
        // A kind of the deploy-image plugin: `--image ... --kubebuilder-spec` with its options.
        create.extend(kubebuilder::deploy_image_flags(&imported.project, r));
        webop(dir, &create)?;
        // kubebuilder's further named controllers of the kind, each beside the first.
        for other in others {
            let mut create = command("api", r);
            create.push("--resource=false".into());
            create.extend([
                "--controller-name".into(),
                other.name.clone().unwrap_or_default(),
            ]);
            webop(dir, &create)?;
        }
        std::fs::write(dir.join(types_path(kind, multigroup)), &kind.source)?;
        if let Some(sample) = &kind.sample {
            std::fs::write(dir.join(&sample.path), &sample.text)?;
        }
        for controller in &kind.controllers {
            let name = controller.name.as_deref();
            rewrite::rewrite_controller(dir, r, name, controller.reconciler.as_ref(), imported)?;
            rewrite::rewrite_controller_test(dir, kind, name, multigroup)?;
        }
    }
    // The Go packages the API packages share: modules of the API crate.
    for shared in &imported.shared {
        std::fs::write(
            dir.join(format!("api/src/{}.rs", shared.module)),
            &shared.source,
        )?;
        rewrite::edit(dir, "api/src/lib.rs", |text| {
            let marker = "// +webop:scaffold:apiversions";
            text.replacen(marker, &format!("pub mod {};\n{marker}", shared.module), 1)
        })?;
    }
    for core in &imported.core_controllers {
        let r = &core.resource;
        if r.external {
            import_external_type(dir, r, multigroup)?;
        }
        let mut create = command("api", r);
        create.extend(["--resource=false".into(), "--controller=true".into()]);
        webop(dir, &create)?;
        rewrite::rewrite_controller(dir, r, None, core.reconciler.as_ref(), imported)?;
    }
    for foreign in &imported.core_webhooks {
        // An external kind with a controller has its type already.
        if foreign.resource.external && !foreign.resource.controller {
            import_external_type(dir, &foreign.resource, multigroup)?;
        }
        create_webhooks(dir, &foreign.resource, &foreign.webhooks, multigroup)?;
    }
    for kind in &imported.kinds {
        if kind.resource.webhooks.is_some() {
            create_webhooks(dir, &kind.resource, &kind.webhooks, multigroup)?;
        }
    }
    for kind in &imported.kinds {
        wait_for_conversion(dir, imported, kind)?;
    }
    Ok(())
}

/// The webhook test of a hub `kind` whose spokes' conversions are left to port (the Go functions
/// are not translated) is ignored where the API server needs them, naming the files to write.
fn wait_for_conversion(
    dir: &Path,
    imported: &KubebuilderImport,
    kind: &ImportedKind,
) -> anyhow::Result<()> {
    let resource = &kind.resource;
    let Some(webhooks) = resource.webhooks.as_ref().filter(|w| w.conversion) else {
        return Ok(());
    };
    let multigroup = imported.project.multigroup;
    let kind_lower = resource.kind.to_ascii_lowercase();
    let incomplete: Vec<String> = (webhooks.spoke.iter())
        .map(|spoke| {
            place(
                &format!("api/src/{spoke}/{kind_lower}_conversion.rs"),
                kind,
                multigroup,
            )
        })
        .filter(|file| {
            std::fs::read_to_string(dir.join(file))
                .is_ok_and(|text| crate::scaffolds::conversion_is_incomplete(&text))
        })
        .collect();
    let test = place(&format!("tests/{kind_lower}_webhook.rs"), kind, multigroup);
    if incomplete.is_empty()
        || !kubebuilder::server_test_needs_conversion(&imported.project.resources, resource)
        || !dir.join(&test).is_file()
    {
        return Ok(());
    }
    rewrite::edit(dir, &test, |text| {
        kubebuilder::server_test_waiting_for_conversion(text, &resource.kind, &incomplete)
    })
}

//! The steps of a sequence, and how the next ones are drawn from the project as it stands: mostly
//! commands a user would type about the kinds the project has, sometimes about kinds it does not
//! have (webop must refuse them and change nothing), with `cargo fmt`, the user's own edits and
//! `--force` re-runs in between.

use std::fmt;
use std::path::Path;

use webop_cli::project::{Project, Resource};

use super::rng::Rng;
use super::tree;

const GROUPS: &[&str] = &["app", "batch", "ship"];
const VERSIONS: &[&str] = &["v1", "v2", "v1beta1"];
const KINDS: &[&str] = &["WebApp", "Cache", "Frigate"];
const PLURALS: &[&str] = &["webapps", "caches", "fleets"];

/// One thing a user does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// `webop <args>`.
    Webop(Vec<String>),
    /// `cargo fmt`: rustfmt over every Rust file of the project, as `make build` runs it.
    CargoFmt,
    /// The user adds a comment line to the user-owned file `path`: above its first
    /// `+webop:scaffold:` marker (where webop inserts), or at its end.
    UserEdit { path: String, at_marker: bool },
    /// `webop manifests`, then the project builds, lints (`-D warnings`), passes its tests, and
    /// `kubectl kustomize config/default` builds.
    Checkpoint,
}

impl Step {
    fn webop(args: &[&str]) -> Step {
        Step::Webop(args.iter().map(|a| (*a).to_owned()).collect())
    }

    /// The `webop` arguments, if this step runs webop.
    pub fn args(&self) -> Option<&[String]> {
        match self {
            Step::Webop(args) => Some(args),
            _ => None,
        }
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Step::Webop(args) => {
                let quoted: Vec<String> = args
                    .iter()
                    .map(|a| {
                        if a.contains(' ') {
                            format!("'{a}'")
                        } else {
                            a.clone()
                        }
                    })
                    .collect();
                write!(f, "webop {}", quoted.join(" "))
            }
            Step::CargoFmt => write!(f, "cargo fmt"),
            Step::UserEdit { path, at_marker } => {
                let place = if *at_marker {
                    "above its webop marker"
                } else {
                    "at its end"
                };
                write!(f, "(user adds a comment to {path} {place})")
            }
            Step::Checkpoint => write!(
                f,
                "(checkpoint: webop manifests; cargo build, clippy -D warnings, test; kustomize)"
            ),
        }
    }
}

/// What the generator may draw.
#[derive(Clone, Copy, Debug)]
pub struct Draw {
    /// `webop manifests` (it compiles the API crate: slow).
    pub manifests: bool,
}

/// The next steps (one, or a command and its inverse) for the project at `root` (`project`:
/// its PROJECT file, if any).
pub fn next(rng: &mut Rng, root: &Path, project: Option<&Project>, draw: Draw) -> Vec<Step> {
    let Some(project) = project else {
        return vec![init(rng)];
    };
    let existing = &project.resources;
    match rng.below(100) {
        0..=27 => vec![create_api(rng, existing)],
        28..=32 => create_then_delete(rng, project),
        33..=42 => vec![create_webhook(rng, existing)],
        43..=49 => vec![delete_api(rng, existing)],
        50..=53 => vec![delete_webhook(rng, existing)],
        54..=61 => vec![edit(rng)],
        62..=67 => vec![import_crd(rng, root)],
        68..=69 => vec![Step::webop(&["upgrade"])],
        70..=78 => vec![Step::CargoFmt],
        79..=88 => user_edit(rng, root).into_iter().collect(),
        89..=95 => force_rerun(rng, project).into_iter().collect(),
        96 => vec![init(rng)],
        _ if draw.manifests => vec![Step::webop(&["manifests"])],
        _ => vec![Step::CargoFmt],
    }
}

fn init(rng: &mut Rng) -> Step {
    let mut args = vec![
        "init",
        "--domain",
        "example.com",
        "--repo",
        "github.com/example/seq",
    ];
    if rng.chance(30) {
        args.push("--multigroup");
    }
    if rng.chance(20) {
        args.extend(["--license", "none"]);
    }
    if rng.chance(20) {
        args.extend(["--owner", "Acme Corp"]);
    }
    Step::webop(&args)
}

/// `--group G --version V --kind K`, mostly of a kind the project has (or its group).
fn gvk(rng: &mut Rng, existing: &[Resource]) -> Vec<String> {
    let (group, version, kind) = if !existing.is_empty() && rng.chance(60) {
        let r = rng.pick(existing);
        let version = if rng.chance(50) {
            r.version.clone()
        } else {
            (*rng.pick(VERSIONS)).to_owned()
        };
        (r.group.clone(), version, r.kind.clone())
    } else {
        let group = (*rng.pick(GROUPS)).to_owned();
        let version = (*rng.pick(VERSIONS)).to_owned();
        (group, version, (*rng.pick(KINDS)).to_owned())
    };
    ["--group", &group, "--version", &version, "--kind", &kind]
        .iter()
        .map(|s| (*s).to_owned())
        .collect()
}

/// `--group G --version V --kind K` of one of Kubernetes' kinds.
fn kubernetes_gvk(rng: &mut Rng) -> Vec<String> {
    let (group, kind) = *rng.pick(&[("core", "Pod"), ("apps", "Deployment"), ("batch", "Job")]);
    ["--group", group, "--version", "v1", "--kind", kind]
        .iter()
        .map(|s| (*s).to_owned())
        .collect()
}

fn create_api(rng: &mut Rng, existing: &[Resource]) -> Step {
    let mut args = vec!["create".to_owned(), "api".to_owned()];
    // A controller of one of Kubernetes' kinds (kubebuilder's `--resource=false` on k8s.io/api).
    if rng.chance(10) {
        args.extend(kubernetes_gvk(rng));
        args.push("--resource=false".into());
        return Step::Webop(args);
    }
    args.extend(gvk(rng, existing));
    // Another, named controller of a kind the project has (kubebuilder's `--controller-name`).
    let has = |r: &&Resource| r.group == args[3] && r.version == args[5] && r.kind == args[7];
    if rng.chance(8) && existing.iter().any(|r| has(&r)) {
        let name = args[7].to_ascii_lowercase() + "-" + *rng.pick(&["audit", "backup"]);
        args.extend(["--resource=false", "--controller-name", &name].map(str::to_owned));
        return Step::Webop(args);
    }
    let flavour: &[&str] = match rng.below(9) {
        0 | 1 => &["--image", "nginx:1.25", "--port", "80"],
        2 => &["--namespaced=false"],
        3 => &["--controller=false"],
        // A controller for a kind of the project's API.
        4 if existing
            .iter()
            .any(|r| r.api.is_some() && !r.external && r.group == args[3] && r.kind == args[7]) =>
        {
            &["--resource=false"]
        }
        5 => &["--plural", PLURALS[rng.below(PLURALS.len())]],
        _ => &[],
    };
    args.extend(flavour.iter().map(|s| (*s).to_owned()));
    if rng.chance(10) {
        args.push("--force".into());
    }
    Step::Webop(args)
}

/// `create api` of a kind the project does not have, then `delete api` of it: the tree must
/// come back byte for byte.
fn create_then_delete(rng: &mut Rng, project: &Project) -> Vec<Step> {
    let create = create_api(rng, &[]);
    let args = create.args().expect("a webop step");
    let gvk = &args[2..8];
    if project.resource(&gvk[1], &gvk[3], &gvk[5]).is_some() || args.iter().any(|a| a == "--force")
    {
        return vec![create];
    }
    let mut delete = vec!["delete".to_owned(), "api".to_owned()];
    delete.extend(gvk.iter().cloned());
    vec![create, Step::Webop(delete)]
}

fn create_webhook(rng: &mut Rng, existing: &[Resource]) -> Step {
    let mut args = vec!["create".to_owned(), "webhook".to_owned()];
    // Webhooks of one of Kubernetes' kinds now and then (kubebuilder's "webhooks for core types").
    let target = if rng.chance(15) {
        kubernetes_gvk(rng)
    } else {
        gvk(rng, existing)
    };
    let (group, kind) = (target[1].clone(), target[5].clone());
    args.extend(target);
    let mut any = false;
    if rng.chance(50) {
        args.push("--defaulting".into());
        any = true;
    }
    if rng.chance(50) {
        args.push("--programmatic-validation".into());
        any = true;
    }
    if !any || rng.chance(25) {
        args.push("--conversion".into());
        let spokes: Vec<&Resource> = existing
            .iter()
            .filter(|r| r.group == group && r.kind == kind && r.version != args[5])
            .collect();
        if !spokes.is_empty() {
            let spoke = rng.pick(&spokes).version.clone();
            args.extend(["--spoke".to_owned(), spoke]);
        }
    }
    if rng.chance(10) {
        args.push("--force".into());
    }
    Step::Webop(args)
}

fn delete_api(rng: &mut Rng, existing: &[Resource]) -> Step {
    let mut args = vec!["delete".to_owned(), "api".to_owned()];
    args.extend(gvk(rng, existing));
    if rng.chance(15) {
        args.push("--force".into());
    }
    Step::Webop(args)
}

fn delete_webhook(rng: &mut Rng, existing: &[Resource]) -> Step {
    let with: Vec<&Resource> = existing.iter().filter(|r| r.webhooks.is_some()).collect();
    let mut args = vec!["delete".to_owned(), "webhook".to_owned()];
    let Some(resource) = (!with.is_empty()).then(|| *rng.pick(&with)) else {
        args.extend(gvk(rng, existing));
        args.push("--defaulting".into());
        return Step::Webop(args);
    };
    for (flag, value) in [
        ("--group", &resource.group),
        ("--version", &resource.version),
        ("--kind", &resource.kind),
    ] {
        args.extend([flag.to_owned(), value.clone()]);
    }
    let webhooks = resource.webhooks.clone().unwrap_or_default();
    for (flag, has) in [
        ("--defaulting", webhooks.defaulting),
        ("--programmatic-validation", webhooks.validation),
        ("--conversion", webhooks.conversion),
    ] {
        if has && rng.chance(70) {
            args.push(flag.to_owned());
        }
    }
    if args.len() == 8 {
        args.push("--defaulting".into());
    }
    Step::Webop(args)
}

fn edit(rng: &mut Rng) -> Step {
    let args: &[&str] = match rng.below(9) {
        0 => &["edit", "--multigroup=true"],
        1 => &["edit", "--multigroup=false"],
        2 => &["edit", "--namespaced=true"],
        3 => &["edit", "--namespaced=false"],
        4 => &["edit", "--license", "none"],
        5 => &["edit", "--license", "apache2"],
        6 => &["edit", "--plugins", "helm"],
        7 => &["edit", "--plugins", "grafana"],
        _ => &["edit", "--license", "apache2", "--owner", "Other Owners"],
    };
    Step::webop(args)
}

/// The CRDs `import crd` reads: webop's own golden ones (of kinds a project here may have) and
/// one of another domain (with `--external`, or as the project's own API).
pub const CRDS: &[&str] = &[
    "testdata/webapp-operator/config/crd/bases/app.example.com_webapps.yaml",
    "testdata/cronjob-operator/config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml",
];

fn import_crd(rng: &mut Rng, root: &Path) -> Step {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<String> = CRDS
        .iter()
        .map(|c| workspace.join(c).display().to_string())
        .collect();
    // The project's own CRDs, once `webop manifests` wrote them.
    files.extend(
        tree::files_under(root, "config/crd/bases")
            .into_iter()
            .map(|p| root.join(p).display().to_string()),
    );
    let mut args = vec![
        "import".to_owned(),
        "crd".to_owned(),
        rng.pick(&files).clone(),
    ];
    if rng.chance(30) {
        args.push("--external".into());
    }
    if rng.chance(30) {
        args.push("--force".into());
    }
    Step::Webop(args)
}

/// A comment added to a user-owned file the scaffold wrote.
fn user_edit(rng: &mut Rng, root: &Path) -> Option<Step> {
    let candidates = tree::user_owned_files(root);
    if candidates.is_empty() {
        return None;
    }
    let (path, has_marker) = rng.pick(&candidates).clone();
    Some(Step::UserEdit {
        path,
        at_marker: has_marker && rng.chance(60),
    })
}

/// `create api --force` of a kind the project has, with the flags it was created with.
fn force_rerun(rng: &mut Rng, project: &Project) -> Option<Step> {
    if project.resources.is_empty() {
        return None;
    }
    let r = rng.pick(&project.resources);
    if r.external {
        return None;
    }
    let mut args: Vec<String> = [
        "create",
        "api",
        "--group",
        &r.group,
        "--version",
        &r.version,
    ]
    .iter()
    .map(|s| (*s).to_owned())
    .collect();
    args.extend(["--kind".to_owned(), r.kind.clone()]);
    if let Some(plural) = &r.plural {
        args.extend(["--plural".to_owned(), plural.clone()]);
    }
    if r.api.as_ref().is_some_and(|a| !a.namespaced) {
        args.push("--namespaced=false".into());
    }
    if r.api.is_none() {
        args.push("--resource=false".into());
    }
    if !r.has_controller() {
        args.push("--controller=false".into());
    }
    if let Some(image) = project.deploy_image_options(r) {
        args.extend(["--image".to_owned(), image.image.clone()]);
        if let Some(port) = &image.container_port {
            args.extend(["--port".to_owned(), port.clone()]);
        }
    }
    args.push("--force".into());
    Some(Step::Webop(args))
}

//! Running sequences: each step in a fresh project directory, the invariants after it, and a
//! failing sequence shrunk to the fewest steps that still fail.

use std::path::Path;
use std::time::Instant;

use webop_cli::project::Project;
use webop_cli::scaffold::Templates;

use super::check::{self, Render};
use super::checkpoint;
use super::generate::{self, Draw, Step};
use super::rng::Rng;
use super::tree::{self, Snapshot};

pub use super::report::{Failure, Stats};

/// How to run.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    pub seed: u64,
    /// Steps per sequence.
    pub length: usize,
    /// A checkpoint every so many steps (and at the end), or none.
    pub checkpoint_every: Option<usize>,
}

/// Draws and runs one sequence of `options.length` steps from `options.seed`.
pub fn generated(templates: &Templates, options: Options) -> Result<Stats, Failure> {
    let mut rng = Rng::new(options.seed);
    let draw = Draw {
        manifests: options.checkpoint_every.is_some(),
    };
    let mut runner = Runner::new(templates);
    while runner.steps.len() < options.length {
        let project = Project::load(runner.root()).ok();
        let mut next = generate::next(&mut rng, runner.root(), project.as_ref(), draw);
        let due = options
            .checkpoint_every
            .is_some_and(|every| (runner.steps.len() + 1).is_multiple_of(every));
        if due || (options.checkpoint_every.is_some() && runner.steps.len() + 1 == options.length) {
            next.push(Step::Checkpoint);
        }
        for step in next {
            runner.step(step)?;
        }
    }
    Ok(runner.finish())
}

/// Runs the given steps.
pub fn replay(templates: &Templates, steps: &[Step]) -> Result<Stats, Failure> {
    let mut runner = Runner::new(templates);
    for step in steps {
        runner.step(step.clone())?;
    }
    Ok(runner.finish())
}

/// Runs `count` sequences from `seed` on (each its own seed), stopping at the first failure,
/// which is shrunk.
pub fn many(templates: &Templates, options: Options, count: usize) -> Result<Stats, Failure> {
    let mut total = Stats::default();
    for i in 0..count {
        let options = Options {
            seed: options.seed.wrapping_add(i as u64),
            ..options
        };
        match generated(templates, options) {
            Ok(stats) => total.add(stats),
            Err(failure) => {
                let seed = options.seed;
                return Err(Failure {
                    seed,
                    ..shrink(templates, failure)
                });
            }
        }
    }
    Ok(total)
}

/// The fewest steps of `failure` that still fail (at any invariant): steps are removed in
/// halves, then quarters, ..., then one by one, keeping each removal that still fails.
pub fn shrink(templates: &Templates, failure: Failure) -> Failure {
    let mut best = Failure {
        steps: failure.steps[..=failure.at].to_vec(),
        ..failure
    };
    let mut chunk = best.steps.len() / 2;
    while chunk >= 1 {
        let mut start = 0;
        while start < best.steps.len() {
            let mut candidate = best.steps.clone();
            let end = (start + chunk).min(candidate.len());
            candidate.drain(start..end);
            match replay(templates, &candidate) {
                Err(smaller) => {
                    best = Failure {
                        steps: candidate[..=smaller.at].to_vec(),
                        ..smaller
                    }
                }
                Ok(_) => start += chunk,
            }
        }
        chunk /= 2;
    }
    best
}

/// What a render is made from: the PROJECT file and the lock, as the tree holds them.
type RenderKey = [Option<Option<Vec<u8>>>; 2];

struct Runner<'a> {
    templates: &'a Templates,
    _dir: tempfile::TempDir,
    root: std::path::PathBuf,
    steps: Vec<Step>,
    /// The tree before the last step, if that step was a successful `create api` of a new kind
    /// (or `create webhook` of a kind without webhooks), with that step's group, version and
    /// kind and the webhook types it named: what its `delete` must give back.
    before_create: Option<(Created, Snapshot)>,
    stats: Stats,
    started: Instant,
    /// The last render, by the PROJECT file and the lock it was made from.
    render: Option<(RenderKey, Render)>,
}

/// What a `create api` or `create webhook` step created: its `--group G --version V --kind K`
/// and the webhook types it named.
struct Created {
    gvk: Vec<String>,
    types: Vec<String>,
}

impl<'a> Runner<'a> {
    fn new(templates: &'a Templates) -> Self {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let root = dir.path().join("seq-operator");
        std::fs::create_dir(&root).unwrap();
        Runner {
            templates,
            _dir: dir,
            root,
            steps: Vec::new(),
            before_create: None,
            stats: Stats {
                sequences: 1,
                ..Stats::default()
            },
            started: Instant::now(),
            render: None,
        }
    }

    fn root(&self) -> &Path {
        &self.root
    }

    fn finish(mut self) -> Stats {
        self.stats.seconds = self.started.elapsed().as_secs_f64();
        self.stats
    }

    fn fail(&self, message: String) -> Failure {
        Failure {
            seed: 0,
            steps: self.steps.clone(),
            at: self.steps.len() - 1,
            message,
        }
    }

    fn check(&mut self, name: &'static str, result: Result<(), String>) -> Result<(), Failure> {
        *self.stats.checked.entry(name).or_default() += 1;
        result.map_err(|message| self.fail(format!("{name}: {message}")))
    }

    fn step(&mut self, step: Step) -> Result<(), Failure> {
        self.steps.push(step.clone());
        self.stats.steps += 1;
        if let Step::Webop(args) = &step {
            checkpoint::pin_if_it_builds(&self.root, args);
        }
        let before = tree::snapshot(&self.root);
        let project_before = Project::load(&self.root).ok();
        let before_create = self.before_create.take();
        match &step {
            Step::Webop(args) => {
                let argv = std::iter::once("webop".to_owned()).chain(args.iter().cloned());
                let mut out = Vec::new();
                let _build = checkpoint::lock_if_it_builds(&self.root, args);
                match webop_cli::cli::run(argv, &self.root, &mut out) {
                    Ok(()) => {
                        self.stats.succeeded += 1;
                        self.after_success(args, &before, project_before.as_ref(), before_create)?;
                    }
                    Err(error) => {
                        self.stats.refused += 1;
                        let message = format!("{error:#}");
                        let key: String = message
                            .split_whitespace()
                            .take(6)
                            .collect::<Vec<_>>()
                            .join(" ");
                        *self.stats.refusals.entry(key).or_default() += 1;
                        let after = tree::snapshot(&self.root);
                        self.check(
                            "a refused command changes nothing",
                            check::unchanged(&before, &after),
                        )?;
                    }
                }
            }
            Step::CargoFmt => cargo_fmt(&self.root),
            Step::UserEdit { path, at_marker } => {
                let full = self.root.join(path);
                if let Ok(text) = std::fs::read_to_string(&full) {
                    let comment = if path.ends_with(".rs") { "//" } else { "#" };
                    let note = format!("A note of the user's, step {}.", self.steps.len());
                    if let Some(edited) = tree::add_comment(&text, comment, &note, *at_marker) {
                        std::fs::write(&full, edited).unwrap();
                    }
                }
            }
            Step::Checkpoint => {
                self.stats.checkpoints += 1;
                let result = checkpoint::run_all(&self.root);
                self.check(
                    "checkpoint: manifests, build, clippy, tests, kustomize",
                    result,
                )?;
            }
        }
        self.invariants()
    }

    fn after_success(
        &mut self,
        args: &[String],
        before: &Snapshot,
        project_before: Option<&Project>,
        before_create: Option<(Created, Snapshot)>,
    ) -> Result<(), Failure> {
        let is = |a: &str, b: &str| args.len() > 1 && args[0] == a && args[1] == b;
        let has = |flag: &str| args.iter().any(|a| a == flag);
        let gvk = || args.get(2..8).map(<[String]>::to_vec).unwrap_or_default();
        // `delete webhook` undoes a `create webhook` when it deletes the webhook types that
        // created (naming those, or none: all); naming fewer leaves the others and their files.
        let types = || -> Vec<String> {
            let named = ["--defaulting", "--programmatic-validation", "--conversion"];
            named
                .iter()
                .filter(|f| has(f))
                .map(|f| (*f).to_owned())
                .collect()
        };
        let undoes = |created: &Created| {
            created.gvk == gvk()
                && !has("--force")
                && (is("delete", "api")
                    || (is("delete", "webhook")
                        && (types().is_empty() || types() == created.types)))
        };
        if let Some((_, tree_before)) = before_create.filter(|(created, _)| undoes(created)) {
            let after = tree::snapshot(&self.root);
            self.check(
                "delete right after create gives back the tree",
                check::inverse(&tree_before, &after),
            )?;
        }
        let new_kind = project_before.is_some_and(|p| {
            let g = gvk();
            g.len() == 6
                && p.resource(&g[1], &g[3], &g[5])
                    .is_none_or(|r| is("create", "webhook") && r.webhooks.is_none())
        });
        if (is("create", "api") || is("create", "webhook")) && new_kind {
            let created = Created {
                gvk: gvk(),
                types: types(),
            };
            self.before_create = Some((created, before.clone()));
        }
        Ok(())
    }

    fn invariants(&mut self) -> Result<(), Failure> {
        let snapshot = tree::snapshot(&self.root);
        self.check(
            "webop's Rust is as cargo fmt leaves it",
            check::laid_out(&snapshot),
        )?;
        let Ok(project) = Project::load(&self.root) else {
            return Ok(());
        };
        // The render is PROJECT's and the lock's: most steps change neither.
        let key =
            ["PROJECT", webop_cli::upgrade::lock::FILE].map(|path| snapshot.get(path).cloned());
        if self.render.as_ref().is_none_or(|(k, _)| *k != key) {
            match Render::of(self.templates, &self.root, &project) {
                Ok(render) => self.render = Some((key, render)),
                Err(message) => return Err(self.fail(format!("the scaffold record: {message}"))),
            }
        }
        let render = &self.render.as_ref().expect("rendered above").1;
        let rendered = check::tool_owned_rendered(&snapshot, render);
        let locked = check::lock_agrees(&snapshot, render, self.templates);
        self.check("every DO NOT EDIT file equals its render", rendered)?;
        self.check(
            "the scaffold lock records PROJECT's render and the tree",
            locked,
        )?;
        self.check(
            "each kind is wired into its user-owned files",
            check::kinds_wired(&snapshot, &project),
        )
    }
}

/// `cargo fmt` of the project: rustfmt over its Rust files (`cargo fmt` reaches the same files
/// through the crates' modules; rustfmt alone needs no `cargo metadata`).
fn cargo_fmt(root: &Path) {
    let files: Vec<String> = tree::files(&tree::snapshot(root))
        .map(|(p, _)| p.clone())
        .filter(|p| tree::is_project_rust(p))
        .collect();
    if files.is_empty() {
        return;
    }
    let status = std::process::Command::new("rustfmt")
        .args(["--edition", "2024"])
        .args(&files)
        .current_dir(root)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("rustfmt runs");
    // rustfmt fails on a file it cannot parse and formats the rest, as cargo fmt does.
    let _ = status;
}

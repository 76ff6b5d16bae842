//! `webop upgrade` on a project an older webop scaffolded. The older webop is today's engine with
//! the templates of commit 9dc9be8 (`templates-released/9dc9be8`, which webop carries to
//! re-render the bases of such projects): since then the Makefile's build and run targets, the
//! root Cargo.toml, PROJECT and the manager's manifests changed, and `crdgen` moved from
//! `api/src/bin/` to `api/examples/` (the old template is not in today's catalogue, so the old
//! scaffold has no crdgen and the upgrade adds it).

use crate::support;

use std::path::{Path, PathBuf};

use support::{files, run_ok, scaffold_step, tree};
use webop_cli::project::{DeployImageOptions, NewResource, Project};
use webop_cli::scaffold::{InitOptions, Templates};
use webop_cli::scaffolds::Command;
use webop_cli::upgrade::lock;

/// Scaffolds the WebApp project into `dir` as the golden does (`init` then `create api --image
/// nginx:1.25 --port 80`), with `templates`, keeping the lock as every command does.
pub fn scaffold_with(templates: &Templates, dir: &Path) {
    let init = InitOptions {
        owner: "The webapp-operator Authors".into(),
        license: "apache2".into(),
        webop_path: None,
    };
    let empty = Project::new(
        "webapp-operator",
        "example.com",
        Some("github.com/example/webapp-operator"),
    );
    scaffold_step(templates, dir, None, &empty, Command::Init(&init));
    let (after, resource) = empty
        .with_resource(&NewResource {
            group: "app".into(),
            version: "v1".into(),
            kind: "WebApp".into(),
            plural: None,
            namespaced: true,
            resource: true,
            controller: true,
            controller_name: None,
            image: Some(DeployImageOptions {
                container_port: Some("80".into()),
                image: "nginx:1.25".into(),
                run_as_user: None,
                ..Default::default()
            }),
            force: false,
            domain: None,
            any_version: false,
            external: false,
            external_path: None,
        })
        .unwrap();
    scaffold_step(
        templates,
        dir,
        Some(&empty),
        &after,
        Command::CreateApi(&resource),
    );
}

/// The templates of 9dc9be8, as webop carries them.
pub fn old_templates() -> Templates {
    webop_cli::upgrade::releases::load("9dc9be8")
        .unwrap()
        .expect("webop carries the templates of 9dc9be8")
}

/// A directory named `webapp-operator` in a fresh temporary directory.
pub fn project_dir() -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("webapp-operator");
    std::fs::create_dir(&dir).unwrap();
    (temp, dir)
}

/// The project as the older webop scaffolded it.
pub fn old_project() -> (tempfile::TempDir, PathBuf) {
    let (temp, dir) = project_dir();
    scaffold_with(&old_templates(), &dir);
    (temp, dir)
}

/// The same project scaffolded by this webop.
pub fn new_project() -> (tempfile::TempDir, PathBuf) {
    let (temp, dir) = project_dir();
    scaffold_with(&Templates::load().unwrap(), &dir);
    (temp, dir)
}

pub fn edit(dir: &Path, path: &str, change: impl FnOnce(String) -> String) {
    let file = dir.join(path);
    let text = std::fs::read_to_string(&file).unwrap();
    let changed = change(text.clone());
    assert_ne!(changed, text, "the edit of {path} changes it");
    std::fs::write(file, changed).unwrap();
}

const CONTROLLER: &str = "src/controller/webapp_controller.rs";
const TYPES: &str = "api/src/v1/webapp_types.rs";

/// The user's edits: a field of the spec, a function of the controller, a target of the
/// Makefile; none on lines the templates changed.
pub fn users_edits(dir: &Path) {
    edit(dir, TYPES, |text| {
        text.replacen(
            "pub struct WebAppSpec {\n",
            "pub struct WebAppSpec {\n    /// The user's own field.\n    #[serde(default)]\n    pub tier: Option<String>,\n",
            1,
        )
    });
    // Above the constants, which the templates kept: the end of the file changed with the
    // operator library.
    edit(dir, CONTROLLER, |text| {
        text.replacen(
            "/// The name of this controller, in logs and metrics.\n",
            "/// The user's own helper.\npub fn users_helper() -> u32 {\n    42\n}\n\n/// The name of this controller, in logs and metrics.\n",
            1,
        )
    });
    edit(dir, "Makefile", |text| {
        text + "\n.PHONY: users-target\nusers-target: ## The user's own target.\n\techo mine\n"
    });
}

#[test]
fn the_users_edits_and_the_template_changes_both_survive() {
    let (_old, dir) = old_project();
    let (_new, fresh) = new_project();
    assert_ne!(
        files(&dir),
        files(&fresh),
        "the old templates render a different project"
    );
    users_edits(&dir);
    let report = run_ok(&dir, &["upgrade"]);
    println!("{report}");

    // The upgraded project is exactly today's scaffold with the user's edits: every template
    // change arrived (the Makefile's new build target, the moved crdgen, the new Cargo.toml
    // lines) and every edit stayed; the lock is today's.
    users_edits(&fresh);
    let (upgraded, expected) = (files(&dir), files(&fresh));
    support::assert_same_files(&upgraded, &expected);

    // The controller's template changed since 9dc9be8 as well (no event for a child's
    // creation), so the user's helper and the template's change merge there too.
    assert!(
        report.contains(
            "merged cleanly (your edits and the new templates): 2\n  Makefile\n  src/controller/webapp_controller.rs\n"
        ),
        "{report}"
    );
    assert!(
        report.contains("conflicted (resolve the <<<<<<< markers): 0\n"),
        "{report}"
    );
    assert!(
        report.contains("added: 1\n  api/examples/crdgen.rs\n"),
        "{report}"
    );
    assert!(report.contains("  Cargo.toml\n"), "{report}");

    // A second upgrade has nothing left to do.
    let again = run_ok(&dir, &["upgrade"]);
    assert!(
        again.contains("updated (re-rendered: you had not changed them): 0\n"),
        "{again}"
    );
    assert!(
        again.contains("merged cleanly (your edits and the new templates): 0\n"),
        "{again}"
    );
    assert_eq!(files(&dir), upgraded);
}

#[test]
fn an_edit_of_lines_the_templates_changed_is_a_conflict_with_markers() {
    let (_old, dir) = old_project();
    users_edits(&dir);
    edit(&dir, "Makefile", |text| {
        text.replacen(
            "\t$(CARGO) build --bin webapp-operator\n",
            "\t$(CARGO) build --bin webapp-operator --features mine\n",
            1,
        )
    });
    let report = run_ok(&dir, &["upgrade"]);
    println!("{report}");
    assert!(
        report.contains("conflicted (resolve the <<<<<<< markers): 1\n  Makefile\n"),
        "{report}"
    );
    let makefile = std::fs::read_to_string(dir.join("Makefile")).unwrap();
    let conflict = "<<<<<<< yours\n";
    let start = makefile.find(conflict).expect("conflict markers");
    let region = &makefile[start..makefile.find(">>>>>>> webop ").unwrap()];
    assert!(region.contains("--features mine"), "{region}");
    assert!(region.contains("=======\n"), "{region}");
    assert!(
        region.contains("$(CARGO) build --workspace --bins --examples"),
        "{region}"
    );
    // The rest of the upgrade went through: the user's target, the moved crdgen.
    assert!(makefile.contains("users-target:"));
    assert!(dir.join("api/examples/crdgen.rs").exists());
    // The other user files merged as without the conflict.
    let controller = std::fs::read_to_string(dir.join(CONTROLLER)).unwrap();
    assert!(controller.contains("pub fn users_helper()"));
}

#[test]
fn dry_run_prints_the_diff_and_writes_nothing() {
    let (_old, dir) = old_project();
    users_edits(&dir);
    let before = tree(&dir);
    let report = run_ok(&dir, &["upgrade", "--dry-run"]);
    assert_eq!(tree(&dir), before, "the tree is as it was");
    assert!(
        report.contains("--- a/Makefile\n+++ b/Makefile\n"),
        "{report}"
    );
    assert!(
        report.contains("+\t$(CARGO) build --workspace --bins --examples\n"),
        "{report}"
    );
    assert!(
        report.contains("+++ b/api/examples/crdgen.rs\n"),
        "{report}"
    );
    assert!(!report.contains(".webop-scaffold/"), "{report}");
    assert!(
        report.ends_with("dry run: no file was written\n"),
        "{report}"
    );
}

#[test]
fn a_project_newer_than_this_webop_is_refused_and_nothing_changes() {
    let (_old, dir) = old_project();
    edit(&dir, lock::FILE, |text| {
        text.replacen(
            &format!("\"webop\": \"{}\"", env!("CARGO_PKG_VERSION")),
            // A newer format, too: refused as newer, not as unreadable.
            "\"webop\": \"99.0.0\",\n  \"future\": true",
            1,
        )
    });
    let before = tree(&dir);
    let error = support::refused(&dir, &["upgrade"]);
    assert!(
        error.contains("scaffolded by webop 99.0.0, newer than this webop"),
        "{error}"
    );
    assert_eq!(tree(&dir), before);
}

/// A project this webop scaffolded, without its lock (an older release's would name the
/// tool-owned files it rendered otherwise, as the test below shows).
#[test]
fn a_project_without_a_lock_is_refused_then_adopted() {
    let (_new, dir) = new_project();
    std::fs::remove_dir_all(dir.join(lock::DIR)).unwrap();
    users_edits(&dir);
    let error = support::refused(&dir, &["upgrade"]);
    assert!(error.contains("has no scaffold lock"), "{error}");
    assert!(error.contains("webop upgrade --adopt"), "{error}");

    let makefile = std::fs::read_to_string(dir.join("Makefile")).unwrap();
    let report = run_ok(&dir, &["upgrade", "--adopt"]);
    assert!(report.contains("from webop (no lock: adopted)"), "{report}");
    // User files are kept as they are; tool-owned ones re-rendered; the lock started.
    assert_eq!(
        std::fs::read_to_string(dir.join("Makefile")).unwrap(),
        makefile
    );
    assert!(dir.join(lock::FILE).exists());
    assert!(dir.join("api/examples/crdgen.rs").exists());
    let again = support::refused(&dir, &["upgrade", "--adopt"]);
    assert!(again.contains("already has a scaffold lock"), "{again}");
}

/// Without a lock, a DO NOT EDIT file that differs from this webop's render may hold the user's
/// edits: `--adopt` re-renders it only with `--force`.
#[test]
fn adopting_re_renders_a_differing_tool_owned_file_only_with_force() {
    let (_old, dir) = old_project();
    std::fs::remove_dir_all(dir.join(lock::DIR)).unwrap();
    edit(&dir, "PROJECT", |text| text + "# mine\n");
    let error = support::refused(&dir, &["upgrade", "--adopt"]);
    // The edited PROJECT, beside any file the older release rendered otherwise.
    let listed = error
        .split_once("differ from what this webop renders: ")
        .and_then(|(_, rest)| rest.split_once(';'))
        .map(|(files, _)| files.split(", ").collect::<Vec<_>>())
        .unwrap_or_default();
    assert!(listed.contains(&"PROJECT"), "{error}");
    let report = run_ok(&dir, &["upgrade", "--adopt", "--force"]);
    assert!(report.contains("  PROJECT\n"), "{report}");
    assert!(
        !std::fs::read_to_string(dir.join("PROJECT"))
            .unwrap()
            .contains("# mine")
    );
    let again = support::refused(&dir, &["upgrade", "--adopt"]);
    assert!(again.contains("already has a scaffold lock"), "{again}");
}

#[test]
fn an_edited_tool_owned_file_is_refused_unless_forced() {
    let (_old, dir) = old_project();
    edit(&dir, "PROJECT", |text| text + "# mine\n");
    let before = tree(&dir);
    let error = support::refused(&dir, &["upgrade"]);
    assert!(
        error.contains("DO NOT EDIT header and were edited"),
        "{error}"
    );
    assert!(error.contains("PROJECT"), "{error}");
    assert_eq!(tree(&dir), before);
    let report = run_ok(&dir, &["upgrade", "--force"]);
    assert!(
        report.contains("overwritten (your edits of DO NOT EDIT files: --force): 1\n  PROJECT\n"),
        "{report}"
    );
    assert!(
        !std::fs::read_to_string(dir.join("PROJECT"))
            .unwrap()
            .contains("# mine")
    );
}

#[test]
fn the_machine_local_patch_of_the_webop_source_gains_the_crates_the_templates_now_name() {
    let (_old, dir) = old_project();
    // What an older `webop init --webop-path /src/webop` wrote, and a setting of the user's.
    let config = "[patch.crates-io]\nwebop = { path = \"/src/webop\" }\n\n[build]\njobs = 1\n";
    std::fs::create_dir_all(dir.join(".cargo")).unwrap();
    std::fs::write(dir.join(".cargo/config.toml"), config).unwrap();
    let report = run_ok(&dir, &["upgrade"]);
    assert!(report.contains("  .cargo/config.toml\n"), "{report}");
    assert_eq!(
        std::fs::read_to_string(dir.join(".cargo/config.toml")).unwrap(),
        "[patch.crates-io]\nwebop = { path = \"/src/webop/webop\" }\n\
         webop-core = { path = \"/src/webop/core\" }\n\n[build]\njobs = 1\n"
    );
}

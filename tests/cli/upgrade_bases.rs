//! Where an upgrade's bases come from: the template set the scaffold lock names, rendered
//! again (one webop carries, or one given with `--base-templates`) and checked against the
//! lock's hashes; or, in a lock of the former format, the copies it kept in
//! `.webop-scaffold/base/`.

use crate::support;
use crate::upgrade::{
    edit, new_project, old_project, old_templates, project_dir, scaffold_with, users_edits,
};

use std::path::Path;

use support::{files, run_ok, workspace};
use webop_cli::project::Project;
use webop_cli::scaffold::Templates;
use webop_cli::upgrade::{lock, replay};

fn read_lock(dir: &Path) -> lock::Lock {
    serde_json::from_slice(&std::fs::read(dir.join(lock::FILE)).unwrap()).unwrap()
}

/// Rewrites the project's lock as webop wrote it before the template id: the same lock without
/// `templates`, and the base of each user-owned file kept in `.webop-scaffold/base/`.
fn to_former_format(dir: &Path) {
    let mut locked = read_lock(dir);
    let project = Project::load(dir).unwrap();
    let rendered = replay::pristine(&old_templates(), &project, &locked.licensed()).unwrap();
    for (path, entry) in &locked.files {
        if entry.owner == lock::Owner::User {
            let base = dir.join(lock::base_path(path));
            std::fs::create_dir_all(base.parent().unwrap()).unwrap();
            std::fs::write(base, &rendered[path]).unwrap();
        }
    }
    locked.templates = None;
    std::fs::write(dir.join(lock::FILE), locked.text()).unwrap();
}

/// The upgraded project at `dir` is today's scaffold with the user's edits, file for file, and
/// `.webop-scaffold/` holds the lock alone.
fn assert_is_todays_with_the_users_edits(dir: &Path) {
    let (_new, fresh) = new_project();
    users_edits(&fresh);
    let (upgraded, expected) = (files(dir), files(&fresh));
    support::assert_same_files(&upgraded, &expected);
}

#[test]
fn the_lock_names_the_templates_and_keeps_no_copy_of_the_files() {
    let (_old, dir) = old_project();
    let locked = read_lock(&dir);
    assert_eq!(locked.templates.as_deref(), Some(old_templates().id()));
    assert!(!dir.join(lock::BASE_DIR).exists());
}

/// A project whose lock keeps its bases (scaffolded by a webop from before the template id)
/// upgrades from them, and the copies go.
#[test]
fn a_lock_that_keeps_its_bases_upgrades_from_them_and_the_copies_go() {
    let (_old, dir) = old_project();
    to_former_format(&dir);
    assert!(dir.join(lock::base_path("Makefile")).exists());
    users_edits(&dir);
    let report = run_ok(&dir, &["upgrade"]);
    assert!(
        report.contains("merged cleanly (your edits and the new templates): 2\n"),
        "{report}"
    );
    assert_is_todays_with_the_users_edits(&dir);
    assert!(!dir.join(lock::BASE_DIR).exists());
    let templates = Templates::load().unwrap();
    assert_eq!(read_lock(&dir).templates.as_deref(), Some(templates.id()));
}

/// The templates of 9dc9be8 with one line more in the Makefile: a development build's set, which
/// webop does not carry. Returns its directory.
fn development_templates() -> (tempfile::TempDir, Templates) {
    let temp = tempfile::tempdir().unwrap();
    support::copy_tree(&workspace().join("templates-released/9dc9be8"), temp.path());
    let makefile = temp.path().join("Makefile");
    let text = std::fs::read_to_string(&makefile).unwrap();
    std::fs::write(&makefile, format!("# A development build's line.\n{text}")).unwrap();
    let templates = Templates::from_dir(temp.path()).unwrap();
    (temp, templates)
}

/// A project scaffolded with templates webop does not carry is refused, naming them and the
/// way out; `--base-templates` with another set is refused; with that set it upgrades.
#[test]
fn templates_webop_does_not_carry_are_refused_until_given() {
    let (templates_dir, templates) = development_templates();
    let (_old, dir) = project_dir();
    scaffold_with(&templates, &dir);
    users_edits(&dir);

    let error = support::refused(&dir, &["upgrade"]);
    assert!(
        error.contains(&format!(
            "with templates {}, which this webop does not carry",
            templates.id()
        )),
        "{error}"
    );
    assert!(error.contains("--base-templates <DIR>"), "{error}");

    let released = workspace().join("templates-released/9dc9be8");
    let other = support::refused(
        &dir,
        &["upgrade", "--base-templates", released.to_str().unwrap()],
    );
    assert!(
        other.contains(&format!(
            "these are templates {}, but the project was scaffolded with templates {}",
            old_templates().id(),
            templates.id()
        )),
        "{other}"
    );

    let given = templates_dir.path().to_str().unwrap();
    let report = run_ok(&dir, &["upgrade", "--base-templates", given]);
    assert!(
        report.contains("conflicted (resolve the <<<<<<< markers): 0\n"),
        "{report}"
    );
    // The development build's line goes with the rest of the old Makefile's changes.
    assert_is_todays_with_the_users_edits(&dir);
}

/// A base the named templates do not render as the lock records (an engine that renders them
/// differently) is never merged from: the upgrade is refused, naming the file.
#[test]
fn a_base_the_templates_do_not_reproduce_is_refused() {
    let (_old, dir) = old_project();
    let mut locked = read_lock(&dir);
    locked.files.get_mut("Makefile").unwrap().sha256 = lock::sha256(b"another render\n");
    std::fs::write(dir.join(lock::FILE), locked.text()).unwrap();
    edit(&dir, "Makefile", |text| text + "# mine\n");
    let error = support::refused(&dir, &["upgrade"]);
    assert!(
        error.contains("(templates-released/9dc9be8) render these files differently"),
        "{error}"
    );
    assert!(error.contains("lock.json's): Makefile;"), "{error}");
}

/// A file the new templates no longer render goes when it is as the old webop wrote it, and
/// stays, listed, when the user edited it. (The old templates here render every file today's
/// do, so a lock of the former format is given two files of a template webop dropped, with
/// their kept bases.)
#[test]
fn files_no_longer_rendered_are_removed_only_when_unchanged() {
    let (_old, dir) = old_project();
    to_former_format(&dir);
    let mut locked: lock::Lock =
        serde_json::from_slice(&std::fs::read(dir.join(lock::FILE)).unwrap()).unwrap();
    for (path, written, now) in [
        ("config/dropped.yaml", "a: 1\n", "a: 1\n"),
        ("config/dropped-edited.yaml", "a: 1\n", "a: 2\n"),
    ] {
        locked.files.insert(
            path.into(),
            lock::Locked {
                owner: lock::Owner::User,
                sha256: lock::sha256(written.as_bytes()),
            },
        );
        std::fs::write(dir.join(lock::base_path(path)), written).unwrap();
        std::fs::write(dir.join(path), now).unwrap();
    }
    std::fs::write(
        dir.join(lock::FILE),
        serde_json::to_string_pretty(&locked).unwrap(),
    )
    .unwrap();
    let report = run_ok(&dir, &["upgrade"]);
    assert!(
        report.contains("removed (no longer rendered, unchanged): 1\n  config/dropped.yaml\n"),
        "{report}"
    );
    assert!(
        report.contains(
            "kept (no longer rendered, but you edited them): 1\n  config/dropped-edited.yaml\n"
        ),
        "{report}"
    );
    assert!(!dir.join("config/dropped.yaml").exists());
    assert!(dir.join("config/dropped-edited.yaml").exists());
    // The lock forgets both, and their bases are gone.
    assert!(!dir.join(lock::base_path("config/dropped.yaml")).exists());
    assert!(
        !dir.join(lock::base_path("config/dropped-edited.yaml"))
            .exists()
    );
}

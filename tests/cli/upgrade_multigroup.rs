//! `webop upgrade` on a multigroup project: two groups, three kinds (the same kind name in both
//! groups), scaffolded by an older webop, then edited by the user in both groups' types and
//! controllers. The webop of 9dc9be8 (`tests/cli/upgrade.rs`) had no multigroup layout, so the older
//! webop here is one that had it: today's templates with every file 9dc9be8 had put back as it
//! was (`templates-released/9dc9be8`): its Makefile, root Cargo.toml and manager manifests, and
//! no `api/examples/crdgen.rs`; but today's PROJECT, as 9dc9be8's could not record
//! `multigroup: true`. webop does not carry that set, so the upgrade is given it with
//! `--base-templates`, as a development build's project would be.

use crate::support;

use std::path::{Path, PathBuf};

use support::{files, run_ok, scaffold_step, workspace};
use webop_cli::project::{NewResource, Project};
use webop_cli::scaffold::{InitOptions, Templates};
use webop_cli::scaffolds::Command;

const KINDS: [(&str, &str); 3] = [
    ("ship", "Frigate"),
    ("ship", "Destroyer"),
    ("sea", "Frigate"),
];

/// `init --multigroup` then `create api` of each of `KINDS` into `dir`, with `templates`,
/// keeping the lock as every command does.
fn scaffold_fleet(templates: &Templates, dir: &Path) {
    let init = InitOptions {
        owner: "The fleet Authors".into(),
        license: "apache2".into(),
        webop_path: None,
    };
    let mut project = Project::new("fleet", "example.com", Some("github.com/example/fleet"));
    project.multigroup = true;
    scaffold_step(templates, dir, None, &project, Command::Init(&init));
    for (group, kind) in KINDS {
        let (after, resource) = project
            .with_resource(&NewResource {
                group: group.into(),
                version: "v1".into(),
                kind: kind.into(),
                plural: None,
                namespaced: true,
                resource: true,
                controller: true,
                controller_name: None,
                image: None,
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
            Some(&project),
            &after,
            Command::CreateApi(&resource),
        );
        project = after;
    }
}

fn fleet(templates: &Templates) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("fleet");
    std::fs::create_dir(&dir).unwrap();
    scaffold_fleet(templates, &dir);
    (temp, dir)
}

fn edit(dir: &Path, path: &str, change: impl FnOnce(String) -> String) {
    let file = dir.join(path);
    let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{path}: {e}"));
    let changed = change(text.clone());
    assert_ne!(changed, text, "the edit of {path} changes it");
    std::fs::write(file, changed).unwrap();
}

/// A field in each Frigate's spec (one per group) and a helper in the sea group's controller.
fn users_edits(dir: &Path) {
    for group in ["ship", "sea"] {
        edit(
            dir,
            &format!("api/src/{group}/v1/frigate_types.rs"),
            |text| {
                text.replacen(
                "pub struct FrigateSpec {\n",
                &format!("pub struct FrigateSpec {{\n    /// The {group} group's own field.\n    #[serde(default)]\n    pub {group}_class: Option<String>,\n"),
                1,
            )
            },
        );
    }
    edit(dir, "src/controller/sea/frigate_controller.rs", |text| {
        text + "\n/// The user's own helper.\npub fn users_helper() -> u32 {\n    7\n}\n"
    });
}

/// Today's templates with the files of 9dc9be8 copied over them, in a temporary directory.
fn older_templates_with_multigroup() -> (tempfile::TempDir, Templates) {
    let temp = tempfile::tempdir().unwrap();
    support::copy_tree(&workspace().join("templates"), temp.path());
    support::copy_tree(&workspace().join("templates-released/9dc9be8"), temp.path());
    std::fs::remove_file(temp.path().join("api/examples/crdgen.rs")).unwrap();
    std::fs::copy(
        workspace().join("templates/PROJECT"),
        temp.path().join("PROJECT"),
    )
    .unwrap();
    let templates = Templates::from_dir(temp.path()).unwrap();
    (temp, templates)
}

#[test]
fn a_multigroup_project_keeps_its_edits_in_both_groups_and_gets_the_template_changes() {
    let (older_dir, older) = older_templates_with_multigroup();
    let (_old, dir) = fleet(&older);
    let (_new, fresh) = fleet(&Templates::load().unwrap());
    assert_ne!(
        files(&dir),
        files(&fresh),
        "the old templates render a different project"
    );
    users_edits(&dir);
    let given = older_dir.path().to_str().unwrap();
    let report = run_ok(&dir, &["upgrade", "--base-templates", given]);
    println!("{report}");
    assert!(
        report.contains("conflicted (resolve the <<<<<<< markers): 0\n"),
        "{report}"
    );

    // Exactly today's multigroup scaffold with the same edits, in every group's files.
    users_edits(&fresh);
    let (upgraded, expected) = (files(&dir), files(&fresh));
    support::assert_same_files(&upgraded, &expected);

    let again = run_ok(&dir, &["upgrade", "--dry-run"]);
    assert!(
        again.contains("merged cleanly (your edits and the new templates): 0\n"),
        "{again}"
    );
}

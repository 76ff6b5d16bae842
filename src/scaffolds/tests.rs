use std::path::{Path, PathBuf};

use super::*;
use crate::project::{DeployImageOptions, NewResource};
use crate::scaffold::apply::tests::{FailAfter, snapshot};
use crate::scaffold::{RealFs, apply};

/// A project `webapp-operator` in a temporary directory after `init`, and after `create api`
/// of WebApp when `with_webapp`: the scaffold's own commands, so these tests need no CLI (which
/// sits above the scaffold).
fn project_after_init(with_webapp: bool) -> (tempfile::TempDir, PathBuf) {
    let temp = tempfile::tempdir().unwrap();
    let root = temp.path().join("webapp-operator");
    std::fs::create_dir(&root).unwrap();
    let templates = Templates::load().unwrap();
    let run = |before: Option<&Project>, after: &Project, command: Command| {
        let request = Request {
            root: &root,
            before,
            after,
            command,
            force: false,
        };
        let plan = plan(&RealFs, &templates, &request).unwrap();
        apply(&RealFs, &root, &plan).unwrap();
    };
    let init = InitOptions {
        owner: "The webapp-operator Authors".into(),
        license: "apache2".into(),
        webop_path: None,
    };
    let empty = Project::new("webapp-operator", "example.com", None);
    run(None, &empty, Command::Init(&init));
    if with_webapp {
        let new = NewResource {
            group: "app".into(),
            version: "v1".into(),
            kind: "WebApp".into(),
            namespaced: true,
            resource: true,
            controller: true,
            ..NewResource::default()
        };
        let (after, resource) = empty.with_resource(&new).unwrap();
        run(Some(&empty), &after, Command::CreateApi(&resource));
    }
    (temp, root)
}

/// Applies `plan` failing at its first step, then its second, ... until it goes through,
/// checking that each failure left the tree as it was; returns how many steps could fail.
fn each_failure_rolls_back(root: &Path, plan: &Plan) -> usize {
    let initial = snapshot(root);
    let mut budget = 0;
    while let Err(error) = apply(&FailAfter::new(budget), root, plan) {
        assert!(error.rollback_failures.is_empty(), "{error}");
        assert_eq!(snapshot(root), initial, "after failing at step {budget}");
        budget += 1;
    }
    assert_ne!(snapshot(root), initial);
    budget
}

/// `create api` of WebApp fails at every one of its steps in turn; each time the project is
/// left exactly as `init` wrote it.
#[test]
fn a_failure_midway_through_create_api_leaves_the_tree_as_it_was() {
    let (_temp, root) = project_after_init(false);
    let before = Project::load(&root).unwrap();
    let new = NewResource {
        group: "app".into(),
        version: "v1".into(),
        kind: "WebApp".into(),
        namespaced: true,
        resource: true,
        controller: true,
        image: Some(DeployImageOptions {
            container_port: Some("80".into()),
            image: "nginx:1.25".into(),
            run_as_user: None,
            ..Default::default()
        }),
        ..NewResource::default()
    };
    let (after, resource) = before.with_resource(&new).unwrap();
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::CreateApi(&resource),
        force: false,
    };
    let plan = plan(&RealFs, &Templates::load().unwrap(), &request).unwrap();
    let writes = plan.writes().count();
    assert!(writes > 10, "{}", plan.report());
    // Every file write and each of the new directories (api/src/v1, config/samples,
    // tests) was a step that could fail.
    assert_eq!(each_failure_rolls_back(&root, &plan), writes + 3);
}

/// `delete api` of WebApp fails at every one of its steps in turn (file removals, directory
/// removals, rewrites); each time the project is left exactly as it was.
#[test]
fn a_failure_midway_through_delete_api_leaves_the_tree_as_it_was() {
    let (_temp, root) = project_after_init(true);
    let before = Project::load(&root).unwrap();
    let (after, resource) = before.without_resource("app", "v1", "WebApp").unwrap();
    let request = Request {
        root: &root,
        before: Some(&before),
        after: &after,
        command: Command::DeleteApi(&resource),
        force: false,
    };
    let plan = plan(&RealFs, &Templates::load().unwrap(), &request).unwrap();
    assert!(plan.deletions().count() > 5, "{}", plan.report());
    let steps = each_failure_rolls_back(&root, &plan);
    assert!(steps > plan.deletions().count(), "every removal was a step");
}

//! The pristine scaffold of a project: what `init`, then `create api` of each kind, then
//! `create webhook` of each kind with webhooks write for its PROJECT file, replayed on a tree in
//! memory with the scaffold engine itself (so every insertion, merge and kustomization edit is
//! the commands' own). The same function gives the base of an upgrade (run by the webop that
//! wrote the lock) and its new side (run by this webop), so whatever the replay does not
//! reproduce of the project's real history (the order of the calls, a conversion written from
//! the user's types) is alike in both and cancels out of the three-way merge.

use std::collections::BTreeMap;
use std::path::Path;

use super::memfs::MemFs;
use crate::project::Project;
use crate::scaffold::{self, InitOptions, Templates};
use crate::scaffolds::edit::Licensed;
use crate::scaffolds::{self, Command, CreateWebhook, Request};

/// Files `webop manifests` writes from the code: the scaffold's version is a placeholder, so an
/// upgrade leaves them to the next `make manifests`.
pub const REGENERATED: &[&str] = &["config/rbac/role.yaml"];

/// Where the replay's tree sits in memory.
const ROOT: &str = "/webop-replay";

/// Why the replay failed: a bug of the templates or the engine, never the user's tree.
#[derive(Debug, thiserror::Error)]
#[error("replaying `{step}` for the scaffold lock: {message}")]
pub struct Error {
    pub step: String,
    pub message: String,
}

/// The files the scaffold writes for `project` (by path, `/`-separated), `init` having been given
/// the license `license`; without the machine-local `.cargo/config.toml` and the files of
/// [`REGENERATED`].
pub fn pristine(
    templates: &Templates,
    project: &Project,
    license: &Licensed,
) -> Result<BTreeMap<String, String>, Error> {
    let root = Path::new(ROOT);
    let fs = MemFs::with_root(root);
    let init = InitOptions {
        owner: license
            .clone()
            .unwrap_or_else(|| format!("The {} Authors", project.project_name)),
        license: if license.is_some() { "apache2" } else { "none" }.to_owned(),
        webop_path: None,
    };
    let run = |step: &str, before: Option<&Project>, after: &Project, command: Command| {
        let request = Request {
            root,
            before,
            after,
            command,
            force: false,
        };
        let failed = |message: String| Error {
            step: step.to_owned(),
            message,
        };
        let plan = scaffolds::plan(&fs, templates, &request).map_err(|e| failed(e.to_string()))?;
        scaffold::apply(&fs, root, &plan).map_err(|e| failed(e.to_string()))
    };

    let mut current = project.clone();
    current.resources.clear();
    run("init", None, &current, Command::Init(&init))?;
    for resource in &project.resources {
        let mut created = resource.clone();
        created.webhooks = None;
        let mut next = current.clone();
        next.resources.push(created.clone());
        let step = format!(
            "create api {}/{} {}",
            resource.group, resource.version, resource.kind
        );
        run(&step, Some(&current), &next, Command::CreateApi(&created))?;
        current = next;
    }
    for (index, resource) in project.resources.iter().enumerate() {
        if resource.webhooks.is_none() {
            continue;
        }
        let mut next = current.clone();
        next.resources[index].webhooks = resource.webhooks.clone();
        let create = CreateWebhook {
            resource: &next.resources[index],
            before: None,
        };
        let step = format!(
            "create webhook {}/{} {}",
            resource.group, resource.version, resource.kind
        );
        run(&step, Some(&current), &next, Command::CreateWebhook(create))?;
        current = next;
    }
    let mut files = fs.files_under(root);
    for path in REGENERATED {
        files.remove(*path);
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn golden(name: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata")
            .join(name)
    }

    /// The replay of the WebApp golden's PROJECT is its scaffold, file for file: every file the
    /// golden has that `webop manifests` did not write or add to, byte for byte.
    #[test]
    fn the_replay_of_the_webapp_golden_is_its_scaffold() {
        let dir = golden("webapp-operator");
        let project = Project::load(&dir).unwrap();
        let license = Some("The webapp-operator Authors".to_owned());
        let files = pristine(&Templates::load().unwrap(), &project, &license).unwrap();
        assert!(files.len() > 30, "{}", files.len());
        for (path, contents) in &files {
            // `webop manifests` lists the CRD it writes there; the replay runs no build.
            if path == "config/crd/kustomization.yaml" {
                continue;
            }
            let on_disk =
                std::fs::read_to_string(dir.join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
            assert_eq!(&on_disk, contents, "{path}");
        }
        assert!(!files.contains_key("config/rbac/role.yaml"));
    }
}

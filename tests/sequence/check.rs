//! The invariants checked after every step. Each returns what it found wrong, naming the file.

use std::collections::BTreeMap;
use std::path::Path;

use webop_cli::project::Project;
use webop_cli::project::layout;
use webop_cli::scaffold::templates::is_tool_owned;
use webop_cli::scaffold::{RealFs, Templates, rustfmt};
use webop_cli::upgrade::lock::{DIR, Lock, Owner, sha256};
use webop_cli::upgrade::replay::{REGENERATED, pristine};

use super::tree::{self, Snapshot};

/// Files `webop manifests` writes from the code (a render of the scaffold is a placeholder, or
/// nothing), and the machine's.
fn from_the_code(path: &str) -> bool {
    path.starts_with("config/crd/bases/")
        || REGENERATED.contains(&path)
        || path == ".cargo/config.toml"
        || path == "Cargo.lock"
}

/// A refused command leaves the tree byte-identical.
pub fn unchanged(before: &Snapshot, after: &Snapshot) -> Result<(), String> {
    match first_differences(before, after) {
        none if none.is_empty() => Ok(()),
        differences => Err(format!(
            "the command failed but changed the tree: {}",
            differences.join(", ")
        )),
    }
}

/// `delete` right after its `create` gives back the tree byte for byte.
///
/// One difference is by design: `delete webhook --conversion` leaves the `#[storage_version]`
/// that `create webhook --conversion` put on the hub, as a kind of several versions needs one
/// (docs/create-webhook.md).
pub fn inverse(before_create: &Snapshot, after_delete: &Snapshot) -> Result<(), String> {
    let mut after_delete = after_delete.clone();
    for (path, bytes) in after_delete.iter_mut() {
        let (Some(before), Some(after)) = (before_create.get(path).cloned().flatten(), &*bytes)
        else {
            continue;
        };
        let without = String::from_utf8_lossy(after).replacen("#[storage_version]\n", "", 1);
        if path.ends_with("_types.rs") && without.as_bytes() == before.as_slice() {
            *bytes = Some(before);
        }
    }
    match first_differences(before_create, &after_delete) {
        none if none.is_empty() => Ok(()),
        differences => Err(format!(
            "delete did not give back the tree create found: {}",
            differences.join(", ")
        )),
    }
}

fn first_differences(a: &Snapshot, b: &Snapshot) -> Vec<String> {
    let mut out = Vec::new();
    for (path, bytes) in a {
        match b.get(path) {
            None => out.push(format!("{path} removed")),
            Some(other) if other != bytes => out.push(format!("{path} changed")),
            _ => {}
        }
    }
    for path in b.keys().filter(|p| !a.contains_key(*p)) {
        out.push(format!("{path} added"));
    }
    out.truncate(8);
    out
}

/// Every Rust file of the project is as rustfmt lays it out (the user's edits here are).
pub fn laid_out(snapshot: &Snapshot) -> Result<(), String> {
    let unformatted: Vec<&String> = tree::files(snapshot)
        .filter(|(path, _)| tree::is_project_rust(path))
        .filter(|(_, bytes)| !rustfmt::is_formatted(&String::from_utf8_lossy(bytes)))
        .map(|(path, _)| path)
        .collect();
    if unformatted.is_empty() {
        Ok(())
    } else {
        Err(format!("not as `cargo fmt` leaves them: {unformatted:?}"))
    }
}

/// The scaffold of PROJECT, replayed from nothing: what its DO NOT EDIT files hold.
pub struct Render {
    pub files: BTreeMap<String, String>,
    pub lock: Lock,
}

impl Render {
    pub fn of(templates: &Templates, root: &Path, project: &Project) -> Result<Render, String> {
        let lock = Lock::read(&RealFs, root)
            .map_err(|e| format!("the scaffold lock: {e}"))?
            .ok_or("the project has no scaffold lock")?;
        let files = pristine(templates, project, &lock.licensed()).map_err(|e| e.to_string())?;
        Ok(Render { files, lock })
    }
}

/// Every DO NOT EDIT file equals its render, and every file the render has is there.
pub fn tool_owned_rendered(snapshot: &Snapshot, render: &Render) -> Result<(), String> {
    let mut problems = Vec::new();
    for (path, bytes) in tree::files(snapshot) {
        let text = String::from_utf8_lossy(bytes);
        if !is_tool_owned(&text) || from_the_code(path) || path.starts_with(".webop-scaffold/") {
            continue;
        }
        match render.files.get(path) {
            None => problems.push(format!("{path}: DO NOT EDIT, but no command renders it")),
            Some(rendered) if *rendered != text => {
                problems.push(format!("{path}: DO NOT EDIT, differs from its render"))
            }
            Some(_) => {}
        }
    }
    for (path, rendered) in &render.files {
        if is_tool_owned(rendered) && !snapshot.contains_key(path) {
            problems.push(format!("{path}: rendered, missing from the tree"));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// The scaffold lock records the render of PROJECT with these templates, the tree's DO NOT EDIT
/// files are what it records, and `.webop-scaffold/` holds the lock alone.
pub fn lock_agrees(
    snapshot: &Snapshot,
    render: &Render,
    templates: &Templates,
) -> Result<(), String> {
    let expected = Lock::new(&render.files, &render.lock.licensed(), templates.id());
    let mut problems = Vec::new();
    if render.lock.templates != expected.templates {
        problems.push(format!(
            "the lock names templates {:?}, not {}",
            render.lock.templates,
            templates.id()
        ));
    }
    for (path, locked) in &render.lock.files {
        match expected.files.get(path) {
            None => problems.push(format!("{path}: locked, not rendered for PROJECT")),
            Some(e) if e != locked => problems.push(format!("{path}: locked render is stale")),
            Some(_) => {}
        }
        let on_disk = match locked.owner {
            Owner::Webop if !from_the_code(path) => path.clone(),
            _ => continue,
        };
        match snapshot.get(&on_disk) {
            Some(Some(bytes)) if sha256(bytes) == locked.sha256 => {}
            Some(Some(_)) => problems.push(format!("{on_disk}: not what the lock records")),
            _ => problems.push(format!("{on_disk}: locked, missing")),
        }
    }
    for path in expected.files.keys() {
        if !render.lock.files.contains_key(path) {
            problems.push(format!("{path}: rendered for PROJECT, not in the lock"));
        }
    }
    let prefix = format!("{DIR}/");
    for path in snapshot.keys() {
        if path.starts_with(&prefix) && path != webop_cli::upgrade::lock::FILE {
            problems.push(format!("{path}: more than the lock in {DIR}/"));
        }
    }
    problems.truncate(8);
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

/// What makes each kind of PROJECT build and deploy is in its user-owned files: its sample in
/// the samples' kustomization, its types module, and the conversion module of its conversion.
pub fn kinds_wired(snapshot: &Snapshot, project: &Project) -> Result<(), String> {
    let text = |path: &str| {
        snapshot
            .get(path)
            .and_then(Option::as_ref)
            .map(|b| String::from_utf8_lossy(b).into_owned())
    };
    let mut problems = Vec::new();
    let samples = text("config/samples/kustomization.yaml").unwrap_or_default();
    for r in &project.resources {
        let lower = r.kind.to_ascii_lowercase();
        if r.api.is_none() || r.external {
            continue;
        }
        let sample = format!("- {}_{}_{lower}.yaml", r.group, r.version);
        if !samples.lines().any(|l| l.trim() == sample) {
            problems.push(format!(
                "config/samples/kustomization.yaml lacks `{sample}`"
            ));
        }
        let module = |version: &str| {
            let path = layout::place(
                &format!("api/src/{version}/mod.rs"),
                &r.group,
                project.multigroup,
            );
            (text(&path).unwrap_or_default(), path)
        };
        let (types, path) = module(&r.version);
        let line = format!("mod {lower}_types;");
        if !types.lines().any(|l| l.trim() == line) {
            problems.push(format!("{path} lacks `{line}`"));
        }
        if let Some(webhooks) = r.webhooks.as_ref().filter(|w| w.conversion) {
            let line = format!("mod {lower}_conversion;");
            for version in std::iter::once(&r.version).chain(&webhooks.spoke) {
                let (text, path) = module(version);
                if !text.lines().any(|l| l.trim() == line) {
                    problems.push(format!("{path} lacks `{line}`"));
                }
            }
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("; "))
    }
}

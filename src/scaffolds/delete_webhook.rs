//! `delete webhook`: what `create webhook` added for a kind's webhook types goes again. The
//! tool-owned files follow PROJECT by themselves (every command re-renders them); here are the
//! user-owned ones: the kind's webhook module and tests (deleted, or the removed types' pieces
//! taken out of them), the conversion files, the lines and blocks `create webhook` inserted,
//! and, once the project has no webhook left, the sections it uncommented and the module and
//! manager lines it added. A file to delete that the user edited is kept unless `--force`.
//! The hub keeps `#[storage_version]`: a kind with several versions needs one.

use std::path::Path;

use super::create_webhook::files;
use super::create_webhook::{
    Admission, DEFAULT_KUSTOMIZATION, DEFAULTING, InFile, MODULE, TESTS, add, admissions, read,
};
use crate::project::{Project, Resource, Webhooks};
use crate::scaffold::fs::FileSystem;
use crate::scaffold::kustomize::{self, Block};
use crate::scaffold::markers;
use crate::scaffold::plan::{Conflict, Planner};
use crate::scaffold::templates::Templates;
use crate::scaffold::{Error, Scaffold, Step};

/// `delete webhook` of `resource` (as recorded before the command; `after` has what is left).
#[derive(Clone, Copy, Debug)]
pub struct DeleteWebhook<'a> {
    pub resource: &'a Resource,
}

impl Scaffold for DeleteWebhook<'_> {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        plan(planner, step, *self)
    }
}

/// Plans what `delete webhook` removes beyond the tool-owned files.
fn plan(planner: &mut Planner, step: &Step, delete: DeleteWebhook) -> Result<(), Error> {
    let (fs, root, templates) = (step.fs, step.root, step.templates);
    let before = step.before.expect("delete webhook has a project before");
    let after = step.after;
    let resource = delete.resource;
    let had = resource.webhooks.clone().unwrap_or_default();
    let left = after
        .resource(&resource.group, &resource.version, &resource.kind)
        .and_then(|r| r.webhooks.clone())
        .unwrap_or_default();
    let removed = admissions(&had, &left);
    if !removed.is_empty() {
        let context = files::context(fs, root, before, resource);
        for (template, in_file) in [(MODULE, InFile::Module), (TESTS, InFile::Tests)] {
            let bare = files::render(templates, before, resource, template, &context)?;
            let Some(current) = read(fs, root, &bare.path) else {
                continue;
            };
            let with = |order: &[&Admission]| -> Result<String, Error> {
                let mut contents = bare.contents.clone();
                for admission in order {
                    contents = add(
                        templates, &context, &bare.path, &contents, admission, in_file,
                    )?;
                }
                Ok(contents)
            };
            if left.admission() {
                let stripped = strip(templates, &context, &current, &removed, in_file)?;
                match stripped {
                    Some(text) => planner
                        .edit(&bare.path, "removes the webhook type", |_| Ok(text.clone()))?,
                    None => {
                        return Err(Conflict::EditedToRewrite {
                            path: bare.path.clone(),
                            reason: format!(
                                "delete webhook: the {} code is not as webop wrote it; remove \
                                 it by hand and its type from the kind's `webhooks:` in PROJECT",
                                removed_names(&removed)
                            ),
                        }
                        .into());
                    }
                }
            } else {
                let all = admissions(&had, &Webhooks::default());
                let reversed: Vec<&Admission> = all.iter().rev().copied().collect();
                let (forward, backward) = (with(&all)?, with(&reversed)?);
                let written = if current == backward {
                    backward
                } else {
                    forward
                };
                planner.remove(&bare.path, Some(&written))?;
            }
        }
    }
    if had.conversion && !left.conversion {
        remove_conversion(planner, fs, root, templates, before, resource)?;
    }
    let admission_left = after
        .resources
        .iter()
        .any(|r| r.webhooks.as_ref().is_some_and(Webhooks::admission));
    if !admission_left {
        // Written by `webop manifests` from the `#[webhook]`s, none of which is left.
        planner.remove("config/webhook/manifests.yaml", None)?;
    }
    unconfigure(planner, before, after)
}

fn removed_names(removed: &[&Admission]) -> String {
    removed
        .iter()
        .map(|a| {
            if std::ptr::eq(*a, &DEFAULTING) {
                "defaulting"
            } else {
                "validation"
            }
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

/// `current` without the pieces of the `removed` webhook types, exactly as `create webhook`
/// inserts them; `None` when one of them is not there as written.
fn strip(
    templates: &Templates,
    context: &tera::Context,
    current: &str,
    removed: &[&Admission],
    in_file: InFile,
) -> Result<Option<String>, Error> {
    let mut text = current.to_owned();
    for admission in removed {
        if let InFile::Module = in_file {
            // A line `insert` indented as its marker.
            let line = templates.render(admission.registration, context)?.contents;
            let line = line.trim().to_owned();
            if !text.lines().any(|l| l.trim() == line) {
                return Ok(None);
            }
            text = markers::remove(&text, &[line]);
        }
        let fragment = match in_file {
            InFile::Module => admission.implementation,
            InFile::Tests => admission.test,
        };
        let piece = templates.render(fragment, context)?.contents;
        let piece = format!("{}\n", piece.trim_end_matches('\n'));
        let Some(at) = find_lines(&text, &piece) else {
            return Ok(None);
        };
        text.replace_range(at..at + piece.len(), "");
    }
    Ok(Some(text))
}

/// Where `piece` (whole lines, each of them maybe indented as the file indents it) starts in
/// `text`.
fn find_lines(text: &str, piece: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = text[from..].find(piece) {
        let at = from + found;
        if at == 0 || text.as_bytes()[at - 1] == b'\n' {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

/// The hub's and spokes' conversion files, their module lines, the CRD's conversion patch line
/// and its CA-injection targets.
fn remove_conversion(
    planner: &mut Planner,
    fs: &dyn FileSystem,
    root: &Path,
    templates: &Templates,
    before: &Project,
    resource: &Resource,
) -> Result<(), Error> {
    let mut context = files::context(fs, root, before, resource);
    let files = files::conversion(templates, fs, root, before, resource, &mut context)?;
    for file in std::iter::once(&files.hub)
        .chain(&files.spokes)
        .chain(std::iter::once(&files.tests))
    {
        planner.remove(&file.path, Some(&file.contents))?;
    }
    let kind_lower = resource.kind.to_ascii_lowercase();
    for module in &files.modules {
        planner.remove_lines(module, &[format!("mod {kind_lower}_conversion;")])?;
    }
    let plural = resource.plural();
    let patch = crate::project::layout::place(
        &format!("config/crd/patches/webhook_in_{plural}.yaml"),
        &resource.group,
        before.multigroup,
    );
    let line = format!("- path: {}", patch.trim_start_matches("config/crd/"));
    planner.remove_lines("config/crd/kustomization.yaml", &[line])?;
    let crd_name = format!("{plural}.{}", resource.qualified_group());
    for index in [0, 1] {
        let target = format!("{}\n", kustomize::conversion_ca_target(&crd_name, index));
        planner.edit(
            DEFAULT_KUSTOMIZATION,
            "removes the CRD's CA injection",
            |text| {
                Ok(match find_lines(text, &target) {
                    Some(at) => format!("{}{}", &text[..at], &text[at + target.len()..]),
                    None => text.to_owned(),
                })
            },
        )?;
    }
    Ok(())
}

/// The project-wide edits of `create webhook` that nothing needs once `after` has no webhook of
/// their kind: sections commented out again, the module, feature and manager lines taken out.
fn unconfigure(planner: &mut Planner, before: &Project, after: &Project) -> Result<(), Error> {
    let any = |project: &Project, has: fn(&Webhooks) -> bool| {
        project
            .resources
            .iter()
            .any(|r| r.webhooks.as_ref().is_some_and(has))
    };
    let webhooks = any(after, |_| true);
    let mut blocks: Vec<&Block> = Vec::new();
    if !any(after, |w| w.validation) {
        blocks.push(&kustomize::VALIDATING_CA_INJECTION);
    }
    if !any(after, |w| w.defaulting) {
        blocks.push(&kustomize::MUTATING_CA_INJECTION);
    }
    if !any(after, |w| w.conversion) {
        blocks.push(&kustomize::CONVERSION_CA_NAMESPACE);
        blocks.push(&kustomize::CONVERSION_CA_NAME);
    }
    if !webhooks {
        blocks.extend([
            &kustomize::WEBHOOK_RESOURCE,
            &kustomize::CERTMANAGER_RESOURCE,
            &kustomize::MANAGER_WEBHOOK_PATCH,
            &kustomize::REPLACEMENTS,
            &kustomize::SERVICE_DNS_NAMES,
        ]);
    }
    for block in blocks {
        planner.edit(
            DEFAULT_KUSTOMIZATION,
            "comments out a webhook section",
            |text| Ok(comment_block(text, block.text)),
        )?;
    }
    if webhooks {
        return Ok(());
    }
    planner.edit(
        "config/network-policy/kustomization.yaml",
        "takes back what create webhook enabled",
        |text| {
            Ok(text.replacen(
                "- allow-webhook-traffic.yaml\n- allow-metrics-traffic.yaml",
                "- allow-metrics-traffic.yaml",
                1,
            ))
        },
    )?;
    planner.edit(
        "Cargo.toml",
        "takes back what create webhook enabled",
        |text| Ok(super::create_webhook::feature::disable(text)),
    )?;
    planner.remove_lines("src/lib.rs", &["pub mod webhook;".to_owned()])?;
    planner.remove_lines(
        "src/main.rs",
        &[format!(
            "let manager = manager.with_webhooks({}::webhook::webhooks());",
            before.crate_name()
        )],
    )?;
    Ok(())
}

/// `text` with the enabled `block` commented out again, as `init` writes it; unchanged when
/// the block is not there enabled.
fn comment_block(text: &str, block: &str) -> String {
    let block = format!("{}\n", block.trim_end_matches('\n'));
    match find_lines(text, &block) {
        Some(at) => format!(
            "{}{}\n{}",
            &text[..at],
            kustomize::commented(&block),
            &text[at + block.len()..]
        ),
        None => text.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_is_commented_again_as_init_wrote_it() {
        let init = format!("a:\n{}\nb: 1\n", kustomize::commented("- ../webhook"));
        let enabled = markers::uncomment_block(&init, "- ../webhook", "#").unwrap();
        assert_eq!(enabled, "a:\n- ../webhook\nb: 1\n");
        assert_eq!(comment_block(&enabled, "- ../webhook"), init);
        assert_eq!(comment_block(&init, "- ../webhook"), init);
    }

    #[test]
    fn pieces_are_found_on_whole_lines() {
        assert_eq!(find_lines("x\nab\nb\n", "b\n"), Some(5));
        assert_eq!(find_lines("ab\n", "b\n"), None);
        assert!(
            super::super::create_webhook::VALIDATION
                .registration
                .contains("validator")
        );
    }
}

//! `+kubebuilder:webhook` markers (of `internal/webhook/**` and the API packages) to the
//! `#[webhook(...)]` attributes of the webhooks `create webhook` scaffolds, so that
//! `config/webhook/manifests.yaml` is the one controller-gen writes.
//!
//! A marker with a path of its own (what kubebuilder's `--defaulting-path`/`--validation-path`
//! write) keeps it: `create webhook` is given the same flag ([`create_webhook_flags`]), so the
//! webhook is registered there (`Webhooks::defaulter_at`, controller-runtime's
//! `WithDefaulterCustomPath`) and the attribute names it. A marker of a kind the project does not
//! import (an external kind's) is an issue.

use super::go::{GoFile, MarkerLine};
use super::markers::{self, Args};
use super::{Error, known};

mod attach;

pub use attach::attach;
#[cfg(test)]
use attach::default_path;

/// The `#[webhook(...)]` of one admission webhook of a kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WebhookAttribute {
    pub mutating: bool,
    /// The attribute, laid out as rustfmt lays out the scaffold's.
    pub text: String,
    /// The marker's path, where it is not controller-runtime's: the webhook is served there.
    pub custom_path: Option<String>,
}

/// One `+kubebuilder:webhook` marker, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoWebhook {
    pub file: String,
    pub line: usize,
    pub mutating: bool,
    pub path: Option<String>,
    pub groups: Vec<String>,
    pub resources: Vec<String>,
    pub versions: Vec<String>,
    /// The attribute's arguments but `path`, in the marker's order.
    entries: Vec<String>,
}

impl GoWebhook {
    /// The attribute of the kind whose controller-runtime path is `default_path`, at the
    /// marker's path.
    pub fn attribute(&self, default_path: &str) -> WebhookAttribute {
        let path = self.path.as_deref().unwrap_or(default_path);
        let mut lines = Vec::new();
        if self.path.is_some() {
            lines.push(format!("path = {path:?}"));
        }
        lines.extend(self.entries.iter().cloned());
        WebhookAttribute {
            mutating: self.mutating,
            text: format!("#[webhook(\n    {}\n)]", lines.join(",\n    ")),
            custom_path: (path != default_path).then(|| path.to_owned()),
        }
    }

    /// Whether the marker is about `group`'s `resource` at `version`.
    pub fn is_for(&self, group: &str, resource: &str, version: &str) -> bool {
        self.groups.iter().any(|g| g == group)
            && self.resources.iter().any(|r| r == resource)
            && self.versions.iter().any(|v| v == version)
    }
}

/// A `+kubebuilder:webhookconfiguration` marker: the name of the mutating or validating
/// configuration, as `#[webhook_configuration(...)]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoConfiguration {
    pub file: String,
    pub line: usize,
    pub mutating: bool,
    pub attribute: String,
}

/// The webhook markers of a project.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoMarkers {
    pub webhooks: Vec<GoWebhook>,
    pub configurations: Vec<GoConfiguration>,
}

/// The webhook markers of `files`, each once (a marker may be both a free group of the package
/// and the group before a type).
pub fn markers_of(files: &[&GoFile]) -> Result<GoMarkers, Error> {
    let names = known::names();
    let mut out = GoMarkers::default();
    for file in files {
        let mut lines: Vec<&MarkerLine> = file
            .package_markers
            .iter()
            .chain(file.types.iter().flat_map(|t| &t.markers))
            .filter(|m| m.text.starts_with("kubebuilder:webhook"))
            .collect();
        lines.sort_by_key(|m| m.line);
        lines.dedup_by_key(|m| m.line);
        for line in lines {
            if line.text.starts_with("kubebuilder:webhook:") {
                out.webhooks.push(read(file, line, &names)?);
            } else if line.text.starts_with("kubebuilder:webhookconfiguration:") {
                out.configurations
                    .push(read_configuration(file, line, &names)?);
            }
        }
    }
    Ok(out)
}

fn read_configuration(
    file: &GoFile,
    line: &MarkerLine,
    names: &[&str],
) -> Result<GoConfiguration, Error> {
    let bad = |why: String| Error::Marker {
        file: file.path.clone(),
        line: line.line,
        marker: line.text.clone(),
        why,
    };
    let Some(markers::Parsed {
        args: Args::Named(pairs),
        ..
    }) = markers::split(&line.text, names)
    else {
        return Err(bad("expected `mutating=...,name=...`".into()));
    };
    let (mut mutating, mut name) = (false, None);
    for (key, raw) in pairs {
        match key.as_str() {
            "mutating" => mutating = matches!(raw.trim(), "" | "true"),
            "name" => name = Some(markers::string(&raw).map_err(bad)?),
            other => {
                return Err(bad(format!(
                    "`{other}` is no argument of +kubebuilder:webhookconfiguration"
                )));
            }
        }
    }
    let name = name.ok_or_else(|| bad("needs `name`".into()))?;
    Ok(GoConfiguration {
        file: file.path.clone(),
        line: line.line,
        mutating,
        attribute: format!(
            "#[webhook_configuration({}name = {name:?})]",
            if mutating { "mutating, " } else { "" }
        ),
    })
}

fn read(file: &GoFile, line: &MarkerLine, names: &[&str]) -> Result<GoWebhook, Error> {
    let bad = |why: String| Error::Marker {
        file: file.path.clone(),
        line: line.line,
        marker: line.text.clone(),
        why,
    };
    let Some(markers::Parsed {
        args: Args::Named(pairs),
        ..
    }) = markers::split(&line.text, names)
    else {
        return Err(bad("expected `path=...,mutating=...,...`".into()));
    };
    let mut webhook = GoWebhook {
        file: file.path.clone(),
        line: line.line,
        mutating: false,
        path: None,
        groups: Vec::new(),
        resources: Vec::new(),
        versions: Vec::new(),
        entries: Vec::new(),
    };
    for (key, raw) in pairs {
        let text = || markers::string(&raw).map_err(bad);
        let list = || -> Result<Vec<String>, Error> {
            Ok(markers::list(&raw)
                .map_err(bad)?
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_owned))
                .collect())
        };
        let rust_list = |values: &[String]| {
            let quoted: Vec<String> = values.iter().map(|v| format!("{v:?}")).collect();
            format!("[{}]", quoted.join(", "))
        };
        let entry = match key.as_str() {
            "path" => {
                webhook.path = Some(text()?);
                continue;
            }
            "mutating" => {
                webhook.mutating = match raw.trim() {
                    "" | "true" => true,
                    "false" => false,
                    other => return Err(bad(format!("mutating={other} is no bool"))),
                };
                if webhook.mutating {
                    "mutating".to_owned()
                } else {
                    "mutating = false".to_owned()
                }
            }
            "timeoutSeconds" | "servicePort" => {
                let number: i32 = raw
                    .trim()
                    .parse()
                    .map_err(|_| bad(format!("{key}={raw} is no integer")))?;
                format!("{} = {number}", snake(&key))
            }
            "groups"
            | "resources"
            | "verbs"
            | "versions"
            | "admissionReviewVersions"
            | "webhookVersions" => {
                let values = list()?;
                match key.as_str() {
                    "groups" => webhook.groups = values.clone(),
                    "resources" => webhook.resources = values.clone(),
                    "versions" => webhook.versions = values.clone(),
                    _ => {}
                }
                format!("{} = {}", snake(&key), rust_list(&values))
            }
            "url" | "failurePolicy" | "matchPolicy" | "sideEffects" | "name" | "serviceName"
            | "serviceNamespace" | "reinvocationPolicy" => {
                format!("{} = {:?}", snake(&key), text()?)
            }
            other => {
                return Err(bad(format!(
                    "`{other}` is no argument of +kubebuilder:webhook"
                )));
            }
        };
        webhook.entries.push(entry);
    }
    Ok(webhook)
}

/// `failurePolicy` → `failure_policy`.
fn snake(key: &str) -> String {
    let mut out = String::new();
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The scaffolded webhook file `text` with each `#[webhook(...)]` replaced by the attribute of
/// `webhooks` of the same type (mutating or not), and the webhooks at a custom path registered
/// there. The result is for rustfmt to lay out.
pub fn webhook_file(text: &str, webhooks: &[WebhookAttribute]) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(start) = rest.find("#[webhook(") {
        let Some(length) = rest[start..].find(")]") else {
            break;
        };
        let block = &rest[start..start + length + 2];
        out.push_str(&rest[..start]);
        let mutating = block
            .lines()
            .any(|l| l.trim().trim_end_matches(',') == "mutating");
        match webhooks.iter().find(|w| w.mutating == mutating) {
            Some(webhook) => out.push_str(&webhook.text),
            None => out.push_str(block),
        }
        rest = &rest[start + length + 2..];
    }
    out.push_str(rest);
    out
}

/// `create webhook`'s flags for the admission webhooks PROJECT lists (`webhooks`), each served
/// where its marker (of `attributes`) says: `--defaulting --defaulting-path=/custom-mutate-sailor`.
pub fn create_webhook_flags(
    webhooks: &super::Webhooks,
    attributes: &[WebhookAttribute],
) -> Vec<String> {
    let path_of = |mutating: bool| {
        (attributes.iter())
            .find(|a| a.mutating == mutating)
            .and_then(|a| a.custom_path.clone())
    };
    let mut flags = Vec::new();
    for (listed, flag, path_flag, mutating) in [
        (
            webhooks.defaulting,
            "--defaulting",
            "--defaulting-path",
            true,
        ),
        (
            webhooks.validation,
            "--programmatic-validation",
            "--validation-path",
            false,
        ),
    ] {
        if listed {
            flags.push(flag.to_owned());
            flags.extend(path_of(mutating).map(|path| format!("{path_flag}={path}")));
        }
    }
    flags
}

#[cfg(test)]
mod tests;

//! kubebuilder's deploy-image plugin (`deploy-image.go.kubebuilder.io/v1-alpha` in PROJECT):
//! each of its kinds is `webop create api --image ... --kubebuilder-spec` with the plugin's
//! options, so its controller is webop's deploy-image controller on kubebuilder's spec (`size`,
//! `containerPort`), the image, command and user of the options.

use serde_json::Value;

use super::Issue;
use super::project_file::{ProjectFile, Resource};

/// The plugin's key in kubebuilder's PROJECT.
pub const PLUGIN: &str = "deploy-image.go.kubebuilder.io/v1-alpha";

/// The plugin's entry of `resource` (its `options:`), if the plugin scaffolded it.
fn options_of<'a>(project: &'a ProjectFile, resource: &Resource) -> Option<&'a Value> {
    let resources = project.plugins.get(PLUGIN)?.get("resources")?.as_array()?;
    resources
        .iter()
        .find(|r| {
            r["group"] == resource.group.as_str()
                && r["version"] == resource.version.as_str()
                && r["kind"] == resource.kind.as_str()
        })
        .map(|r| &r["options"])
}

/// `create api`'s flags for the plugin's `options`: `--image`, `--port`, `--run-as-user`,
/// `--container-command` and `--kubebuilder-spec`; or why an option cannot be one.
fn flags(options: &Value) -> Result<Vec<String>, String> {
    let option = |key: &str| match &options[key] {
        Value::Null => Ok(None),
        Value::String(s) => Ok(Some(s.clone())),
        Value::Number(n) => Ok(Some(n.to_string())),
        other => Err(format!("{key}: {other} is no string")),
    };
    let image = option("image")?.filter(|i| !i.is_empty());
    let image = image.ok_or_else(|| "no image".to_owned())?;
    let mut flags = vec!["--image".to_owned(), image];
    if let Some(port) = option("containerPort")? {
        match port.parse::<u16>() {
            Ok(1..) => flags.extend(["--port".to_owned(), port]),
            _ => return Err(format!("containerPort {port:?} is no port (1 to 65535)")),
        }
    }
    if let Some(user) = option("runAsUser")? {
        match user.parse::<u32>() {
            Ok(1..=2147483647) => flags.extend(["--run-as-user".to_owned(), user]),
            _ => return Err(format!("runAsUser {user:?} is no non-root user ID")),
        }
    }
    if let Some(command) = option("containerCommand")? {
        if command.split(',').any(str::is_empty) {
            return Err(format!(
                "containerCommand {command:?} has an empty argument"
            ));
        }
        flags.extend(["--container-command".to_owned(), command]);
    }
    flags.push("--kubebuilder-spec".to_owned());
    Ok(flags)
}

/// Whether `create api --image` can scaffold `resource`: a namespaced kind with its one
/// unnamed controller.
fn scaffolds(resource: &Resource) -> bool {
    resource.controller && resource.controllers.is_empty()
}

/// `create api`'s deploy-image flags for `resource` (see [`flags`]); none when the plugin did
/// not scaffold it or its options cannot be carried over (then [`notes`] lists why).
pub fn create_api_flags(project: &ProjectFile, resource: &Resource) -> Vec<String> {
    options_of(project, resource)
        .filter(|_| scaffolds(resource))
        .and_then(|options| flags(options).ok())
        .unwrap_or_default()
}

/// What becomes of the plugin's kinds: a note with the `create api` flags of each, or an issue
/// where its options cannot be carried over (the kind then gets the plain scaffold's controller).
pub fn notes(project: &ProjectFile, notes: &mut Vec<Issue>, issues: &mut Vec<Issue>) {
    let Some(entries) = project
        .plugins
        .get(PLUGIN)
        .and_then(|p| p["resources"].as_array())
    else {
        return;
    };
    for entry in entries {
        let shown = format!(
            "plugin {PLUGIN}: {} {}/{}",
            entry["kind"].as_str().unwrap_or("?"),
            entry["group"].as_str().unwrap_or("?"),
            entry["version"].as_str().unwrap_or("?"),
        );
        let resource = project.resources.iter().find(|r| {
            entry["group"] == r.group.as_str()
                && entry["version"] == r.version.as_str()
                && entry["kind"] == r.kind.as_str()
                && r.api.is_some()
        });
        let at = |what: String| Issue {
            file: "PROJECT".into(),
            line: 0,
            what,
        };
        match (resource, flags(&entry["options"])) {
            (None, _) => issues.push(at(format!("{shown}: PROJECT has no such kind: left out"))),
            (Some(r), _) if !scaffolds(r) => issues.push(at(format!(
                "{shown}: not one unnamed controller: the plain scaffold's controller, the options left out"
            ))),
            (Some(_), Err(why)) => issues.push(at(format!(
                "{shown}: {why}: the plain scaffold's controller, the options left out"
            ))),
            (Some(_), Ok(flags)) => notes.push(at(format!(
                "{shown}: `webop create api {}` (webop's deploy-image controller on kubebuilder's spec)",
                flags.join(" ")
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_options_become_create_api_flags() {
        let options = serde_json::json!({
            "containerCommand": "memcached,--memory-limit=64,-o,modern,-v",
            "containerPort": "11211",
            "image": "memcached:1.6.26-alpine3.19",
            "runAsUser": "1001",
        });
        assert_eq!(
            flags(&options).unwrap().join(" "),
            "--image memcached:1.6.26-alpine3.19 --port 11211 --run-as-user 1001 \
             --container-command memcached,--memory-limit=64,-o,modern,-v --kubebuilder-spec"
        );
        let busybox = serde_json::json!({"image": "busybox:1.36.1"});
        assert_eq!(
            flags(&busybox).unwrap().join(" "),
            "--image busybox:1.36.1 --kubebuilder-spec"
        );
    }

    #[test]
    fn options_that_are_no_flags_are_named() {
        let port = serde_json::json!({"image": "a:1", "containerPort": "http"});
        assert_eq!(
            flags(&port).unwrap_err(),
            r#"containerPort "http" is no port (1 to 65535)"#
        );
        let root = serde_json::json!({"image": "a:1", "runAsUser": "0"});
        assert_eq!(
            flags(&root).unwrap_err(),
            r#"runAsUser "0" is no non-root user ID"#
        );
        let command = serde_json::json!({"image": "a:1", "containerCommand": "a,,b"});
        assert!(flags(&command).unwrap_err().contains("empty argument"));
        assert_eq!(flags(&serde_json::json!({})).unwrap_err(), "no image");
    }
}

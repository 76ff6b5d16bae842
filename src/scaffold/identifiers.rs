//! The Rust names templates give a kind's items, chosen so that no kind name collides with a
//! name the generated code binds itself. A kind may well be called `Client`, `Event`, `Patch`
//! or `Deployment`: controllers reach its types through the API module's alias
//! (`appv1::WebApp`, kubebuilder's import alias), and its objects' variables avoid the
//! templates' own locals.

use crate::project::validate;

/// The aliases the templates give k8s-openapi's modules.
const K8S_ALIASES: [&str; 3] = ["appsv1", "corev1", "metav1"];

/// Every name the templates bind (variables, parameters, closure arguments), besides a kind's
/// own variables. A kind whose variable would be one of these gets `<kind>_object` instead.
/// `every_name_the_golden_project_binds_is_listed` keeps this list complete.
const TEMPLATE_BINDINGS: &[&str] = &[
    "again",
    "api",
    "applied",
    "available",
    "c",
    "cached",
    "cached_deployment",
    "cached_service",
    "change",
    "changes",
    "child",
    "children",
    "client",
    "cluster",
    "complete",
    "condition",
    "conditions",
    "container",
    "context",
    "controlled",
    "controller",
    "controller_client",
    "controls",
    "counters",
    "created",
    "ctx",
    "current",
    "d",
    "degraded",
    "delete",
    "deployment",
    "deployment_changes",
    "deployments",
    "desired",
    "dropped",
    "e",
    "edit",
    "entry",
    "env",
    "error",
    "escalation",
    "event",
    "events",
    "expected",
    "failed",
    "failing",
    "failure",
    "field",
    "flags",
    "foreground",
    "generation",
    "idle",
    "image",
    "instance",
    "invalid",
    "k",
    "key",
    "kind",
    "kit",
    "labels",
    "limited",
    "limits",
    "m",
    "managed",
    "manager",
    "message",
    "name",
    "named",
    "namespace",
    "note",
    "notes",
    "now",
    "object",
    "observed",
    "ok",
    "old_deployment",
    "old_service",
    "options",
    "other",
    "outcome",
    "owner",
    "p",
    "params",
    "patch",
    "pending",
    "phase",
    "pod",
    "pods",
    "port",
    "ports",
    "progressing",
    "r",
    "reason",
    "reconciled",
    "recreated",
    "refused",
    "replicas",
    "requests",
    "resource",
    "resources",
    "result",
    "results",
    "role",
    "roles",
    "rollout",
    "rule",
    "running",
    "s",
    "seccomp",
    "seconds",
    "security",
    "selector",
    "server",
    "service",
    "service_changes",
    "services",
    "set",
    "since",
    "source",
    "spec",
    "status",
    "status_writes",
    "still_theirs",
    "stopped",
    "stuck",
    "suffix",
    "t",
    "target",
    "template",
    "theirs",
    "time",
    "total",
    "touch",
    "type_",
    "uid",
    "undone",
    "unset",
    "updated",
    "updates",
    "user",
    "v",
    "value",
    "verb",
    "w",
    "waiting",
    "why",
    "with",
];

/// The alias under which generated code imports a kind's API module: group and version, as
/// kubebuilder's import alias (`appv1`), or `<alias>api` where that would shadow a k8s-openapi
/// module alias (`appsv1`) or be a keyword.
pub fn api_alias(group: &str, version: &str) -> String {
    let group: String = group
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let alias = format!("{group}{version}");
    if K8S_ALIASES.contains(&alias.as_str()) || validate::is_rust_keyword(&alias) {
        format!("{alias}api")
    } else {
        alias
    }
}

/// The variable holding one object of a kind: its lower-case name (`webapp`), or
/// `<name>_object` where that is not an identifier, is a keyword, or is bound by the templates.
pub fn kind_var(kind_lower: &str) -> String {
    match rust_variable(kind_lower) {
        Some(name) if !TEMPLATE_BINDINGS.contains(&name.as_str()) => name,
        _ => format!("{kind_lower}_object"),
    }
}

/// The variable holding the objects of a kind: its plural (`webapps`), or `<kind_var>_list`.
pub fn plural_var(plural: &str, kind_var: &str) -> String {
    match rust_variable(&plural.replace('-', "_")) {
        Some(name) if !TEMPLATE_BINDINGS.contains(&name.as_str()) => name,
        _ => format!("{kind_var}_list"),
    }
}

/// `name` if it can name a Rust variable: an identifier that is not a keyword.
fn rust_variable(name: &str) -> Option<String> {
    let identifier = name.starts_with(|c: char| c.is_ascii_lowercase() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (identifier && !validate::is_rust_keyword(name)).then(|| name.to_owned())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;
    use std::path::Path;

    use syn::visit::Visit;

    use super::*;

    #[test]
    fn aliases_are_kubebuilders_unless_they_would_shadow_or_be_keywords() {
        assert_eq!(api_alias("app", "v1"), "appv1");
        assert_eq!(api_alias("my-group", "v1beta1"), "mygroupv1beta1");
        assert_eq!(api_alias("apps", "v1"), "appsv1api");
        assert_eq!(api_alias("meta", "v1"), "metav1api");
    }

    #[test]
    fn a_kind_named_like_a_template_local_gets_a_variable_of_its_own() {
        assert_eq!(kind_var("webapp"), "webapp");
        assert_eq!(kind_var("deployment"), "deployment_object");
        assert_eq!(kind_var("type"), "type_object");
        assert_eq!(plural_var("webapps", "webapp"), "webapps");
        assert_eq!(
            plural_var("services", "service_object"),
            "service_object_list"
        );
    }

    /// Collects the names that patterns bind.
    #[derive(Default)]
    struct Bindings(BTreeSet<String>);

    impl<'ast> Visit<'ast> for Bindings {
        fn visit_pat_ident(&mut self, pat: &'ast syn::PatIdent) {
            self.0.insert(pat.ident.to_string());
            syn::visit::visit_pat_ident(self, pat);
        }
    }

    #[test]
    fn every_name_the_golden_project_binds_is_listed() {
        let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/webapp-operator");
        let mut bindings = Bindings::default();
        for file in [
            "src/controller/webapp_controller.rs",
            "tests/webapp_controller.rs",
            "src/main.rs",
        ] {
            let text = std::fs::read_to_string(golden.join(file)).unwrap();
            bindings.visit_file(&syn::parse_file(&text).unwrap());
        }
        let unlisted: Vec<&String> = bindings
            .0
            .iter()
            // `None` in a pattern is a path, not a binding.
            .filter(|name| name.starts_with(|c: char| c.is_lowercase() || c == '_'))
            .filter(|name| !["webapp", "webapps"].contains(&name.as_str()))
            .filter(|name| !TEMPLATE_BINDINGS.contains(&name.as_str()))
            .collect();
        assert!(
            unlisted.is_empty(),
            "add to TEMPLATE_BINDINGS: {unlisted:?}"
        );
    }
}

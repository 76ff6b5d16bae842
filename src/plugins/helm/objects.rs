//! One object of `config/` as a chart template: what `kubectl kustomize config/default` does to
//! it (the `<project>-` name prefix, the namespace, the references to renamed objects, the
//! webhook certificate's DNS names and CA injection), done with Helm expressions instead, so the
//! chart's default render is the kustomize build.
//!
//! The object is edited as a JSON value in which each Helm expression is a placeholder token,
//! emitted with webop's YAML emitter (the bytes controller-gen writes), and the tokens are then
//! replaced by the expressions: a value token by its expression, a key token's whole line by a
//! block (for entries that only exist under a condition).

use serde_json::{Map, Value};

/// Kinds kustomize's namespace transformer leaves without a namespace.
const CLUSTER_SCOPED: [&str; 6] = [
    "ClusterRole",
    "ClusterRoleBinding",
    "CustomResourceDefinition",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
    "Namespace",
];

/// The chart's Helm expressions, by what they name.
pub struct Helm<'a> {
    /// The prefix of the chart's named templates (`_helpers.tpl`): the project name.
    pub prefix: &'a str,
}

impl Helm<'_> {
    /// The name kustomize's `namePrefix` gives `name`: `<release fullname>-<name>`.
    pub fn resource_name(&self, name: &str) -> String {
        format!(
            "{{{{ include \"{}.resourceName\" (dict \"suffix\" \"{name}\" \"context\" $) }}}}",
            self.prefix
        )
    }
}

const NAMESPACE: &str = "{{ .Release.Namespace }}";

/// An object being turned into a template: its value, with tokens, and what they stand for.
struct Templated<'a> {
    helm: &'a Helm<'a>,
    /// `(token, expression)`: a scalar replaced in place.
    values: Vec<(String, String)>,
    /// `(token, lines)`: a mapping key whose line is replaced by these lines, indented as it.
    lines: Vec<(String, Vec<String>)>,
}

impl Templated<'_> {
    fn value(&mut self, expression: String) -> Value {
        let token = format!("webophelmvalue{}x", self.values.len());
        self.values.push((token.clone(), expression));
        Value::String(token)
    }

    /// Adds to `map` an entry that renders as `lines` (each a `key: value` line or a Helm
    /// action), indented as the map's entries.
    fn lines(&mut self, map: &mut Map<String, Value>, lines: Vec<String>) {
        let token = format!("webophelmlines{}x", self.lines.len());
        map.insert(token.clone(), Value::Null);
        self.lines.push((token, lines));
    }

    fn name(&mut self, name: &Value) -> Value {
        match name.as_str() {
            Some(name) => {
                let expression = self.helm.resource_name(name);
                self.value(expression)
            }
            None => name.clone(),
        }
    }

    fn namespace(&mut self) -> Value {
        self.value(NAMESPACE.to_owned())
    }

    /// `cert-manager.io/inject-ca-from` naming the webhook serving certificate, while
    /// cert-manager is enabled.
    fn inject_ca(&mut self, object: &mut Value) {
        let certificate = self.helm.resource_name("serving-cert");
        let metadata = object_mut(object, "metadata");
        let annotations = object_mut(metadata, "annotations");
        let map = annotations.as_object_mut().expect("an object");
        map.remove("cert-manager.io/inject-ca-from");
        self.lines(
            map,
            vec![
                "{{- if .Values.certManager.enabled }}".into(),
                format!("cert-manager.io/inject-ca-from: {NAMESPACE}/{certificate}"),
                "{{- end }}".into(),
            ],
        );
    }

    fn render(self, object: &Value) -> String {
        let mut text = crate::yaml::to_string(object);
        for (token, expression) in &self.values {
            text = text.replace(token, expression);
        }
        for (token, block) in &self.lines {
            let key = format!("{token}: null");
            text = text
                .lines()
                .flat_map(|line| match line.strip_suffix(&key) {
                    Some(indent) if indent.trim().is_empty() => block
                        .iter()
                        .map(|l| format!("{indent}{l}"))
                        .collect::<Vec<_>>(),
                    _ => vec![line.to_owned()],
                })
                .map(|line| line + "\n")
                .collect();
        }
        text
    }
}

/// `object[key]`, made an empty object when missing or null.
fn object_mut<'v>(object: &'v mut Value, key: &str) -> &'v mut Value {
    let map = object.as_object_mut().expect("an object");
    let entry = map.entry(key).or_insert(Value::Null);
    if !entry.is_object() {
        *entry = Value::Object(Map::new());
    }
    entry
}

/// `object` (one document of a `config/` file) as kustomize's default build renders it, in Helm
/// expressions. CRDs keep their name, and carry Helm's `keep` policy while `crd.keep` is set.
pub fn template(helm: &Helm, object: &Value) -> String {
    let mut object = object.clone();
    let mut t = Templated {
        helm,
        values: Vec::new(),
        lines: Vec::new(),
    };
    let kind = object["kind"].as_str().unwrap_or_default().to_owned();
    let object_name = object["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    {
        let metadata = object_mut(&mut object, "metadata");
        if kind != "CustomResourceDefinition" {
            let name = t.name(&metadata["name"]);
            metadata["name"] = name;
        }
        if !CLUSTER_SCOPED.contains(&kind.as_str()) {
            metadata["namespace"] = t.namespace();
        }
        if let Some(labels) = metadata.get_mut("labels").and_then(Value::as_object_mut) {
            if labels.contains_key("app.kubernetes.io/managed-by") {
                let service = t.value("{{ .Release.Service }}".into());
                labels.insert("app.kubernetes.io/managed-by".into(), service);
            }
            let chart =
                t.value("{{ .Chart.Name }}-{{ .Chart.Version | replace \"+\" \"_\" }}".into());
            labels.insert("helm.sh/chart".into(), chart);
            let instance = t.value("{{ .Release.Name }}".into());
            labels.insert("app.kubernetes.io/instance".into(), instance);
        }
    }
    match kind.as_str() {
        "RoleBinding" | "ClusterRoleBinding" => {
            let role = t.name(&object["roleRef"]["name"]);
            object["roleRef"]["name"] = role;
            for subject in object["subjects"].as_array_mut().into_iter().flatten() {
                if subject["kind"] == "ServiceAccount" {
                    subject["name"] = t.name(&subject["name"]);
                    subject["namespace"] = t.namespace();
                }
            }
        }
        "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration" => {
            for webhook in object["webhooks"].as_array_mut().into_iter().flatten() {
                let service = &mut webhook["clientConfig"]["service"];
                if service.is_object() {
                    service["name"] = t.name(&service["name"]);
                    service["namespace"] = t.namespace();
                }
            }
            t.inject_ca(&mut object);
        }
        "Service" => {
            // The ports the chart's values set: the manager's metrics and webhook servers'.
            let port = &mut object["spec"]["ports"][0];
            match object_name.as_str() {
                "controller-manager-metrics-service" => {
                    port["name"] = t.value(
                        "{{ if .Values.metrics.secure }}https{{ else }}http{{ end }}".into(),
                    );
                    port["port"] = t.value("{{ .Values.metrics.port }}".into());
                    port["targetPort"] = t.value("{{ .Values.metrics.port }}".into());
                }
                "webhook-service" => {
                    port["targetPort"] = t.value("{{ .Values.webhook.port }}".into());
                }
                _ => {}
            }
        }
        "Certificate" => {
            let service = helm.resource_name("webhook-service");
            object["spec"]["dnsNames"] = Value::Array(vec![
                t.value(format!("{service}.{NAMESPACE}.svc")),
                t.value(format!("{service}.{NAMESPACE}.svc.cluster.local")),
            ]);
            let issuer = t.name(&object["spec"]["issuerRef"]["name"]);
            object["spec"]["issuerRef"]["name"] = issuer;
        }
        "CustomResourceDefinition" => {
            let converts = object["spec"]["conversion"]["strategy"] == "Webhook";
            if converts {
                let service =
                    &mut object["spec"]["conversion"]["webhook"]["clientConfig"]["service"];
                service["name"] = t.name(&service["name"]);
                service["namespace"] = t.namespace();
                t.inject_ca(&mut object);
            }
            let metadata = object_mut(&mut object, "metadata");
            let annotations = object_mut(metadata, "annotations");
            t.lines(
                annotations.as_object_mut().expect("an object"),
                vec![
                    "{{- if .Values.crd.keep }}".into(),
                    "\"helm.sh/resource-policy\": keep".into(),
                    "{{- end }}".into(),
                ],
            );
        }
        _ => {}
    }
    t.render(&object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const HELM: Helm = Helm { prefix: "demo" };

    #[test]
    fn a_binding_names_the_prefixed_role_and_service_account_in_the_release_namespace() {
        let binding = json!({
            "apiVersion": "rbac.authorization.k8s.io/v1",
            "kind": "ClusterRoleBinding",
            "metadata": {"name": "manager-rolebinding"},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole", "name": "manager-role"},
            "subjects": [{"kind": "ServiceAccount", "name": "controller-manager", "namespace": "system"}],
        });
        let text = template(&HELM, &binding);
        assert!(text.contains(
            "  name: {{ include \"demo.resourceName\" (dict \"suffix\" \"manager-role\" \"context\" $) }}\n"
        ), "{text}");
        assert!(
            text.contains("  namespace: {{ .Release.Namespace }}\n"),
            "{text}"
        );
        assert!(
            !text.contains("metadata:\n  name: manager-rolebinding"),
            "{text}"
        );
        assert!(!text.contains("webophelm"), "{text}");
    }

    #[test]
    fn conditional_entries_take_the_indentation_of_their_map() {
        let crd = json!({
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": "things.demo.io", "annotations": {"webop.dev/version": "v0.1.0"}},
            "spec": {"group": "demo.io"},
        });
        let text = template(&HELM, &crd);
        assert!(
            text.contains("  annotations:\n    webop.dev/version: v0.1.0\n    {{- if .Values.crd.keep }}\n    \"helm.sh/resource-policy\": keep\n    {{- end }}\n"),
            "{text}"
        );
        assert!(text.contains("  name: things.demo.io\n"), "{text}");
        assert!(!text.contains("namespace"), "{text}");
    }
}

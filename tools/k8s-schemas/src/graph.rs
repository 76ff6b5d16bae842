//! The type graph, from k8s-openapi's schemars schemas: which types are reachable from the roots,
//! which of their properties refer to which type, and the Go and Rust names of each type.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

/// controller-gen's known types (`pkg/crd/known_types.go`), whose schemas it does not derive
/// from Go source; webop writes them by hand (`core/src/schema/k8s/known.rs`). References to them are
/// kept, their own schemas are not generated, and the graph does not go through them.
pub const KNOWN: &[&str] = &[
    "io.k8s.apimachinery.pkg.api.resource.Quantity",
    "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime",
    "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta",
    "io.k8s.apimachinery.pkg.apis.meta.v1.Time",
    "io.k8s.apimachinery.pkg.runtime.RawExtension",
    "io.k8s.apimachinery.pkg.util.intstr.IntOrString",
];

const DEFINITIONS: &str = "#/$defs/";

/// The types reachable from the roots, with their k8s-openapi definitions; known types are in
/// it (they are referenced) but not gone through.
pub fn reachable(roots: &[String], definitions: &BTreeMap<String, Value>) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut pending: Vec<String> = roots.to_vec();
    while let Some(name) = pending.pop() {
        if !seen.insert(name.clone()) || KNOWN.contains(&name.as_str()) {
            continue;
        }
        let definition = definitions
            .get(&name)
            .unwrap_or_else(|| panic!("no definition for {name}"));
        collect_refs(definition, &mut pending);
    }
    seen
}

fn collect_refs(schema: &Value, refs: &mut Vec<String>) {
    let Value::Object(object) = schema else {
        return;
    };
    if let Some(name) = reference(schema) {
        refs.push(name.to_owned());
    }
    for key in ["items", "additionalProperties"] {
        if let Some(inner) = object.get(key) {
            collect_refs(inner, refs);
        }
    }
    for property in object
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|p| p.values())
    {
        collect_refs(property, refs);
    }
}

/// The type a schemars schema refers to, if it is a reference.
pub fn reference(schema: &Value) -> Option<&str> {
    schema.get("$ref").map(|r| {
        r.as_str()
            .and_then(|r| r.strip_prefix(DEFINITIONS))
            .unwrap_or_else(|| panic!("unexpected reference {r}"))
    })
}

/// The Go import path and type name of the type with this schema name
/// (`io.k8s.api.core.v1.PodSpec` → `k8s.io/api/core/v1`, `PodSpec`).
pub fn go_type(name: &str) -> (String, &str) {
    let rest = name
        .strip_prefix("io.k8s.")
        .unwrap_or_else(|| panic!("not a Kubernetes schema name: {name}"));
    let (package, type_name) = rest.rsplit_once('.').expect("a package and a type");
    (format!("k8s.io/{}", package.replace('.', "/")), type_name)
}

/// The Rust path of the k8s-openapi type with this schema name.
pub fn rust_path(name: &str) -> String {
    let rest = name
        .strip_prefix("io.k8s.")
        .unwrap_or_else(|| panic!("not a Kubernetes schema name: {name}"));
    format!("k8s_openapi::{}", rest.replace('-', "_").replace('.', "::"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_and_rust_names() {
        assert_eq!(
            go_type("io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector"),
            (
                "k8s.io/apimachinery/pkg/apis/meta/v1".to_owned(),
                "LabelSelector"
            )
        );
        assert_eq!(
            rust_path("io.k8s.api.core.v1.PodSpec"),
            "k8s_openapi::api::core::v1::PodSpec"
        );
    }
}

//! The external kinds of a kubebuilder project that have webhooks or a controller (project-v4's
//! cert-manager Issuer and Certificate: `external: true`, a Go package of another module as
//! `path`). The Go project builds against that module's Go type; a webop project needs a Rust
//! type of the kind, and the Go project has no CRD of it to import. webop does not run Go, so
//! the import writes the type of a CRD that keeps the kind's spec and status whole
//! (`x-kubernetes-preserve-unknown-fields`) through `webop import crd --external`: the webhooks
//! admit and default every object of the kind (webop's defaulting patch leaves alone what a
//! type does not decode, as controller-runtime's does), the controller watches every object of
//! it, and `webop import crd --external --force` of the operator's CRD types its fields later.

use super::project_file::{ProjectFile, Resource};

/// The kinds with webhooks the project does not own, with their API group as the API server
/// names it: Kubernetes' (`core: true`, on k8s-openapi's type) and external ones (on the type
/// [`crd`] gives them), in PROJECT's order.
pub fn foreign_webhooks(project: &ProjectFile) -> Vec<(Resource, String)> {
    (project.resources.iter())
        .filter(|r| r.webhooks.is_some() && r.api.is_none())
        .filter_map(|r| {
            let group_domain = if r.core {
                crate::project::core_group(&r.group)?.api_group()
            } else if r.external {
                format!("{}.{}", r.group, r.domain)
            } else {
                return None;
            };
            Some((r.clone(), group_domain))
        })
        .collect()
}

/// The external kind's CRD file as controller-gen names it (`cert-manager.io_issuers.yaml`)
/// and its text: the kind, namespaced, its spec and status kept whole.
pub fn crd(resource: &Resource) -> (String, String) {
    let group = format!("{}.{}", resource.group, resource.domain);
    let kind = &resource.kind;
    let plural = resource
        .plural
        .clone()
        .unwrap_or_else(|| webop_attrs::names::crd_default_plural(kind));
    let singular = kind.to_ascii_lowercase();
    let from = resource.path.as_deref().unwrap_or("another module");
    let version = &resource.version;
    let text = format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: {plural}.{group}
spec:
  group: {group}
  names:
    kind: {kind}
    listKind: {kind}List
    plural: {plural}
    singular: {singular}
  scope: Namespaced
  versions:
  - name: {version}
    schema:
      openAPIV3Schema:
        description: {kind} of {from}, an external kind of the kubebuilder project.
        properties:
          metadata:
            type: object
          spec:
            type: object
            x-kubernetes-preserve-unknown-fields: true
          status:
            type: object
            x-kubernetes-preserve-unknown-fields: true
        type: object
    served: true
    storage: true
    subresources:
      status: {{}}
"
    );
    (format!("{group}_{plural}.yaml"), text)
}

/// The header `import crd` wrote on the types of the CRD file `file`, and the one the import
/// puts in its place: the CRD is no file of the user's, and the header says how to type it.
pub fn header(resource: &Resource, file: &str) -> (String, String) {
    let written = format!(
        "// Imported by `webop import crd` from\n\
         // {file}.\n\
         // This file is yours: `webop manifests` gives back that CustomResourceDefinition from\n\
         // these types until you change them.\n"
    );
    let from = resource.path.as_deref().unwrap_or("another module");
    let has = match (resource.controller, resource.webhooks.is_some()) {
        (true, true) => "has a controller and webhooks",
        (true, false) => "has a controller",
        _ => "has webhooks",
    };
    let instead = format!(
        "// Written by `webop import kubebuilder` for the external kind {} {}/{} (the Go\n\
         // project's {from}),\n\
         // which {has}: the Go project has no CRD of it,\n\
         // so its spec and status are kept whole as JSON. `webop import crd --external --force\n\
         // <its CRD>` (its operator publishes {file}) types them.\n\
         // `#[resource(skip)]`: no CRD of the project's, its operator installs it.\n",
        resource.kind, resource.group, resource.version
    );
    (written, instead)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn issuer() -> Resource {
        serde_saphyr::from_str(
            "domain: io\nexternal: true\ngroup: cert-manager\nkind: Issuer\n\
             path: github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1\nversion: v1\n\
             webhooks:\n  defaulting: true\n  webhookVersion: v1\n",
        )
        .unwrap()
    }

    #[test]
    fn an_external_kind_with_webhooks_is_served_in_its_group() {
        let project: ProjectFile = serde_saphyr::from_str(
            "domain: testproject.org\nlayout: [go.kubebuilder.io/v4]\nresources:\n\
             - domain: io\n  external: true\n  group: cert-manager\n  kind: Certificate\n  \
             controller: true\n  version: v1\n\
             - domain: io\n  external: true\n  group: cert-manager\n  kind: Issuer\n  \
             version: v1\n  webhooks: {defaulting: true}\n\
             - core: true\n  group: core\n  kind: Pod\n  version: v1\n  \
             webhooks: {defaulting: true}\n",
        )
        .unwrap();
        let foreign = foreign_webhooks(&project);
        let served: Vec<(&str, &str)> = (foreign.iter())
            .map(|(r, group)| (r.kind.as_str(), group.as_str()))
            .collect();
        assert_eq!(served, [("Issuer", "cert-manager.io"), ("Pod", "")]);
    }

    #[test]
    fn the_crd_keeps_spec_and_status_whole_and_is_named_as_controller_gen_names_it() {
        let (file, text) = crd(&issuer());
        assert_eq!(file, "cert-manager.io_issuers.yaml");
        assert!(text.contains("  name: issuers.cert-manager.io\n"), "{text}");
        assert!(
            text.contains("          spec:\n            type: object\n            x-kubernetes-preserve-unknown-fields: true\n"),
            "{text}"
        );
        let (written, instead) = header(&issuer(), &file);
        assert!(written.contains("// cert-manager.io_issuers.yaml.\n"));
        assert!(instead.contains("github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"));
        assert!(instead.contains("// which has webhooks: "), "{instead}");
    }

    #[test]
    fn the_header_of_an_external_kind_with_a_controller_says_so() {
        let certificate = Resource {
            kind: "Certificate".into(),
            controller: true,
            webhooks: None,
            ..issuer()
        };
        let (file, _) = crd(&certificate);
        assert_eq!(file, "cert-manager.io_certificates.yaml");
        let (_, instead) = header(&certificate, &file);
        assert!(
            instead.contains("// which has a controller: the Go project has no CRD of it"),
            "{instead}"
        );
    }
}

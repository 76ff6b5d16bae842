//! The sections of `config/default/kustomization.yaml` that `init` writes commented out and
//! `create webhook` uncomments, as kubebuilder's kustomize plugin does: one text for both, so the
//! template and the edit cannot drift apart.
//!
//! kubebuilder uncomments by dropping the `#` that starts each line of a block, which is why
//! its replacements are indented by one space; webop keeps that layout, so a kubebuilder user
//! sees the file they know.

/// The kustomization of `config/default/`, whose webhook sections `create webhook` enables.
pub const DEFAULT_KUSTOMIZATION: &str = "config/default/kustomization.yaml";

/// One replacement pair (namespace, then name) of the CA-injection annotation on `$kind`.
macro_rules! ca_injection {
    ($kind:literal, $which:literal) => {
        concat!(
            " - source: # Uncomment the following block if you have ",
            $which,
            "
     kind: Certificate
     group: cert-manager.io
     version: v1
     name: serving-cert # This name should match the one in certificate-webhook.yaml
     fieldPath: .metadata.namespace # Namespace of the certificate CR
   targets:
     - select:
         kind: ",
            $kind,
            "
       fieldPaths:
         - .metadata.annotations.[cert-manager.io/inject-ca-from]
       options:
         delimiter: '/'
         index: 0
         create: true
 - source:
     kind: Certificate
     group: cert-manager.io
     version: v1
     name: serving-cert
     fieldPath: .metadata.name
   targets:
     - select:
         kind: ",
            $kind,
            "
       fieldPaths:
         - .metadata.annotations.[cert-manager.io/inject-ca-from]
       options:
         delimiter: '/'
         index: 1
         create: true"
        )
    };
}

/// A block as it reads once enabled; `init` writes it with a `#` before each line.
pub struct Block {
    pub name: &'static str,
    pub text: &'static str,
}

/// `- ../webhook`: the webhook configurations and Service.
pub const WEBHOOK_RESOURCE: Block = Block {
    name: "webhook",
    text: "- ../webhook",
};

/// `- ../certmanager`: the Issuer and the webhook server's Certificate.
pub const CERTMANAGER_RESOURCE: Block = Block {
    name: "certmanager",
    text: "- ../certmanager",
};

/// The patch that mounts the certificate and opens the webhook port.
pub const MANAGER_WEBHOOK_PATCH: Block = Block {
    name: "manager_webhook_patch",
    text: "- path: manager_webhook_patch.yaml
  target:
    kind: Deployment",
};

/// The key of the replacements below.
pub const REPLACEMENTS: Block = Block {
    name: "replacements",
    text: "replacements:",
};

/// The webhook Service's name and namespace into the Certificate's DNS names: any webhook.
pub const SERVICE_DNS_NAMES: Block = Block {
    name: "service_dns_names",
    text: " - source: # Uncomment the following block if you have any webhook
     kind: Service
     version: v1
     name: webhook-service
     fieldPath: .metadata.name # Name of the service
   targets:
     - select:
         kind: Certificate
         group: cert-manager.io
         version: v1
         name: serving-cert
       fieldPaths:
         - .spec.dnsNames.0
         - .spec.dnsNames.1
       options:
         delimiter: '.'
         index: 0
         create: true
 - source:
     kind: Service
     version: v1
     name: webhook-service
     fieldPath: .metadata.namespace # Namespace of the service
   targets:
     - select:
         kind: Certificate
         group: cert-manager.io
         version: v1
         name: serving-cert
       fieldPaths:
         - .spec.dnsNames.0
         - .spec.dnsNames.1
       options:
         delimiter: '.'
         index: 1
         create: true",
};

/// cert-manager's CA-injection annotation on the ValidatingWebhookConfiguration.
pub const VALIDATING_CA_INJECTION: Block = Block {
    name: "validating_ca_injection",
    text: ca_injection!(
        "ValidatingWebhookConfiguration",
        "a ValidatingWebhook (--programmatic-validation)"
    ),
};

/// cert-manager's CA-injection annotation on the MutatingWebhookConfiguration.
pub const MUTATING_CA_INJECTION: Block = Block {
    name: "mutating_ca_injection",
    text: ca_injection!(
        "MutatingWebhookConfiguration",
        "a DefaultingWebhook (--defaulting)"
    ),
};

/// The Certificate's namespace into the CA-injection annotation of each CRD with a conversion
/// webhook: the CRDs are the targets inserted above the marker.
pub const CONVERSION_CA_NAMESPACE: Block = Block {
    name: "conversion_ca_namespace",
    text: " - source: # Uncomment the following block if you have a ConversionWebhook (--conversion)
     kind: Certificate
     group: cert-manager.io
     version: v1
     name: serving-cert
     fieldPath: .metadata.namespace # Namespace of the certificate CR
   targets: # The CRDs with a conversion webhook; `webop create webhook --conversion` adds them above the next line.",
};

/// The Certificate's name into the same annotation.
pub const CONVERSION_CA_NAME: Block = Block {
    name: "conversion_ca_name",
    text: " - source:
     kind: Certificate
     group: cert-manager.io
     version: v1
     name: serving-cert
     fieldPath: .metadata.name
   targets: # The CRDs with a conversion webhook; `webop create webhook --conversion` adds them above the next line.",
};

/// The marker above which each converted CRD's namespace target goes.
pub const CONVERSION_CA_NAMESPACE_MARKER: &str = "crdkustomizecainjectionns";
/// The marker above which each converted CRD's name target goes.
pub const CONVERSION_CA_NAME_MARKER: &str = "crdkustomizecainjectionname";

/// The target of the CRD `crd_name` in a conversion CA-injection replacement: `index` 0 takes
/// the Certificate's namespace, 1 its name (the annotation is `<namespace>/<name>`).
pub fn conversion_ca_target(crd_name: &str, index: u8) -> String {
    format!(
        "     - select:
         kind: CustomResourceDefinition
         name: {crd_name}
       fieldPaths:
         - .metadata.annotations.[cert-manager.io/inject-ca-from]
       options:
         delimiter: '/'
         index: {index}
         create: true"
    )
}

/// Every block `init` writes commented out.
pub const BLOCKS: &[&Block] = &[
    &WEBHOOK_RESOURCE,
    &CERTMANAGER_RESOURCE,
    &MANAGER_WEBHOOK_PATCH,
    &REPLACEMENTS,
    &SERVICE_DNS_NAMES,
    &VALIDATING_CA_INJECTION,
    &MUTATING_CA_INJECTION,
    &CONVERSION_CA_NAMESPACE,
    &CONVERSION_CA_NAME,
];

/// `text` as `init` writes it: each line behind a `#`.
pub fn commented(text: &str) -> String {
    text.lines()
        .map(|line| format!("#{line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

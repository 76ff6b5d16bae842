//! The marker names `import kubebuilder` knows: the catalogue's (every schema marker, spelled
//! as controller-gen spells it), the kind-level ones webop-attrs has attributes for, the ones
//! that decide a field's presence, and those that say nothing about CRDs or roles.

/// Kind-level markers on a root type (`#[resource]`, `#[subresource]`, `#[printcolumn]`, ...).
pub const KIND: &[&str] = &[
    "kubebuilder:object:root",
    "kubebuilder:resource",
    "kubebuilder:subresource:status",
    "kubebuilder:subresource:scale",
    "kubebuilder:printcolumn",
    "kubebuilder:storageversion",
    "kubebuilder:unservedversion",
    "kubebuilder:skipversion",
    "kubebuilder:deprecatedversion",
    "kubebuilder:selectablefield",
    "kubebuilder:metadata",
    "kubebuilder:skip",
];

/// Markers deciding whether a field is required.
pub const PRESENCE: &[&str] = &[
    "kubebuilder:validation:Optional",
    "kubebuilder:validation:Required",
    "optional",
    "required",
    "k8s:optional",
    "k8s:required",
];

/// `+kubebuilder:validation:Schemaless`: no schema inferred (`#[validate(schemaless)]`).
pub const SCHEMALESS: &str = "kubebuilder:validation:Schemaless";

/// Markers of other generators (deepcopy, docs, scaffolding, apply configurations, clients)
/// and those read elsewhere (RBAC, webhooks, package names): nothing for a type's schema.
pub const IGNORED: &[&str] = &[
    "kubebuilder:object:generate",
    "kubebuilder:docs-gen",
    "kubebuilder:scaffold",
    "kubebuilder:ac:generate",
    "kubebuilder:ac:output:package",
    "kubebuilder:rbac",
    "kubebuilder:webhook",
    "kubebuilder:webhookconfiguration",
    "kubebuilder:skipclient",
    "groupName",
    "versionName",
];

/// The prefix of the `validation:items:<Marker>` markers.
pub const ITEMS_PREFIX: &str = "kubebuilder:validation:items:";

/// Every name a marker is matched against, longest first wins.
pub fn names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = webop_markers::CATALOGUE
        .iter()
        .filter(|spec| !spec.go.contains('<'))
        .map(|spec| spec.go.trim_start_matches('+'))
        .collect();
    names.extend(KIND);
    names.extend(PRESENCE);
    names.push(SCHEMALESS);
    names.extend(IGNORED);
    names
}

/// A marker controller-gen does not know (a `kubebuilder:` one), which the import refuses.
pub fn is_generator_marker(text: &str) -> bool {
    text.starts_with("kubebuilder:")
}

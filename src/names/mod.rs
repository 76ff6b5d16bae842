//! Naming rules shared by the CLI and CRD assembly.

/// The plural resource name of a kind, as kubebuilder and controller-gen derive it:
/// flect's `Pluralize` of the lower-cased kind (`WebApp` → `webapps`, `Busybox` → `busyboxes`).
pub fn plural(kind: &str) -> String {
    let _ = kind;
    unimplemented!("the yaml branch fills this in")
}

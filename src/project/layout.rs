//! kubebuilder's multigroup layout (`multigroup: true`) in webop's shape: where a group's files
//! go, and the Rust paths that name them.
//!
//! A single-group project keeps each version's kinds in `api/src/<version>/` and each
//! controller in `src/controller/`; two groups may then not have kinds of the same name. The
//! multigroup layout puts the group in between, as kubebuilder's `api/<group>/<version>` and
//! `internal/controller/<group>/`: templates are written for the single-group tree and
//! [`multigroup_path`] moves a group's file, so both layouts come from one template tree and
//! `edit --multigroup` knows where each file goes.

use super::validate;

/// The Rust module of an API group (`ship`, `sea-creatures` → `sea_creatures`, `foo.policy` →
/// `foo_policy`): its directory under `api/src/`, `src/controller/` and `src/webhook/`.
pub fn group_module(group: &str) -> String {
    let module: String = group
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if module.starts_with(|c: char| c.is_ascii_digit()) {
        format!("group_{module}")
    } else if validate::is_rust_keyword(&module) {
        format!("{module}_group")
    } else {
        module
    }
}

/// Where a file of a kind or version of `group` goes in a multigroup project, from `path`, where
/// it goes in a single-group one. Files of no group (the project's) stay where they are.
///
/// - `api/src/<version>/...` → `api/src/<group>/<version>/...`
/// - `src/controller/<kind>_controller.rs` → `src/controller/<group>/<kind>_controller.rs`
/// - `src/webhook/<version>/...` → `src/webhook/<group>/<version>/...`
/// - `tests/<file>` → `tests/<group>_<file>` (Cargo builds each file of `tests/` as a crate)
/// - `config/rbac/<kind>_<role>.yaml` → `config/rbac/<group>_<kind>_<role>.yaml`, and
///   `config/crd/patches/webhook_in_<plural>.yaml` → `webhook_in_<group>_<plural>.yaml`, as
///   kubebuilder names them.
pub fn multigroup_path(path: &str, group: &str) -> String {
    let module = group_module(group);
    for dir in ["api/src/", "src/controller/", "src/webhook/"] {
        if let Some(rest) = path.strip_prefix(dir) {
            return format!("{dir}{module}/{rest}");
        }
    }
    if let Some(rest) = path.strip_prefix("tests/") {
        return format!("tests/{module}_{rest}");
    }
    if let Some(rest) = path.strip_prefix("config/rbac/") {
        return format!("config/rbac/{group}_{rest}");
    }
    if let Some(rest) = path.strip_prefix("config/crd/patches/webhook_in_") {
        return format!("config/crd/patches/webhook_in_{group}_{rest}");
    }
    path.to_owned()
}

/// [`multigroup_path`] in a multigroup project, `path` itself in a single-group one.
pub fn place(path: &str, group: &str, multigroup: bool) -> String {
    if multigroup {
        multigroup_path(path, group)
    } else {
        path.to_owned()
    }
}

/// The prefix of a kind's files and names that kubebuilder qualifies by group in a multigroup
/// project (its roles, its conversion patch): `<kind>` or `<group>_<kind>`, with `separator`.
pub fn qualified(name: &str, group: &str, multigroup: bool, separator: char) -> String {
    if multigroup {
        format!("{group}{separator}{name}")
    } else {
        name.to_owned()
    }
}

/// The Rust path of a version's module inside the API crate (and of its webhooks inside the
/// operator's `webhook` module): `v1`, or `ship::v1` in a multigroup project.
pub fn version_module(group: &str, version: &str, multigroup: bool) -> String {
    if multigroup {
        format!("{}::{version}", group_module(group))
    } else {
        version.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_modules_are_identifiers() {
        assert_eq!(group_module("ship"), "ship");
        assert_eq!(group_module("sea-creatures"), "sea_creatures");
        assert_eq!(group_module("foo.policy"), "foo_policy");
        assert_eq!(group_module("type"), "type_group");
        assert_eq!(group_module("3d"), "group_3d");
    }

    #[test]
    fn a_groups_files_move_under_it() {
        let cases = [
            (
                "api/src/v1/frigate_types.rs",
                "api/src/ship/v1/frigate_types.rs",
            ),
            ("api/src/v1/mod.rs", "api/src/ship/v1/mod.rs"),
            (
                "src/controller/frigate_controller.rs",
                "src/controller/ship/frigate_controller.rs",
            ),
            ("src/webhook/v1/mod.rs", "src/webhook/ship/v1/mod.rs"),
            (
                "tests/frigate_controller.rs",
                "tests/ship_frigate_controller.rs",
            ),
            (
                "config/rbac/frigate_editor_role.yaml",
                "config/rbac/ship_frigate_editor_role.yaml",
            ),
            (
                "config/crd/patches/webhook_in_frigates.yaml",
                "config/crd/patches/webhook_in_ship_frigates.yaml",
            ),
            (
                "config/samples/ship_v1_frigate.yaml",
                "config/samples/ship_v1_frigate.yaml",
            ),
        ];
        for (single, multi) in cases {
            assert_eq!(multigroup_path(single, "ship"), multi);
            assert_eq!(place(single, "ship", false), single);
        }
        assert_eq!(
            multigroup_path("config/rbac/kraken_admin_role.yaml", "sea-creatures"),
            "config/rbac/sea-creatures_kraken_admin_role.yaml"
        );
    }

    #[test]
    fn version_modules_name_the_group() {
        assert_eq!(version_module("ship", "v1", false), "v1");
        assert_eq!(
            version_module("sea-creatures", "v1", true),
            "sea_creatures::v1"
        );
        assert_eq!(qualified("frigate", "ship", true, '-'), "ship-frigate");
        assert_eq!(qualified("frigate", "ship", false, '-'), "frigate");
    }
}

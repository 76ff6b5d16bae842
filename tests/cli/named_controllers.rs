//! kubebuilder's named controllers: `create api --controller-name` gives a kind a second
//! controller (its own module, registration, RBAC and test), recorded as kubebuilder records it.

use crate::support;

use support::{
    CACHE, build_test_offline_and_lint, gvk_command, init_webapp, manifests, project_dir, read,
    refused, run_ok, tree,
};

/// `create api --resource=false --controller-name NAME` of the `Cache` kind.
fn another_controller(name: &str) -> Vec<&str> {
    let mut args = CACHE.to_vec();
    args.extend(["--resource=false", "--controller-name", name]);
    args
}

#[test]
fn a_second_named_controller_is_a_module_of_its_own_registered_beside_the_first() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    run_ok(&dir, CACHE);
    let first = read(&dir, "src/controller/cache_controller.rs");
    let report = run_ok(&dir, &another_controller("cache-audit"));
    assert!(
        report.contains("created src/controller/cache_audit_controller.rs"),
        "{report}"
    );
    assert!(
        report.contains("created tests/cache_audit_controller.rs"),
        "{report}"
    );
    // The kind's files are the user's already: only the new controller's are written.
    assert!(!report.contains("api/src/v1/cache_types.rs"), "{report}");
    assert_eq!(read(&dir, "src/controller/cache_controller.rs"), first);

    let project = read(&dir, "PROJECT");
    assert!(
        project.contains("  controllers:\n  - name: cache\n  - name: cache-audit\n  domain:"),
        "kubebuilder's migration of `controller: true` to named controllers:\n{project}"
    );
    assert!(!project.contains("controller: true"), "{project}");
    let audit = read(&dir, "src/controller/cache_audit_controller.rs");
    assert!(
        audit.starts_with("//! The `cache-audit` controller of Cache."),
        "{audit}"
    );
    assert!(
        audit.contains(r#"pub const NAME: &str = "cache-audit";"#),
        "{audit}"
    );
    assert!(
        audit.contains(r#"resources = ["caches"]"#),
        "its own RBAC: {audit}"
    );
    let registry = read(&dir, "src/controller/mod.rs");
    assert!(
        registry.contains("pub mod cache_audit_controller;"),
        "{registry}"
    );
    assert!(
        registry.contains("cache_audit_controller::run(manager.clone())"),
        "{registry}"
    );
    let test = read(&dir, "tests/cache_audit_controller.rs");
    assert!(
        test.contains("controller::cache_audit_controller;"),
        "{test}"
    );

    manifests(&dir);
    let role = read(&dir, "config/rbac/role.yaml");
    assert_eq!(
        role.matches("- caches\n").count(),
        1,
        "rules merged:\n{role}"
    );
    build_test_offline_and_lint(&dir);
}

#[test]
fn the_first_controller_may_be_named_and_delete_api_takes_every_controller() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let initial = tree(&dir);
    let mut named = CACHE.to_vec();
    named.extend(["--controller-name", "cache-keeper"]);
    let report = run_ok(&dir, &named);
    assert!(
        report.contains("created src/controller/cache_keeper_controller.rs"),
        "{report}"
    );
    assert!(read(&dir, "PROJECT").contains("  controllers:\n  - name: cache-keeper\n"));
    run_ok(&dir, &another_controller("cache-audit"));
    let mut delete = CACHE.to_vec();
    delete[0] = "delete";
    let report = run_ok(&dir, &delete);
    assert!(
        report.contains("deleted src/controller/cache_audit_controller.rs")
            && report.contains("deleted tests/cache_keeper_controller.rs"),
        "{report}"
    );
    assert_eq!(tree(&dir), initial);
}

#[test]
fn bad_controller_names_are_refused_naming_the_value_and_the_rule() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    run_ok(&dir, CACHE);
    run_ok(&dir, &another_controller("cache-audit"));
    let cases: &[(&[&str], &str)] = &[
        (
            &["--controller-name", "Cache_Audit"],
            "invalid controller name \"Cache_Audit\": a controller name must be a DNS-1035 label",
        ),
        (
            &["--controller-name", "cache-audit"],
            "invalid controller name \"cache-audit\": Cache v1 already has a controller named \"cache-audit\"",
        ),
        (
            &["--controller-name", "cacheaudit"],
            "differs from Cache v1's controller \"cache-audit\" only in '-'",
        ),
        (
            &["--controller-name", "x", "--controller=false"],
            "it goes with --controller=true",
        ),
    ];
    for (extra, expected) in cases {
        let mut args = CACHE.to_vec();
        args.push("--resource=false");
        args.extend_from_slice(extra);
        let stderr = refused(&dir, &args);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
    // Another kind whose controller module would be the named controller's.
    let frigate = gvk_command(
        &["create", "api"],
        ["app", "v1", "Frigate"],
        &["--controller-name", "cache-audit"],
    );
    let stderr = refused(&dir, &frigate);
    assert!(
        stderr.contains("its module would be cache_audit_controller.rs, the module of Cache v1's controller \"cache-audit\""),
        "{stderr}"
    );
}

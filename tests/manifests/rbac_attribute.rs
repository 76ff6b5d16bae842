//! Where `#[rbac]` goes and what it leaves: on a struct, a method and a function, by its prelude
//! name or its path, with lists or `;`-separated strings, the item compiles and works as written
//! (the macro checks the rule and returns the item; `webop manifests` reads the rules from
//! source). Compiled here rather than as a trybuild pass case: trybuild would build its own copy
//! of the runtime's dependencies to run one case, where its compile-fail cases only check them.

use webop::prelude::*;

#[rbac(groups = ["app.example.com"], resources = ["webapps"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = ["app.example.com"], resources = ["webapps/status"], verbs = ["get", "update", "patch"])]
#[rbac(groups = [""], resources = ["services"], verbs = "get;list;watch;create;update;patch;delete")]
#[rbac(groups = "core", resources = "configmaps;secrets", resource_names = ["app-config"], verbs = ["get"])]
#[rbac(urls = ["/metrics"], verbs = ["get"])]
#[rbac(groups = [""], resources = ["configmaps"], verbs = ["get"], namespace = "system", role_name = "config-reader")]
#[rbac(groups = ["batch"], resources = ["jobs"], verbs = ["*"])]
struct Reconciler {
    name: String,
}

impl Reconciler {
    #[webop::prelude::rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get"])]
    fn reconcile(&self) -> usize {
        self.name.len()
    }
}

#[webop::prelude::rbac(groups = ["coordination.k8s.io"], resources = ["leases"], verbs = ["get", "create", "update"])]
fn reconciler() -> Reconciler {
    Reconciler {
        name: "webapp".into(),
    }
}

#[test]
fn items_with_rbac_rules_compile_and_work_as_written() {
    assert_eq!(reconciler().reconcile(), 6);
}

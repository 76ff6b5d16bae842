use webop::prelude::*;

#[rbac(groups = ["app.example.com"], resources = ["webapps"], verbs = ["get", "list", "watch", "create", "update", "patch", "delete"])]
#[rbac(groups = ["app.example.com"], resources = ["webapps/status"], verbs = ["get", "update", "patch"])]
#[rbac(groups = [""], resources = ["services"], verbs = "get;list;watch;create;update;patch;delete")]
#[rbac(groups = "core", resources = "configmaps;secrets", resource_names = ["app-config"], verbs = ["get"])]
#[rbac(urls = ["/metrics"], verbs = ["get"])]
#[rbac(groups = [""], resources = ["configmaps"], verbs = ["get"], namespace = "system", role_name = "config-reader")]
#[rbac(groups = ["batch"], resources = ["jobs"], verbs = ["*"])]
pub struct Reconciler {
    pub name: String,
}

impl Reconciler {
    #[webop::prelude::rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get"])]
    pub fn reconcile(&self) -> usize {
        self.name.len()
    }
}

#[webop::prelude::rbac(groups = ["coordination.k8s.io"], resources = ["leases"], verbs = ["get", "create", "update"])]
fn main() {
    let reconciler = Reconciler { name: "webapp".into() };
    assert_eq!(reconciler.reconcile(), 6);
}

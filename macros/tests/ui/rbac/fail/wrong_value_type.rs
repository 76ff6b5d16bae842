use webop::prelude::*;

#[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get"], namespace = 42)]
struct Reconciler;

fn main() {}

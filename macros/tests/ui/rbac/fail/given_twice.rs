use webop::prelude::*;

#[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get"], verbs = ["list"])]
struct Reconciler;

fn main() {}

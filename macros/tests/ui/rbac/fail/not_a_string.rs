use webop::prelude::*;

#[rbac(groups = ["apps"], resources = ["deployments"], verbs = [get, "list"])]
struct Reconciler;

fn main() {}

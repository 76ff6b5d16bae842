use webop::prelude::*;

#[rbac(groups = ["apps"], resources = ["deployments"])]
struct Reconciler;

fn main() {}

use webop::prelude::*;

#[rbac(groups = ["apps"], resources = ["deployments"], verb = ["get"])]
struct Reconciler;

fn main() {}

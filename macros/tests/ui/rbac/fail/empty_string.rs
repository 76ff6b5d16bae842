use webop::prelude::*;

#[rbac(groups = ["apps"], resources = ["deployments", ""], verbs = "get;")]
struct Reconciler;

fn main() {}

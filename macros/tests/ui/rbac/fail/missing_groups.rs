use webop::prelude::*;

#[rbac(resources = ["pods"], verbs = ["get"])]
struct Reconciler;

fn main() {}

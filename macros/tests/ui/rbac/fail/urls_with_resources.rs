use webop::prelude::*;

#[rbac(groups = [""], resources = ["pods"], urls = ["/metrics"], verbs = ["get"])]
struct Reconciler;

fn main() {}

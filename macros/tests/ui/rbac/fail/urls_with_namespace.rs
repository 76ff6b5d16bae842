use webop::prelude::*;

#[rbac(urls = ["/metrics"], verbs = ["get"], namespace = "system")]
struct Reconciler;

fn main() {}

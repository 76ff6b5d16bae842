// Every mistake of a #[webhook] is reported in one compile, each at its value.
use webop::prelude::*;

#[webhook(
    path = "validate-webapps",
    mutating = false,
    failure_policy = "sometimes",
    side_effects = "Some",
    timeout_seconds = 60,
    groups = ["app.example.com"],
    resources = ["webapps"],
    verbs = ["create", "patch"],
    versions = ["v1"],
    name = "vwebapp.kb.io"
)]
pub struct Validator;

#[webhook_configuration(mutating)]
pub struct Named;

fn main() {}

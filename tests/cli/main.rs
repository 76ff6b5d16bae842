//! The `webop` commands on a project's files: what each writes and refuses, and what sequences of
//! them keep.

#[path = "../helm_support/mod.rs"]
mod helm_support;
#[path = "../support/mod.rs"]
mod support;
#[path = "../support/webhook_project.rs"]
mod webhook_project;

mod cli;
mod cli_layout;
mod cli_sequences;
mod command_examples;
mod command_sequences;
mod core_webhooks;
mod create_webhook;
mod delete_api;
mod delete_webhook;
mod deploy_image;
mod edit;
mod edit_autoupdate;
mod edit_grafana;
mod edit_multigroup;
mod external_webhooks;
mod helm_chart;
mod kustomize;
mod multigroup;
mod named_controllers;
mod namespaced_project;
mod scaffold_lock;
mod upgrade;
mod upgrade_bases;
mod upgrade_multigroup;
mod validation;
// `webop validate` is a feature of the CLI.
#[cfg(feature = "validate")]
mod validate_command;

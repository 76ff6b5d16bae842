//! Generated projects built and tested as users build them: the goldens, the webhook project,
//! colliding kind names, the image's build context and the tutorial.

#[path = "../support/controller_gen.rs"]
mod controller_gen;
#[path = "../support/mod.rs"]
mod support;
#[path = "../support/webhook_project.rs"]
mod webhook_project;

mod colliding_kinds;
mod create_webhook_built;
mod cronjob_golden;
mod golden;
mod image_context;
mod plain_project;
mod tutorial;

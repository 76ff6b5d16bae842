//! The webhooks of {{ kind }} {{ version }}, for you to fill in (kubebuilder's
//! internal/webhook/{{ version }}/{{ kind_lower }}_webhook.go). `make manifests` turns their
//! `#[webhook]` attributes into config/webhook/manifests.yaml; `setup` registers them with the
//! manager (src/webhook/mod.rs).
//!
//! This file is yours: a later `webop create webhook` for {{ kind }} {{ version }} adds the other
//! webhook type above the `+webop:scaffold:` lines and leaves the rest alone.

use webop::prelude::*;
use webop::webhook::Webhooks;

use {{ api_crate }}::{{ version_module }}::{{ kind }};

/// Registers the webhooks of {{ kind }} {{ version }}.
pub fn setup(mut webhooks: Webhooks) -> Webhooks {
    // +webop:scaffold:webhookregistrations
    webhooks
}

// TODO(user): EDIT THIS FILE! THIS IS SCAFFOLDING FOR YOU TO OWN!
// +webop:scaffold:webhooks

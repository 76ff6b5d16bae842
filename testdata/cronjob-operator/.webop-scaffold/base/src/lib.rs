//! cronjob-operator: the controllers, as a library that `src/main.rs` (the manager) runs and
//! `tests/` exercises.

pub mod controller;
pub mod webhook;
// +webop:scaffold:modules

//! webapp-operator: the controllers, as a library that `src/main.rs` (the manager) runs and
//! `tests/` exercises.

pub mod controller;
// +webop:scaffold:modules

//! The house rules the code review would otherwise have to remember: modules that depend one
//! way, hand-written files short enough to read at a sitting (docs/CONTRIBUTING.md, "Style"), and
//! test targets where CI finds them.

mod file_lengths;
mod module_graph;
mod test_targets;
mod workspace;

//! The house rules the code review would otherwise have to remember: modules that depend one
//! way, and hand-written files short enough to read at a sitting (docs/CONTRIBUTING.md, "Style").

mod file_lengths;
mod module_graph;
mod workspace;

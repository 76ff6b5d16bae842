//! The `webop` command line: clap definitions and one thin module per command.

use std::process::ExitCode;

/// Runs the command line of `std::env::args`.
pub fn main() -> ExitCode {
    ExitCode::SUCCESS
}

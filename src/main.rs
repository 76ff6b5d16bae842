fn main() -> std::process::ExitCode {
    webop_cli::cli::main()
}

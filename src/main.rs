fn main() -> std::process::ExitCode {
    webop::cli::main()
}

//! The `User-Agent` of the manager's requests, shaped as client-go's
//! (`<binary>/<version> (<os>/<arch>) kubernetes/<commit>`), so that audit logs and API Priority
//! and Fairness tell this operator's requests from anyone else's.

/// `<binary>/v<webop version> (<os>/<arch>) webop/v<webop version>`: the binary's file name as
/// client-go takes it from `os.Args[0]`, the runtime's version in client-go's `v`-prefixed form,
/// and Go's names for the platform.
pub fn user_agent() -> String {
    let binary = std::env::args_os()
        .next()
        .as_deref()
        .and_then(|path| std::path::Path::new(path).file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "unknown".to_owned());
    format_user_agent(&binary, std::env::consts::OS, std::env::consts::ARCH)
}

fn format_user_agent(binary: &str, os: &str, arch: &str) -> String {
    let version = env!("CARGO_PKG_VERSION");
    // A header value is visible ASCII: anything else in a file name becomes `_`.
    let binary: String = binary
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '/' {
                c
            } else {
                '_'
            }
        })
        .collect();
    format!(
        "{binary}/v{version} ({os}/{}) webop/v{version}",
        go_arch(arch)
    )
}

/// Rust's name of a CPU architecture as Go's `GOARCH` spells it.
fn go_arch(arch: &str) -> &str {
    match arch {
        "x86_64" => "amd64",
        "x86" => "386",
        "aarch64" => "arm64",
        "powerpc64" => "ppc64le",
        "loongarch64" => "loong64",
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shaped_as_client_gos() {
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            format_user_agent("webapp-operator", "linux", "x86_64"),
            format!("webapp-operator/v{version} (linux/amd64) webop/v{version}")
        );
        assert_eq!(
            format_user_agent("my manager", "linux", "aarch64"),
            format!("my_manager/v{version} (linux/arm64) webop/v{version}")
        );
        assert!(http::HeaderValue::from_str(&user_agent()).is_ok());
    }
}

//! Which file is the `crdgen` a build just made. Cargo hard-links every package's `crdgen`
//! example to the same `<target>/debug/examples/crdgen`, so with a shared target directory
//! (`CARGO_TARGET_DIR`) another project's build (`cargo test` builds examples too) can replace
//! that file between our build and its run, and `webop manifests` would print the other
//! project's CRDs. The build's own file, `examples/crdgen-<hash>`, is the one the shared name
//! links to right after the build: it is looked up at once and run instead. (Two projects of
//! the same package names and layout get the same hash too, as Cargo hashes a member's path
//! within its workspace: those cannot share a target directory while they build.)

use std::path::{Path, PathBuf};

use serde_json::Value;

/// The executable of the `crdgen` example of `package`, from the JSON messages of `cargo build
/// --message-format=json` (one object a line): the build's own file where it can be found, else
/// the one the message names.
pub(super) fn executable(messages: &[u8], package: &str) -> Option<PathBuf> {
    let message = artifact_message(messages, package)?;
    let uplifted = PathBuf::from(message["executable"].as_str()?);
    Some(own_file(&uplifted).unwrap_or(uplifted))
}

/// The `compiler-artifact` message of `package`'s `crdgen` example.
fn artifact_message(messages: &[u8], package: &str) -> Option<Value> {
    String::from_utf8_lossy(messages)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|message| message["reason"] == "compiler-artifact")
        .filter(|message| message["target"]["name"] == "crdgen")
        .find(|message| {
            // `path+file:///.../api#webapp-operator-api@0.1.0`, or `...#0.1.0` when the
            // directory is named as the package.
            message["package_id"].as_str().is_some_and(|id| {
                id.rsplit_once('#').is_some_and(|(path, version)| {
                    version.starts_with(&format!("{package}@"))
                        || (!version.contains('@') && path.ends_with(&format!("/{package}")))
                })
            })
        })
}

/// Beside `uplifted` (`.../examples/crdgen`), the `crdgen-<hash>` it is a hard link of.
#[cfg(unix)]
fn own_file(uplifted: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let linked = std::fs::metadata(uplifted).ok()?;
    let prefix = format!("{}-", uplifted.file_name()?.to_str()?);
    std::fs::read_dir(uplifted.parent()?)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| name.starts_with(&prefix) && !name.ends_with(".d"))
        })
        .map(|entry| entry.path())
        .find(|path| {
            std::fs::metadata(path)
                .is_ok_and(|file| file.dev() == linked.dev() && file.ino() == linked.ino())
        })
}

/// Elsewhere the shared file is run (Cargo copies rather than links there).
#[cfg(not(unix))]
fn own_file(_: &Path) -> Option<PathBuf> {
    None
}

#[cfg(test)]
mod tests {
    use super::executable;

    #[test]
    fn the_crdgen_of_the_api_package_is_found_among_the_build_messages() {
        let messages = concat!(
            r#"{"reason":"compiler-artifact","package_id":"path+file:///p/api#shop-api@0.1.0","target":{"name":"shop_api"},"executable":null}"#,
            "\n",
            r#"{"reason":"compiler-artifact","package_id":"path+file:///p/tools#other@0.1.0","target":{"name":"crdgen"},"executable":"/t/debug/examples/other-crdgen"}"#,
            "\n",
            r#"{"reason":"compiler-artifact","package_id":"path+file:///p/api#shop-api@0.1.0","target":{"name":"crdgen"},"executable":"/t/debug/examples/crdgen"}"#,
            "\n",
            r#"{"reason":"build-finished","success":true}"#,
        );
        assert_eq!(
            executable(messages.as_bytes(), "shop-api"),
            Some("/t/debug/examples/crdgen".into())
        );
        // A package in a directory of its own name has the short form of package id.
        let short = r#"{"reason":"compiler-artifact","package_id":"path+file:///p/shop-api#0.1.0","target":{"name":"crdgen"},"executable":"/t/x"}"#;
        assert_eq!(
            executable(short.as_bytes(), "shop-api"),
            Some("/t/x".into())
        );
        assert_eq!(executable(short.as_bytes(), "api"), None);
    }

    #[cfg(unix)]
    #[test]
    fn the_builds_own_file_is_the_one_the_shared_name_links_to() {
        let target = tempfile::tempdir().unwrap();
        let examples = target.path().join("examples");
        std::fs::create_dir_all(&examples).unwrap();
        for hash in ["aaaa", "bbbb"] {
            std::fs::write(examples.join(format!("crdgen-{hash}")), hash).unwrap();
            std::fs::write(examples.join(format!("crdgen-{hash}.d")), "").unwrap();
        }
        std::fs::hard_link(examples.join("crdgen-bbbb"), examples.join("crdgen")).unwrap();
        let message = serde_json::json!({
            "reason": "compiler-artifact",
            "package_id": "path+file:///p/shop/api#shop-api@0.1.0",
            "target": {"name": "crdgen"},
            "executable": examples.join("crdgen"),
        });
        assert_eq!(
            executable(message.to_string().as_bytes(), "shop-api"),
            Some(examples.join("crdgen-bbbb"))
        );
        // Without a link (a copy), the shared name is run.
        std::fs::remove_file(examples.join("crdgen")).unwrap();
        std::fs::write(examples.join("crdgen"), "copy").unwrap();
        assert_eq!(
            executable(message.to_string().as_bytes(), "shop-api"),
            Some(examples.join("crdgen"))
        );
    }
}

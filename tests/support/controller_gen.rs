//! controller-gen, the oracle of webop's CRDs: where the binary is, and its files as webop
//! writes them (the version annotation names the tool that wrote the file).
//!
//! controller-gen is `$CONTROLLER_GEN`, else `controller-gen` in `tools/k8s-assets`' install
//! root (`$WEBOP_ASSETS_BIN`, else `<repo>/bin`), which builds it. As for every test against the
//! reference tools: with `KUBEBUILDER_ASSETS` set it is required; without it a missing
//! controller-gen skips the test.

#![allow(dead_code)] // each test crate uses its own subset

use std::path::{Path, PathBuf};

pub const VERSION: &str = "v0.21.0";
pub const ANNOTATION: &str = "controller-gen.kubebuilder.io/version";

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Where controller-gen is expected.
pub fn path() -> PathBuf {
    if let Some(path) = std::env::var_os("CONTROLLER_GEN") {
        return PathBuf::from(path);
    }
    std::env::var_os("WEBOP_ASSETS_BIN")
        .map_or_else(|| repo().join("bin"), PathBuf::from)
        .join("controller-gen")
}

/// controller-gen, or `None` (and a note) when it is missing and may be (no
/// `KUBEBUILDER_ASSETS`).
pub fn tool() -> Option<PathBuf> {
    let path = path();
    if path.is_file() {
        return Some(path);
    }
    assert!(
        std::env::var_os("KUBEBUILDER_ASSETS").is_none(),
        "KUBEBUILDER_ASSETS is set, so the reference tools are required, but controller-gen is \
         not at {} (build it with tools/k8s-assets, or set CONTROLLER_GEN)",
        path.display()
    );
    eprintln!(
        "skipped: controller-gen not found at {} (tools/k8s-assets builds it; or set CONTROLLER_GEN)",
        path.display()
    );
    None
}

/// controller-gen's file with webop's version annotation in place of controller-gen's, at the
/// place of its key in the sorted annotations.
pub fn as_webop_writes_it(contents: &str) -> String {
    let ours = format!(
        "{}: {}",
        webop::crd::VERSION_ANNOTATION,
        webop::crd::VERSION
    );
    let theirs = format!("{ANNOTATION}: {VERSION}");
    let lines: Vec<&str> = contents.split_inclusive('\n').collect();
    let Some(at) = lines.iter().position(|l| l.trim() == theirs) else {
        return contents.to_owned();
    };
    let indent = &lines[at][..lines[at].len() - lines[at].trim_start().len()];
    // The annotations block: the lines around `at` at the same indent.
    let start = (0..at)
        .rev()
        .take_while(|&i| lines[i].starts_with(indent) && !lines[i][indent.len()..].starts_with(' '))
        .last()
        .unwrap_or(at);
    let end = (at..lines.len())
        .take_while(|&i| lines[i].starts_with(indent) && !lines[i][indent.len()..].starts_with(' '))
        .last()
        .unwrap()
        + 1;
    let mut block: Vec<String> = lines[start..end].iter().map(|l| (*l).to_owned()).collect();
    block[at - start] = format!("{indent}{ours}\n");
    block.sort();
    let mut result: String = lines[..start].concat();
    result.extend(block);
    result.push_str(&lines[end..].concat());
    result
}

/// Where two files first differ, for a failure message.
pub fn first_difference(ours: &str, oracle: &str) -> String {
    let line = ours
        .lines()
        .zip(oracle.lines())
        .position(|(a, b)| a != b)
        .unwrap_or_else(|| ours.lines().count().min(oracle.lines().count()));
    format!(
        "first difference at line {}:\n  webop:          {:?}\n  controller-gen: {:?}",
        line + 1,
        ours.lines().nth(line),
        oracle.lines().nth(line)
    )
}

#[test]
fn the_version_annotation_moves_to_its_sorted_place() {
    let written = "metadata:\n  annotations:\n    a.io/x: \"1\"\n    controller-gen.kubebuilder.io/version: v0.21.0\n    x.io/y: z\n  name: n\n";
    let expected = format!(
        "metadata:\n  annotations:\n    a.io/x: \"1\"\n    {}: {}\n    x.io/y: z\n  name: n\n",
        webop::crd::VERSION_ANNOTATION,
        webop::crd::VERSION
    );
    assert_eq!(as_webop_writes_it(written), expected);
}

//! `webop import crd` round trip: CRDs imported into one scaffolded project give themselves back
//! through `webop manifests`, byte for byte. One project holds every CRD, so it compiles once.
//!
//! - the goldens: the WebApp project's CRD and every conformance case's (controller-gen's output,
//!   as `tests/manifests/controller_gen_oracle.rs` proves), with no note;
//! - real-world CRDs, where `tools/real-world-crds/generate.sh` has written them (controller-gen
//!   on the API packages of Gateway API, prometheus-operator, cert-manager, external-dns and
//!   Cluster API): each one round-trips, or its import named what it could not express. The test
//!   skips without them, as the envtest tests skip without `KUBEBUILDER_ASSETS`.

use crate::controller_gen;
use crate::support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use controller_gen::as_webop_writes_it;
use support::{manifests, project_dir, run_ok, workspace};

/// The conformance cases' CRDs (not `gen_foo_maxdesclen`: `gen_foo` with a flag, the same CRD)
/// and the WebApp golden's (the `webapp` case's is the same file).
fn goldens() -> Vec<PathBuf> {
    let mut files = vec![
        workspace().join("testdata/webapp-operator/config/crd/bases/app.example.com_webapps.yaml"),
    ];
    let cases = workspace().join("tests/conformance");
    for case in std::fs::read_dir(&cases).unwrap() {
        let case = case.unwrap().path();
        let name = case.file_name().unwrap().to_string_lossy().into_owned();
        if !case.is_dir() || matches!(name.as_str(), "gen_foo_maxdesclen" | "webapp") {
            continue;
        }
        for file in std::fs::read_dir(&case).unwrap() {
            let file = file.unwrap().path();
            if file.extension().is_some_and(|e| e == "yaml")
                && std::fs::read_to_string(&file)
                    .unwrap()
                    .contains("kind: CustomResourceDefinition")
            {
                files.push(file);
            }
        }
    }
    files.sort();
    files
}

/// Imports `files` into a new project, runs `webop manifests`, and returns for each file the
/// notes of its import and whether the CRD came back as it was (controller-gen's version
/// annotation read as webop's).
fn round_trip(files: &[PathBuf]) -> BTreeMap<String, (Vec<String>, bool)> {
    let (_temp, dir) = project_dir();
    run_ok(&dir, &["init", "--domain", "example.com"]);
    let mut args = vec!["import".to_owned(), "crd".to_owned()];
    args.extend(files.iter().map(|f| f.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    run_ok(&dir, &args);
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    manifests(&dir);

    let table = webop_cli::import::KeywordTable::from_catalogue();
    let mut results = BTreeMap::new();
    for file in files {
        let shown = file.display().to_string();
        let text = std::fs::read_to_string(file).unwrap();
        let crd = &webop_cli::import::parse(&shown, &text).unwrap()[0];
        let imported =
            webop_cli::import::import(&table, &shown, crd, &|_| BTreeSet::new()).unwrap();
        let notes: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
        let name = crd["metadata"]["name"].as_str().unwrap();
        let written = dir.join("config/crd/bases").join(format!(
            "{}_{}.yaml",
            imported.kind.group, imported.kind.plural
        ));
        let same = std::fs::read_to_string(&written).is_ok_and(|w| w == as_webop_writes_it(&text));
        results.insert(name.to_owned(), (notes, same));
    }
    results
}

#[test]
fn every_golden_crd_round_trips_byte_for_byte() {
    let files = goldens();
    assert!(files.len() >= 12, "{files:?}");
    let results = round_trip(&files);
    for (name, (notes, same)) in &results {
        assert_eq!(notes, &Vec::<String>::new(), "{name}: notes");
        assert!(same, "{name}: `webop manifests` wrote a different CRD");
    }
}

/// Where `tools/real-world-crds/generate.sh` writes its CRDs.
fn real_world_dir() -> PathBuf {
    workspace().join("tools/real-world-crds/out")
}

#[test]
fn real_world_crds_round_trip_or_name_what_they_lose() {
    let files: Vec<PathBuf> = match std::fs::read_dir(real_world_dir()) {
        Ok(entries) => {
            let mut files: Vec<PathBuf> = entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
                .collect();
            files.sort();
            files
        }
        Err(_) => Vec::new(),
    };
    if files.is_empty() {
        eprintln!(
            "skipped: no CRDs in {} (tools/real-world-crds/generate.sh writes them)",
            real_world_dir().display()
        );
        return;
    }
    let results = round_trip(&files);
    for (name, (notes, same)) in &results {
        if *same {
            eprintln!("{name}: pass");
        } else {
            eprintln!("{name}: {} note(s)", notes.len());
            for note in notes {
                eprintln!("  {note}");
            }
        }
    }
    for (name, (notes, same)) in &results {
        if ROUND_TRIP_EXACTLY.contains(&name.as_str()) {
            assert!(
                *same && notes.is_empty(),
                "{name} round-tripped byte for byte with no notes before; now: {notes:?}"
            );
        }
        assert!(
            *same || !notes.is_empty(),
            "{name}: a different CRD came back, and the import said nothing"
        );
    }
}

/// The CRDs (by name) of the script's pinned versions that come back byte for byte with no note: a
/// regression in any of them fails, not just a silent difference.
const ROUND_TRIP_EXACTLY: [&str; 5] = [
    "certificates.cert-manager.io",
    "clusters.cluster.x-k8s.io",
    "dnsendpoints.externaldns.k8s.io",
    "httproutes.gateway.networking.k8s.io",
    "servicemonitors.monitoring.coreos.com",
];

//! Comparing what controller-gen and webop made of each case, and writing the cases that differ
//! to a directory for inspection.

use std::fmt::Write;
use std::path::Path;

use super::controller_gen::{as_webop_writes_it, first_difference};
use super::model::Case;
use super::project::Outcome;
use super::{go, rust};

/// What became of one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The same bytes (but for the version annotation).
    Same { file: String, yaml: String },
    /// Both refused the case: fine, they agree.
    BothRefused { go: String, rust: String },
    /// A difference: the files differ, or one side refused what the other took.
    Differs(String),
}

/// The verdict on `case` from the two outcomes.
pub fn verdict(case: &Case, go: &Outcome, rust: &Outcome) -> Verdict {
    let name = &case.name;
    match (
        go.files.get(name),
        go.refused.get(name),
        rust.files.get(name),
        rust.refused.get(name),
    ) {
        (Some((go_file, go_yaml)), _, Some((rust_file, rust_yaml)), _) => {
            let oracle = as_webop_writes_it(go_yaml);
            if go_file != rust_file {
                Verdict::Differs(format!(
                    "controller-gen writes {go_file}, webop writes {rust_file}"
                ))
            } else if oracle != *rust_yaml {
                Verdict::Differs(first_difference(rust_yaml, &oracle))
            } else {
                Verdict::Same {
                    file: go_file.clone(),
                    yaml: oracle,
                }
            }
        }
        (_, Some(go), _, Some(rust)) => Verdict::BothRefused {
            go: go.clone(),
            rust: rust.clone(),
        },
        (_, Some(go), Some(_), _) => {
            Verdict::Differs(format!("controller-gen refuses what webop takes:\n{go}"))
        }
        (Some(_), _, _, Some(rust)) => {
            Verdict::Differs(format!("webop refuses what controller-gen takes:\n{rust}"))
        }
        _ => Verdict::Differs("a generator wrote no CRD and reported no error".into()),
    }
}

/// Writes a differing case into `dir/<case>/`: both sources, both files, and why.
pub fn write_difference(dir: &Path, case: &Case, go_out: &Outcome, rust_out: &Outcome, why: &str) {
    let dir = dir.join(&case.name);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("types.go"), go::source(case)).unwrap();
    std::fs::write(dir.join(format!("{}.rs", case.name)), rust::source(case)).unwrap();
    if let Some((_, yaml)) = go_out.files.get(&case.name) {
        std::fs::write(dir.join("controller-gen.yaml"), as_webop_writes_it(yaml)).unwrap();
    }
    if let Some((_, yaml)) = rust_out.files.get(&case.name) {
        std::fs::write(dir.join("webop.yaml"), yaml).unwrap();
    }
    std::fs::write(dir.join("why.txt"), format!("{why}\n")).unwrap();
}

/// The counts of a run, for its summary.
#[derive(Debug, Default)]
pub struct Tally {
    pub same: usize,
    pub both_refused: usize,
    pub differ: Vec<(String, String)>,
    pub api_accepted: usize,
    pub api_rejected_alike: Vec<(String, String)>,
    pub api_disagree: Vec<(String, String)>,
}

impl Tally {
    pub fn summary(&self, cases: usize) -> String {
        let mut out = String::new();
        writeln!(
            out,
            "{cases} cases: {} identical, {} refused by both, {} different",
            self.same,
            self.both_refused,
            self.differ.len()
        )
        .unwrap();
        for (case, why) in &self.differ {
            let why: Vec<&str> = why.lines().take(3).collect();
            writeln!(out, "  {case}: {}", why.join("\n    ")).unwrap();
        }
        writeln!(
            out,
            "API server: {} accepted, {} rejected alike, {} accepted by one and rejected by the other",
            self.api_accepted,
            self.api_rejected_alike.len(),
            self.api_disagree.len()
        )
        .unwrap();
        for (case, reason) in self.api_rejected_alike.iter().chain(&self.api_disagree) {
            writeln!(out, "  {case}: {reason}").unwrap();
        }
        out
    }

    /// Whether the run found nothing to fix.
    pub fn agrees(&self) -> bool {
        self.differ.is_empty() && self.api_disagree.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(file: Option<(&str, &str)>, refused: Option<&str>) -> Outcome {
        let mut outcome = Outcome::default();
        if let Some((name, yaml)) = file {
            outcome
                .files
                .insert("c0001".into(), (name.into(), yaml.into()));
        }
        if let Some(reason) = refused {
            outcome.refused.insert("c0001".into(), reason.into());
        }
        outcome
    }

    #[test]
    fn verdicts() {
        let case = super::super::generate::case(1, 1);
        let file = Some(("a.yaml", "x: 1\n"));
        assert!(matches!(
            verdict(&case, &outcome(file, None), &outcome(file, None)),
            Verdict::Same { .. }
        ));
        let other = Some(("a.yaml", "x: 2\n"));
        assert!(matches!(
            verdict(&case, &outcome(file, None), &outcome(other, None)),
            Verdict::Differs(_)
        ));
        assert!(matches!(
            verdict(
                &case,
                &outcome(None, Some("no")),
                &outcome(None, Some("nope"))
            ),
            Verdict::BothRefused { .. }
        ));
        assert!(matches!(
            verdict(&case, &outcome(None, Some("no")), &outcome(file, None)),
            Verdict::Differs(why) if why.starts_with("controller-gen refuses")
        ));
    }
}

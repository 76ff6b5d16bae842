//! Comparing what controller-gen and webop made of each case, and writing the cases that differ
//! to a directory for inspection.

use std::fmt::Write;
use std::path::Path;

use super::apiserver::Admission;
use super::controller_gen::{as_webop_writes_it, first_difference};
use super::model::Case;
use super::project::Outcome;
use super::{go, rust};

/// What became of one case.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// The same bytes (but for the version annotation).
    Same { yaml: String },
    /// Both refused the case: fine, they agree.
    BothRefused,
    /// One generator refused the case and the other wrote a CRD: they agree if the API server
    /// rejects that CRD (the one refused earlier, which is fine), and differ if it accepts it.
    OneRefused {
        refuser: &'static str,
        reason: String,
        other_yaml: String,
    },
    /// A difference: the files differ, or a generator wrote nothing and said nothing.
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
                Verdict::Same { yaml: oracle }
            }
        }
        (_, Some(_), _, Some(_)) => Verdict::BothRefused,
        (_, Some(reason), Some((_, yaml)), _) => Verdict::OneRefused {
            refuser: "controller-gen",
            reason: reason.clone(),
            other_yaml: yaml.clone(),
        },
        (Some((_, yaml)), _, _, Some(reason)) => Verdict::OneRefused {
            refuser: "webop",
            reason: reason.clone(),
            other_yaml: yaml.clone(),
        },
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
    /// One generator refused, the API server rejected the other's CRD: they agree.
    pub refused_alike: Vec<(String, String)>,
    pub differ: Vec<(String, String)>,
    pub api_accepted: usize,
    pub api_rejected_alike: Vec<(String, String)>,
    pub api_disagree: Vec<(String, String)>,
}

impl Tally {
    /// Counts `verdict` on case `name`, with the API server's judgement of its CRDs
    /// (controller-gen's, webop's) when there is one.
    pub fn record(&mut self, name: &str, verdict: &Verdict, admitted: Option<&Admissions>) {
        let name = name.to_owned();
        let (go, rust) = admitted.cloned().unwrap_or_default();
        match verdict {
            Verdict::Same { .. } | Verdict::Differs(_) => {
                if let Verdict::Differs(why) = verdict {
                    self.differ.push((name.clone(), why.clone()));
                } else {
                    self.same += 1;
                }
                match (go, rust) {
                    (Some(Admission::Accepted), Some(Admission::Accepted)) => {
                        self.api_accepted += 1;
                    }
                    (Some(Admission::Rejected(reason)), Some(Admission::Rejected(_))) => {
                        self.api_rejected_alike.push((name, reason));
                    }
                    (Some(Admission::Rejected(reason)), Some(Admission::Accepted)) => self
                        .api_disagree
                        .push((name, format!("only controller-gen's is rejected: {reason}"))),
                    (Some(Admission::Accepted), Some(Admission::Rejected(reason))) => self
                        .api_disagree
                        .push((name, format!("only webop's is rejected: {reason}"))),
                    _ => {}
                }
            }
            Verdict::BothRefused => self.both_refused += 1,
            Verdict::OneRefused {
                refuser, reason, ..
            } => match go.or(rust) {
                Some(Admission::Rejected(api)) => self.refused_alike.push((
                    name,
                    format!("{refuser} refuses it, the API server rejects the other's CRD: {api}"),
                )),
                Some(Admission::Accepted) => self.differ.push((
                    name,
                    format!("{refuser} refuses what the other writes and the API server accepts:\n{reason}"),
                )),
                None => self.differ.push((
                    name,
                    format!("{refuser} refuses what the other writes:\n{reason}"),
                )),
            },
        }
    }

    pub fn summary(&self, cases: usize) -> String {
        let mut out = String::new();
        writeln!(
            out,
            "{cases} cases: {} identical, {} refused by both, {} refused by one and rejected by the API server, {} different",
            self.same,
            self.both_refused,
            self.refused_alike.len(),
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
        let notes = self
            .refused_alike
            .iter()
            .chain(&self.api_rejected_alike)
            .chain(&self.api_disagree);
        for (case, reason) in notes {
            writeln!(out, "  {case}: {reason}").unwrap();
        }
        out
    }

    /// Whether the run found nothing to fix.
    pub fn agrees(&self) -> bool {
        self.differ.is_empty() && self.api_disagree.is_empty()
    }
}

/// The API server's judgement of a case's CRDs: controller-gen's, webop's (`None` for one that
/// was not written or not sent).
pub type Admissions = (Option<Admission>, Option<Admission>);

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
            Verdict::BothRefused
        ));
        assert!(matches!(
            verdict(&case, &outcome(None, Some("no")), &outcome(file, None)),
            Verdict::OneRefused {
                refuser: "controller-gen",
                ..
            }
        ));
    }

    #[test]
    fn a_refusal_agrees_with_the_api_server_rejecting_the_other_crd() {
        let refused = Verdict::OneRefused {
            refuser: "webop",
            reason: "invalid pattern".into(),
            other_yaml: "x: 1\n".into(),
        };
        let mut tally = Tally::default();
        let rejected = (Some(Admission::Rejected("bad pattern".into())), None);
        tally.record("c0001", &refused, Some(&rejected));
        assert_eq!(tally.refused_alike.len(), 1);
        assert!(tally.agrees());
        tally.record("c0002", &refused, Some(&(Some(Admission::Accepted), None)));
        tally.record("c0003", &refused, None);
        assert_eq!(tally.differ.len(), 2);
        assert!(!tally.agrees());
    }
}

//! What a run of the model-based test reports: its figures, or the failing sequence.

use std::collections::BTreeMap;

use super::generate::Step;

/// What a run did.
#[derive(Debug, Default)]
pub struct Stats {
    pub sequences: usize,
    pub steps: usize,
    /// Commands that succeeded, and that webop refused.
    pub succeeded: usize,
    pub refused: usize,
    pub checkpoints: usize,
    /// How often each invariant was checked.
    pub checked: BTreeMap<&'static str, usize>,
    /// Refusals by their message's first words, to see what the sequences explore.
    pub refusals: BTreeMap<String, usize>,
    pub seconds: f64,
}

impl Stats {
    pub fn add(&mut self, other: Stats) {
        self.sequences += other.sequences;
        self.steps += other.steps;
        self.succeeded += other.succeeded;
        self.refused += other.refused;
        self.checkpoints += other.checkpoints;
        for (k, v) in other.checked {
            *self.checked.entry(k).or_default() += v;
        }
        for (k, v) in other.refusals {
            *self.refusals.entry(k).or_default() += v;
        }
        self.seconds += other.seconds;
    }

    pub fn report(&self) -> String {
        let mut out = format!(
            "{} sequences, {} steps ({} commands succeeded, {} refused), {} checkpoints, {:.1}s\n",
            self.sequences,
            self.steps,
            self.succeeded,
            self.refused,
            self.checkpoints,
            self.seconds
        );
        for (name, count) in &self.checked {
            out.push_str(&format!("  checked {count:>6}x  {name}\n"));
        }
        let mut refusals: Vec<_> = self.refusals.iter().collect();
        refusals.sort_by(|a, b| b.1.cmp(a.1));
        for (message, count) in refusals.iter().take(12) {
            out.push_str(&format!("  refused {count:>6}x  {message}\n"));
        }
        out
    }
}

/// A sequence that broke an invariant: its steps, the one that broke it, and how.
#[derive(Debug, Clone)]
pub struct Failure {
    /// The seed the sequence was drawn from.
    pub seed: u64,
    pub steps: Vec<Step>,
    pub at: usize,
    pub message: String,
}

impl Failure {
    pub fn report(&self) -> String {
        let mut out = String::new();
        for (i, step) in self.steps.iter().enumerate() {
            let mark = if i == self.at { ">>" } else { "  " };
            out.push_str(&format!("{mark} {i:>3}. {step}\n"));
        }
        out.push_str(&format!(
            "step {} of the sequence of seed {} (shrunk) broke: {}\n",
            self.at, self.seed, self.message
        ));
        out
    }
}

//! Probes: a few cases get one thing wrong on purpose, to check that webop and controller-gen
//! refuse alike. webop refuses most of these when it compiles; controller-gen writes the CRD and
//! the API server rejects it, which counts as agreeing.

use super::super::model::{Marker, Scalar, Ty, TypeDef, Value};
use super::Gen;

/// What a probe gets wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Probe {
    /// An attribute on a field whose type it does not fit (`markers.rs`).
    Misfit,
    /// A pattern that is no regular expression.
    BadPattern,
    /// A string default of an integer.
    WrongDefaultType,
    /// A short name that is no DNS label.
    BadShortName,
    /// A printer column path that does not start with `.`.
    BadColumnPath,
    /// A version that is no DNS-1035 label.
    BadVersion,
}

// No string in the enum of an integer: the API server takes that CRD, and webop refuses it on
// purpose (docs/attributes.md).
const PROBES: [Probe; 6] = [
    Probe::Misfit,
    Probe::BadPattern,
    Probe::WrongDefaultType,
    Probe::BadShortName,
    Probe::BadColumnPath,
    Probe::BadVersion,
];

impl Gen {
    /// Sometimes a probe: `Misfit` is placed while fields are generated, the others here, after.
    pub fn choose_probe(&mut self) -> Option<Probe> {
        self.rng.chance(6).then(|| self.rng.choose(&PROBES))
    }

    /// Gets `probe` wrong in the finished case (a no-op when the case has no place for it).
    pub fn place_probe(&mut self, probe: Probe) {
        let placed = match probe {
            Probe::Misfit => return,
            Probe::BadPattern => self.mark_field(Scalar::String, |markers| {
                markers.retain(|m| !matches!(m, Marker::Pattern(_)));
                markers.push(Marker::Pattern("^[a-z+$"));
            }),
            Probe::WrongDefaultType => self.mark_field(Scalar::Int32, |markers| {
                markers.retain(|m| !matches!(m, Marker::Default(_)));
                markers.push(Marker::Default(Value::String("one".into())));
            }),
            Probe::BadShortName => {
                self.case.short_names.push("Not_A_Label".into());
                true
            }
            Probe::BadColumnPath => match self.case.printcolumns.first_mut() {
                Some(column) => {
                    column.json_path = column.json_path.trim_start_matches('.').to_owned();
                    true
                }
                None => false,
            },
            Probe::BadVersion => {
                self.case.version = self.case.version.to_ascii_uppercase();
                true
            }
        };
        self.case.probe |= placed;
    }

    /// Applies `change` to the markers of the first field of type `scalar`, if there is one.
    fn mark_field(&mut self, scalar: Scalar, change: impl FnOnce(&mut Vec<Marker>)) -> bool {
        for def in &mut self.case.types {
            let TypeDef::Struct(s) = def else { continue };
            if let Some(field) = s
                .fields
                .iter_mut()
                .find(|f| !f.inline && f.ty == Ty::Scalar(scalar))
            {
                change(&mut field.markers);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::differential::generate::case;

    #[test]
    fn some_cases_are_probes_and_most_are_not() {
        let probes = (0..500).filter(|&i| case(13, i).probe).count();
        assert!((5..60).contains(&probes), "{probes} probes in 500 cases");
    }
}

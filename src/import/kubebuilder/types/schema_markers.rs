//! A Go declaration's schema markers, spelled as webop's attributes from the marker catalogue's
//! rows, as `import crd` spells them.

use std::collections::BTreeMap;

use serde_json::Value;
use webop_markers::{Family, Payload, Place};

use super::super::super::attribute::{self, Written};
use super::super::go::{GoFile, MarkerLine};
use super::super::markers;
use super::super::{Error, known};
use super::Translator;

impl Translator<'_> {
    /// The schema markers among `lines`, written as attributes; an unknown `kubebuilder:`
    /// marker or a value no attribute spells is an error. As controller-gen: a flag set to
    /// `false` writes nothing (dropped, with a note), and a marker that cannot be repeated
    /// applies once, its last value winning (controller-gen applies each in written order).
    pub fn markers(
        &mut self,
        file: &GoFile,
        lines: &[MarkerLine],
        place: Place,
    ) -> Result<Vec<Written>, Error> {
        let mut out = Vec::new();
        let mut items = Vec::new();
        // Where each non-repeatable marker's value is in `out`.
        let mut written_at: BTreeMap<&'static str, usize> = BTreeMap::new();
        for line in lines {
            let bad = |why: String| Error::Marker {
                file: file.path.clone(),
                line: line.line,
                marker: line.text.clone(),
                why,
            };
            if let Some(inner) = line.text.strip_prefix(known::ITEMS_PREFIX) {
                let text = format!("kubebuilder:validation:{inner}");
                let parsed = markers::split(&text, &self.names)
                    .ok_or_else(|| bad("no such items marker".into()))?;
                let spec = catalogue_row(&parsed.name)
                    .filter(|s| s.on.contains(&Place::Items))
                    .ok_or_else(|| bad("no such items marker".into()))?;
                let value = markers::payload_value(spec, &parsed.args).map_err(bad)?;
                items.extend(
                    attribute::write(spec, &value)
                        .map_err(bad)?
                        .into_iter()
                        .map(|w| w.text),
                );
                continue;
            }
            if line.text == super::k8s_enum::MARKER && place == Place::Field {
                return Err(bad(
                    "k8s:enum must be set on a type, not a field (controller-gen refuses it too)"
                        .into(),
                ));
            }
            let Some(parsed) = markers::split(&line.text, &self.names) else {
                if known::is_generator_marker(&line.text) {
                    return Err(bad("controller-gen has no such marker".into()));
                }
                continue;
            };
            if parsed.name == known::SCHEMALESS {
                out.push(Written {
                    family: Family::Validate,
                    text: "schemaless".into(),
                });
                continue;
            }
            let Some(spec) = catalogue_row(&parsed.name) else {
                continue;
            };
            if !spec.on.contains(&place) {
                self.issue(
                    file,
                    line.line,
                    format!(
                        "+{} is not written on a {}: left out",
                        parsed.name,
                        match place {
                            Place::Field => "field",
                            _ => "type",
                        }
                    ),
                );
                continue;
            }
            let value = markers::payload_value(spec, &parsed.args).map_err(bad)?;
            if matches!(spec.payload, Payload::Flag | Payload::Bare) && value == Value::Bool(false)
            {
                self.note(
                    file,
                    line.line,
                    format!(
                        "+{}: a false flag, which controller-gen writes nothing for: dropped",
                        line.text
                    ),
                );
                continue;
            }
            let written = attribute::write(spec, &value).map_err(bad)?;
            if spec.repeatable {
                out.extend(written);
                continue;
            }
            let Some(written) = written.into_iter().next() else {
                continue;
            };
            match written_at.get(spec.go) {
                Some(&at) => {
                    if out[at] != written {
                        self.note(
                            file,
                            line.line,
                            format!(
                                "+{}: repeated with another value; the last applies, as in controller-gen",
                                parsed.name
                            ),
                        );
                    }
                    out[at] = written;
                }
                None => {
                    written_at.insert(spec.go, out.len());
                    out.push(written);
                }
            }
        }
        if !items.is_empty() {
            out.push(Written {
                family: Family::Validate,
                text: format!("items({})", items.join(", ")),
            });
        }
        Ok(out)
    }
}

fn catalogue_row(name: &str) -> Option<&'static webop_markers::MarkerSpec> {
    webop_markers::CATALOGUE
        .iter()
        .find(|spec| spec.go.trim_start_matches('+') == name)
}

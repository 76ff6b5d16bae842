//! A Go declaration's schema markers, spelled as webop's attributes from the marker catalogue's
//! rows, as `import crd` spells them.

use webop_markers::{Family, Place};

use super::super::super::attribute::{self, Written};
use super::super::go::{GoFile, MarkerLine};
use super::super::markers;
use super::super::{Error, known};
use super::Translator;

impl Translator<'_> {
    /// The schema markers among `lines`, written as attributes; an unknown `kubebuilder:`
    /// marker or a value no attribute spells is an error.
    pub fn markers(
        &mut self,
        file: &GoFile,
        lines: &[MarkerLine],
        place: Place,
    ) -> Result<Vec<Written>, Error> {
        let mut out = Vec::new();
        let mut items = Vec::new();
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
            out.extend(attribute::write(spec, &value).map_err(bad)?);
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

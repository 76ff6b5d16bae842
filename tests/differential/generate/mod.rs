//! The random case generator: a kind with its names, scope, subresources and printer columns,
//! and a random tree of named types under its spec and status (`types.rs`), every field and type
//! with random legal attributes (`markers.rs`, `scalars.rs`, `cel.rs`).
//!
//! Everything comes from one `Rng` seeded by (seed, case index), so a case is reproducible on its
//! own.

mod cel;
mod markers;
mod probes;
mod scalars;
mod types;

use std::collections::BTreeMap;

use super::model::{
    Case, Field, K8s, Marker, MarkerSpelling, Presence, PrintColumn, Scalar, Scale, Shape,
    StructDef, Ty, TypeDef, TypeId, Value,
};
use super::rng::Rng;
use super::words;

/// Case `index` of the run seeded `seed`.
pub fn case(seed: u64, index: usize) -> Case {
    let mut g = Gen::new(Rng::for_case(seed, index));
    let name = format!("c{index:04}");
    let kind = (*g.rng.pick(&words::KINDS)).to_owned();
    let domain = *g.rng.pick(&["example.com", "webop.dev", "test.io"]);
    g.case.group = format!("{name}.{domain}");
    g.case.version = (*g.rng.pick(&["v1", "v1alpha1", "v1beta1", "v2", "v2beta3"])).to_owned();
    g.case.name = name;
    g.case.package_optional = g.rng.chance(15);
    let probe = g.choose_probe();
    g.probe = probe == Some(probes::Probe::Misfit);
    g.case.cluster_scoped = g.rng.chance(30);
    g.case.root_doc = words::doc(&mut g.rng);
    g.case.spec_required = g.rng.chance(20);
    names(&mut g, &kind);
    g.case.kind = kind.clone();
    g.type_names
        .extend([kind.clone(), format!("{kind}Spec"), format!("{kind}Status")]);

    let has_status = g.rng.chance(65);
    let scale = has_status && g.rng.chance(20);
    let root = Ctx {
        depth: 0,
        correlatable: true,
    };

    let spec = g.reserve(format!("{kind}Spec"));
    let mut spec_fields = Vec::new();
    if scale {
        spec_fields.push(g.plain_field("replicas", Ty::Scalar(Scalar::Int32)));
    }
    g.fill_struct(spec, spec_fields, root);
    g.case.spec = spec;

    if has_status {
        let status = g.reserve(format!("{kind}Status"));
        let mut fields = Vec::new();
        if scale {
            fields.push(g.optional_field("replicas", Ty::Scalar(Scalar::Int32)));
            if g.rng.chance(60) {
                fields.push(g.optional_field("selector", Ty::Scalar(Scalar::String)));
            }
        }
        if g.rng.chance(30) {
            let mut conditions =
                g.optional_field("conditions", Ty::List(Box::new(Ty::K8s(K8s::Condition))));
            if g.rng.chance(80) {
                conditions.markers = vec![
                    Marker::ListType("map"),
                    Marker::ListMapKeys(vec!["type".into()]),
                ];
            }
            fields.push(conditions);
        }
        g.fill_struct(status, fields, root);
        g.case.status = Some((status, g.rng.chance(75)));
        if scale {
            let selector = g
                .case
                .struct_def(status)
                .fields
                .iter()
                .any(|f| f.name == "selector");
            g.case.scale = Some(Scale {
                spec_path: ".spec.replicas".into(),
                status_path: ".status.replicas".into(),
                selector_path: selector.then(|| ".status.selector".into()),
            });
        }
    }
    printcolumns(&mut g);
    if let Some(probe) = probe {
        g.place_probe(probe);
    }
    g.case
}

/// What a type is generated under.
#[derive(Clone, Copy, Debug)]
pub struct Ctx {
    pub depth: usize,
    /// Old and new objects correlate here (transition rules are allowed).
    pub correlatable: bool,
}

/// The generator's state: the case so far, the names taken, and the values each named scalar
/// type accepts (for defaults of fields of that type).
pub struct Gen {
    pub rng: Rng,
    pub case: Case,
    pub type_names: Vec<String>,
    pub samples: BTreeMap<TypeId, Vec<Value>>,
    /// Structs whose fields are complete (they may be used again, without forming a cycle).
    pub finished: Vec<TypeId>,
    /// The case is to have one attribute that does not fit its field (`probes::Probe::Misfit`).
    pub probe: bool,
}

impl Gen {
    fn new(rng: Rng) -> Self {
        Self {
            rng,
            case: Case {
                name: String::new(),
                group: String::new(),
                version: String::new(),
                kind: String::new(),
                plural: None,
                singular: None,
                short_names: Vec::new(),
                categories: Vec::new(),
                cluster_scoped: false,
                root_doc: Vec::new(),
                spec_required: false,
                status: None,
                scale: None,
                printcolumns: Vec::new(),
                package_optional: false,
                spec: 0,
                types: Vec::new(),
                probe: false,
            },
            type_names: Vec::new(),
            samples: BTreeMap::new(),
            finished: Vec::new(),
            probe: false,
        }
    }

    /// A new struct type named `name`, without fields yet.
    pub fn reserve(&mut self, name: String) -> TypeId {
        self.type_names.push(name.clone());
        self.case.types.push(TypeDef::Struct(StructDef {
            name,
            doc: Vec::new(),
            fields: Vec::new(),
            markers: Vec::new(),
        }));
        self.case.types.len() - 1
    }
}

fn names(g: &mut Gen, kind: &str) {
    let lower = kind.to_ascii_lowercase();
    if g.rng.chance(15) {
        g.case.plural = Some(format!(
            "{lower}{}",
            g.rng.pick(&["s", "es", "list", "items"])
        ));
    }
    if g.rng.chance(10) {
        g.case.singular = Some(format!("{lower}{}", g.rng.pick(&["", "one", "item"])));
    }
    if g.rng.chance(30) {
        let all = [
            lower[..2].to_owned(),
            format!("{}x", &lower[..2]),
            format!("{lower}z"),
        ];
        let count = g.rng.range(1, 2) as usize;
        g.case.short_names = g.rng.subset(&all, count);
    }
    if g.rng.chance(25) {
        let count = g.rng.range(1, 2) as usize;
        g.case.categories = g
            .rng
            .subset(&["all", "example", "webop"], count)
            .into_iter()
            .map(str::to_owned)
            .collect();
    }
}

/// Printer columns on top-level scalar fields of the spec and status, and on the creation time.
fn printcolumns(g: &mut Gen) {
    let mut targets: Vec<(String, &'static str)> =
        vec![(".metadata.creationTimestamp".into(), "date")];
    let mut sides = vec![("spec", g.case.spec)];
    if let Some((status, _)) = g.case.status {
        sides.push(("status", status));
    }
    for (side, id) in sides {
        for field in &g.case.struct_def(id).fields {
            if field.inline || !words::is_identifier(&field.name) {
                continue;
            }
            let column_type = match (g.case.shape(&field.ty), &field.ty) {
                (_, Ty::K8s(K8s::Time)) => "date",
                (Shape::Integer, _) => "integer",
                (Shape::Number, _) => "number",
                (Shape::String, _) => "string",
                (Shape::Boolean, _) => "boolean",
                _ => continue,
            };
            targets.push((format!(".{side}.{}", field.name), column_type));
        }
    }
    let count = match g.rng.below(10) {
        0..=4 => 0,
        5..=7 => 1,
        _ => g.rng.range(2, 4) as usize,
    };
    let chosen = g.rng.subset(&targets, count);
    let mut names = Vec::new();
    for (json_path, type_) in chosen {
        let length = g.rng.range(1, 2) as usize;
        let mut name = words::phrase(&mut g.rng, length);
        name[..1].make_ascii_uppercase();
        if names.contains(&name) {
            name.push_str(&names.len().to_string());
        }
        names.push(name.clone());
        let format = match type_ {
            "integer" if g.rng.chance(30) => Some(*g.rng.pick(&["int32", "int64"])),
            "number" if g.rng.chance(30) => Some(*g.rng.pick(&["float", "double"])),
            "string" if g.rng.chance(10) => Some(*g.rng.pick(&["byte", "password", "date"])),
            _ => None,
        };
        let description = g.rng.chance(40).then(|| words::text(&mut g.rng));
        let priority = g.rng.chance(30).then(|| g.rng.range(0, 2) as u32);
        g.case.printcolumns.push(PrintColumn {
            name,
            type_,
            json_path,
            description,
            format,
            priority,
        });
    }
}

/// Fields every generator part builds the same way.
impl Gen {
    /// A field `name` of type `ty` that is required (in a package where fields are optional by
    /// default, by a marker).
    pub fn plain_field(&mut self, name: &str, ty: Ty) -> Field {
        let presence = if self.case.package_optional {
            Presence::MarkedRequired(MarkerSpelling::Kubebuilder)
        } else {
            Presence::Plain
        };
        self.simple_field(name, ty, presence)
    }

    /// An optional field `name` of type `ty`, without attributes.
    pub fn optional_field(&mut self, name: &str, ty: Ty) -> Field {
        self.simple_field(name, ty, Presence::OmitEmpty)
    }

    fn simple_field(&mut self, name: &str, ty: Ty, presence: super::model::Presence) -> Field {
        Field {
            name: name.to_owned(),
            doc: words::doc(&mut self.rng),
            ty,
            presence,
            markers: Vec::new(),
            inline: false,
            go_value: self.rng.chance(30),
            rust_serde_default: self.rng.chance(40),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_case_is_reproducible_from_its_seed_and_index() {
        let one = format!("{:?}", case(11, 7));
        let two = format!("{:?}", case(11, 7));
        assert_eq!(one, two);
        assert_ne!(one, format!("{:?}", case(11, 8)));
    }

    #[test]
    fn scale_paths_point_at_generated_fields() {
        for index in 0..300 {
            let case = case(3, index);
            let Some(scale) = &case.scale else { continue };
            let (status, _) = case.status.expect("scale needs a status");
            let spec = case.struct_def(case.spec);
            assert!(spec.fields.iter().any(|f| f.name == "replicas"), "{index}");
            let status = case.struct_def(status);
            assert!(
                status.fields.iter().any(|f| f.name == "replicas"),
                "{index}"
            );
            if scale.selector_path.is_some() {
                assert!(status.fields.iter().any(|f| f.name == "selector"));
            }
        }
    }

    #[test]
    fn names_are_unique_per_struct_and_per_case() {
        for index in 0..300 {
            let case = case(5, index);
            let mut types: Vec<&str> = case.types.iter().map(TypeDef::name).collect();
            types.sort_unstable();
            let count = types.len();
            types.dedup();
            assert_eq!(types.len(), count, "case {index}: type names");
            for def in &case.types {
                if let TypeDef::Struct(s) = def {
                    let mut fields: Vec<&str> = s.fields.iter().map(|f| f.name.as_str()).collect();
                    fields.sort_unstable();
                    let count = fields.len();
                    fields.dedup();
                    assert_eq!(fields.len(), count, "case {index}: fields of {}", s.name);
                }
            }
        }
    }
}

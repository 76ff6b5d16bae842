//! Random types: structs with fields of scalars, enums, named scalars, nested structs, lists,
//! maps, types of k8s.io, and arbitrary JSON; lists of structs keyed as associative lists.

use super::super::model::{
    EnumDef, Field, K8s, Marker, MarkerSpelling, NewtypeDef, Presence, Scalar, StructDef, Ty,
    TypeDef, TypeId, Value,
};
use super::super::words;
use super::{Ctx, Gen, scalars};

const MAX_DEPTH: usize = 3;

impl Gen {
    /// Gives the reserved struct `id` the fields `preset` and some random ones, a doc comment and
    /// struct attributes.
    pub fn fill_struct(&mut self, id: TypeId, preset: Vec<Field>, ctx: Ctx) {
        let mut fields = preset;
        let count = self.rng.range(0, 6) as usize;
        for _ in 0..count {
            let mut taken: Vec<String> = fields.iter().map(|f| f.name.clone()).collect();
            taken.extend(self.inlined_names(&fields));
            if ctx.depth < MAX_DEPTH && self.rng.chance(6) {
                fields.push(self.inline_field(&taken, ctx));
                continue;
            }
            let name = words::field_name(&mut self.rng, &taken, true);
            fields.push(self.field(name, ctx));
        }
        let doc = words::doc(&mut self.rng);
        let mut def = StructDef {
            name: self.case.types[id].name().to_owned(),
            doc,
            fields,
            markers: Vec::new(),
        };
        def.markers = self.struct_markers(&def, ctx);
        self.case.types[id] = TypeDef::Struct(def);
        self.finished.push(id);
    }

    /// The JSON names an embedded struct brings into its parent.
    fn inlined_names(&self, fields: &[Field]) -> Vec<String> {
        let mut names = Vec::new();
        for field in fields.iter().filter(|f| f.inline) {
            let Ty::Named(id) = field.ty else { continue };
            let inner = self.case.struct_def(id);
            names.extend(inner.fields.iter().map(|f| f.name.clone()));
            names.extend(self.inlined_names(&inner.fields));
        }
        names
    }

    /// An embedded struct whose fields do not clash with the parent's (`taken`).
    fn inline_field(&mut self, taken: &[String], ctx: Ctx) -> Field {
        let name = words::type_name(&mut self.rng, &self.type_names);
        let id = self.reserve(name);
        let mut preset = Vec::new();
        let mut names = taken.to_vec();
        for _ in 0..self.rng.range(1, 3) {
            let name = words::field_name(&mut self.rng, &names, true);
            names.push(name.clone());
            preset.push(self.field(name, ctx.deeper()));
        }
        // No random fields beyond the preset ones: they could clash with the parent's.
        let doc = words::doc(&mut self.rng);
        let mut def = StructDef {
            name: self.case.types[id].name().to_owned(),
            doc,
            fields: preset,
            markers: Vec::new(),
        };
        def.markers = self.struct_markers(&def, ctx);
        self.case.types[id] = TypeDef::Struct(def);
        Field {
            name: format!("embedded{id}"),
            doc: if self.rng.chance(30) {
                words::doc(&mut self.rng)
            } else {
                Vec::new()
            },
            ty: Ty::Named(id),
            presence: Presence::Plain,
            markers: Vec::new(),
            inline: true,
            go_value: true,
            rust_serde_default: false,
        }
    }

    /// A field `name` of a random type with random attributes.
    pub fn field(&mut self, name: String, ctx: Ctx) -> Field {
        let presence = match self.rng.below(20) {
            0..=6 => Presence::Plain,
            7..=15 => Presence::OmitEmpty,
            16 | 17 => Presence::MarkedRequired(self.spelling()),
            _ => Presence::MarkedOptional(self.spelling()),
        };
        let (ty, implied, item_ctx) = self.ty(ctx);
        let markers = self.field_markers(&name, &ty, implied, item_ctx);
        Field {
            name,
            doc: words::doc(&mut self.rng),
            ty,
            presence,
            markers,
            inline: false,
            go_value: self.rng.chance(30),
            rust_serde_default: self.rng.chance(40),
        }
    }

    fn spelling(&mut self) -> MarkerSpelling {
        *self.rng.pick(&[
            MarkerSpelling::Kubebuilder,
            MarkerSpelling::Short,
            MarkerSpelling::K8s,
        ])
    }

    /// A random type, the list attributes it needs (an associative list's keys), and the
    /// context of the field's own rules.
    fn ty(&mut self, ctx: Ctx) -> (Ty, Vec<Marker>, Ctx) {
        let deep = ctx.depth >= MAX_DEPTH;
        match self.rng.below(100) {
            _ if deep => (self.scalar(), Vec::new(), ctx),
            0..=39 => (self.scalar(), Vec::new(), ctx),
            40..=45 => (self.enum_type(), Vec::new(), ctx),
            46..=50 => (self.newtype(), Vec::new(), ctx),
            51..=63 => (self.struct_type(ctx.deeper()), Vec::new(), ctx),
            64..=77 => self.list(ctx),
            78..=85 => {
                let value = self.element(ctx.deeper());
                (Ty::Map(Box::new(value)), Vec::new(), ctx)
            }
            86..=97 => (Ty::K8s(*self.rng.pick(&K8s::ALL)), Vec::new(), ctx),
            _ => (Ty::Json, Vec::new(), ctx),
        }
    }

    fn scalar(&mut self) -> Ty {
        Ty::Scalar(match self.rng.below(20) {
            0..=4 => Scalar::Int32,
            5..=6 => Scalar::Int64,
            7 => Scalar::Float64,
            8..=15 => Scalar::String,
            16..=18 => Scalar::Bool,
            _ => Scalar::Bytes,
        })
    }

    /// The type of a list item or a map value.
    fn element(&mut self, ctx: Ctx) -> Ty {
        match self.rng.below(20) {
            _ if ctx.depth >= MAX_DEPTH => self.scalar(),
            0..=8 => self.scalar(),
            9..=12 => self.struct_type(ctx),
            13 => self.enum_type(),
            14 => self.newtype(),
            15..=17 => Ty::K8s(*self.rng.pick(&K8s::ALL)),
            18 => Ty::List(Box::new(self.scalar())),
            _ => Ty::Map(Box::new(self.scalar())),
        }
    }

    /// A list, sometimes an associative list (`listType=map`) of structs keyed by required
    /// fields, a set of scalars, or atomic.
    fn list(&mut self, ctx: Ctx) -> (Ty, Vec<Marker>, Ctx) {
        let uncorrelated = Ctx {
            correlatable: false,
            ..ctx
        };
        match self.rng.below(10) {
            0..=2 if ctx.depth < MAX_DEPTH => {
                let name = words::type_name(&mut self.rng, &self.type_names);
                let id = self.reserve(name);
                let mut keys = vec!["name".to_owned()];
                let mut preset = vec![self.plain_field("name", Ty::Scalar(Scalar::String))];
                if self.rng.chance(30) {
                    keys.push("port".to_owned());
                    preset.push(self.plain_field("port", Ty::Scalar(Scalar::Int32)));
                }
                self.fill_struct(id, preset, ctx.deeper());
                let markers = vec![Marker::ListType("map"), Marker::ListMapKeys(keys)];
                (Ty::List(Box::new(Ty::Named(id))), markers, ctx)
            }
            3 => {
                let ty = Ty::List(Box::new(Ty::K8s(K8s::EnvVar)));
                let markers = vec![
                    Marker::ListType("map"),
                    Marker::ListMapKeys(vec!["name".into()]),
                ];
                (ty, markers, ctx)
            }
            4 | 5 => {
                let item = self.scalar();
                let list_type = *self.rng.pick(&["set", "atomic"]);
                (
                    Ty::List(Box::new(item)),
                    vec![Marker::ListType(list_type)],
                    ctx,
                )
            }
            _ => {
                let item = self.element(uncorrelated.deeper());
                let markers = if self.rng.chance(15) {
                    vec![Marker::ListType("atomic")]
                } else {
                    Vec::new()
                };
                (Ty::List(Box::new(item)), markers, uncorrelated)
            }
        }
    }

    /// A new struct, or one generated before (a named type used twice).
    fn struct_type(&mut self, ctx: Ctx) -> Ty {
        if !self.finished.is_empty() && self.rng.chance(12) {
            let id = *self.rng.pick(&self.finished);
            if id != self.case.spec && Some(id) != self.case.status.map(|(s, _)| s) {
                return Ty::Named(id);
            }
        }
        let name = words::type_name(&mut self.rng, &self.type_names);
        let id = self.reserve(name);
        self.fill_struct(id, Vec::new(), ctx);
        Ty::Named(id)
    }

    fn enum_type(&mut self) -> Ty {
        const WORDS: [&str; 8] = [
            "Pending",
            "Running",
            "Failed",
            "Succeeded",
            "Unknown",
            "Always",
            "Never",
            "IfNotPresent",
        ];
        let mut values: Vec<String> = Vec::new();
        for _ in 0..self.rng.range(1, 5) {
            let value = match self.rng.below(3) {
                0 => words::string_value(&mut self.rng),
                _ => (*self.rng.pick(&WORDS)).to_owned(),
            };
            if !values.contains(&value) {
                values.push(value);
            }
        }
        let go_k8s_enum = self.rng.chance(30);
        if go_k8s_enum {
            values.sort_by_key(|v| go_json(v));
        }
        let mut markers: Vec<Marker> = self
            .type_rule(&Ty::Scalar(Scalar::String), false)
            .into_iter()
            .collect();
        if self.rng.chance(10) {
            let longest = values.iter().map(|v| v.chars().count()).max().unwrap_or(0);
            markers.push(Marker::MaxLength(longest as u32 + 5));
        }
        let name = words::type_name(&mut self.rng, &self.type_names);
        self.type_names.push(name.clone());
        let samples = values.iter().cloned().map(Value::String).collect();
        self.case.types.push(TypeDef::Enum(EnumDef {
            name,
            doc: words::doc(&mut self.rng),
            values,
            markers,
            go_k8s_enum,
        }));
        let id = self.case.types.len() - 1;
        self.samples.insert(id, samples);
        Ty::Named(id)
    }

    /// A named scalar with attributes of its own.
    fn newtype(&mut self) -> Ty {
        let inner = *self.rng.pick(&[
            Scalar::Int32,
            Scalar::Int64,
            Scalar::String,
            Scalar::String,
            Scalar::Float64,
        ]);
        let constrained = match inner {
            Scalar::String => scalars::string(&mut self.rng),
            other => scalars::numeric(&mut self.rng, other == Scalar::Float64),
        };
        let mut markers = constrained.markers;
        markers.extend(self.type_rule(&Ty::Scalar(inner), constrained.cel_format));
        let name = words::type_name(&mut self.rng, &self.type_names);
        self.type_names.push(name.clone());
        self.case.types.push(TypeDef::Newtype(NewtypeDef {
            name,
            doc: words::doc(&mut self.rng),
            inner,
            markers,
        }));
        let id = self.case.types.len() - 1;
        self.samples.insert(id, constrained.samples);
        Ty::Named(id)
    }
}

impl Gen {
    /// Sometimes a CEL rule of a named scalar type, merged after the rules of the fields that use
    /// it. A type may be used anywhere, so not a transition rule.
    fn type_rule(&mut self, ty: &Ty, cel_format: bool) -> Option<Marker> {
        if !self.rng.chance(15) {
            return None;
        }
        let place = super::cel::Place {
            correlatable: false,
            cel_format,
        };
        super::cel::field_rule(&mut self.rng, &self.case, ty, place).map(Marker::XValidation)
    }
}

/// A string as Go's `json.Marshal` writes it (`<`, `>` and `&` escaped for HTML): controller-gen
/// sorts `+k8s:enum` values by that text.
fn go_json(value: &str) -> String {
    serde_json::to_string(value)
        .unwrap()
        .replace('&', "\\u0026")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e")
}

impl Ctx {
    pub fn deeper(self) -> Ctx {
        Ctx {
            depth: self.depth + 1,
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k8s_enum_values_sort_as_go_writes_them() {
        let mut values = vec!["Always", "&a", "b"];
        values.sort_by_key(|v| go_json(v));
        // `"\u0026a"` sorts after `"Always"`: `\` is above `A`.
        assert_eq!(values, ["Always", "&a", "b"]);
        assert_eq!(go_json("<&>"), r#""\u003c\u0026\u003e""#);
    }
}

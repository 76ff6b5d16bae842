//! Random legal attributes for a field (chosen by what its schema is where the attributes apply)
//! and for a struct, with defaults and examples that satisfy them.

use super::super::model::{
    Field, K8s, Marker, Number, Scalar, Shape, StructDef, Ty, TypeDef, Value,
};
use super::super::words;
use super::cel::{self, Place};
use super::scalars::{self, Constrained};
use super::{Ctx, Gen};

/// What `mapType` and `structType` take.
const TOPOLOGIES: [&str; 2] = ["atomic", "granular"];

const URLS: [&str; 2] = [
    "https://example.com/docs",
    "https://kubernetes.io/docs/concepts",
];

impl Gen {
    /// The attributes of a field of type `ty`: `implied` (an associative list's keys) and random
    /// ones.
    pub fn field_markers(
        &mut self,
        name: &str,
        ty: &Ty,
        implied: Vec<Marker>,
        ctx: Ctx,
    ) -> Vec<Marker> {
        let mut markers = implied;
        let mut cel_format = cel::formatted(&self.case, ty);
        let samples: Vec<Value> = match self.case.use_site_shape(ty) {
            Some(Shape::Integer | Shape::Number) | Some(Shape::String)
                if *ty != Ty::Scalar(Scalar::Bytes) =>
            {
                let c = self.scalar_markers(ty);
                cel_format |= c.cel_format;
                markers.extend(c.markers);
                c.samples
            }
            Some(Shape::String) => vec![Value::String("aGVsbG8=".into())],
            Some(Shape::Boolean) => vec![Value::Bool(true), Value::Bool(false)],
            Some(Shape::Array) => self.array_markers(ty, &mut markers),
            Some(Shape::Map) => self.map_markers(ty, &mut markers),
            _ => self.untyped_markers(ty, &mut markers),
        };
        if !samples.is_empty() && self.rng.chance(15) {
            markers.push(Marker::Default(self.rng.pick(&samples).clone()));
        }
        if !samples.is_empty() && self.rng.chance(8) {
            markers.push(Marker::Example(self.rng.pick(&samples).clone()));
        }
        if self.rng.chance(5) {
            markers.push(Marker::Title(words::text(&mut self.rng)));
        }
        if self.rng.chance(5) {
            markers.push(Marker::Nullable);
        }
        if self.rng.chance(3) {
            let url = *self.rng.pick(&URLS);
            let description = self.rng.chance(50).then(|| words::text(&mut self.rng));
            markers.push(Marker::ExternalDocs { url, description });
        }
        if self.probe && self.rng.chance(30) {
            self.probe = false;
            self.case.probe = true;
            markers.push(self.misfit(self.case.use_site_shape(ty)));
        }
        let place = Place {
            correlatable: ctx.correlatable,
            cel_format,
        };
        if self.rng.chance(15)
            && let Some(rule) = cel::field_rule(&mut self.rng, &self.case, ty, place)
        {
            markers.push(Marker::XValidation(rule));
        } else if ctx.correlatable
            && self.case.shape(ty) != Shape::Any
            && words::is_identifier(name)
            && self.rng.chance(5)
        {
            // Not beside a rule: controller-gen orders the two by Go's random map iteration. Only
            // on a name CEL reads unescaped (the parent's guard rule names the field).
            markers.push(Marker::Immutable);
        }
        markers
    }

    /// A marker that does not fit a field whose schema is `shape` where markers apply: a probe of
    /// the two generators refusing a case alike.
    fn misfit(&mut self, shape: Option<Shape>) -> Marker {
        let one = Number::Int(1);
        let choices = match shape {
            Some(Shape::Integer) => vec![
                Marker::MaxLength(3),
                Marker::MinItems(1),
                Marker::Minimum(Number::Float(0.5)),
            ],
            Some(Shape::Number | Shape::Boolean) => {
                vec![Marker::MaxLength(3), Marker::MinProperties(1)]
            }
            Some(Shape::String) => vec![Marker::Minimum(one), Marker::MinItems(1)],
            Some(Shape::Array) => vec![Marker::MaxLength(1), Marker::MinProperties(1)],
            Some(Shape::Map) => vec![Marker::MinItems(1), Marker::Maximum(one)],
            _ => vec![
                Marker::Minimum(one),
                Marker::MaxLength(1),
                Marker::MinItems(1),
                Marker::MinProperties(1),
            ],
        };
        self.rng.pick(&choices).clone()
    }

    /// Bounds, lengths, patterns, formats or an enum on a number or string; a named type's own
    /// attributes stay satisfied (only its accepted values are kept as samples).
    fn scalar_markers(&mut self, ty: &Ty) -> Constrained {
        let shape = self.case.shape(ty);
        let mut c = if self.rng.chance(50) {
            match shape {
                Shape::String => scalars::string(&mut self.rng),
                _ => scalars::numeric(&mut self.rng, shape == Shape::Number),
            }
        } else {
            Constrained {
                markers: Vec::new(),
                samples: match shape {
                    Shape::String => (0..3)
                        .map(|_| Value::String(words::string_value(&mut self.rng)))
                        .collect(),
                    Shape::Number => vec![Value::Float(0.5), Value::Int(3)],
                    _ => vec![Value::Int(0), Value::Int(7), Value::Int(-2)],
                },
                cel_format: false,
            }
        };
        if let Ty::Named(id) = ty
            && let Some(accepted) = self.samples.get(id)
        {
            // An enum is its values; a field's own bounds on it would be one more constraint.
            if matches!(self.case.types[*id], TypeDef::Enum(_)) {
                c.markers.clear();
                c.samples = accepted.clone();
            } else {
                c.samples.retain(|s| accepted.contains(s));
            }
        }
        c
    }

    /// Item counts, list type, item attributes and a default list.
    fn array_markers(&mut self, ty: &Ty, markers: &mut Vec<Marker>) -> Vec<Value> {
        let Ty::List(item) = ty else { unreachable!() };
        let set = markers.contains(&Marker::ListType("set"));
        let keyed = markers.contains(&Marker::ListType("map"));
        let item_shape = self.case.use_site_shape(item);
        let mut item_samples = Vec::new();
        if matches!(
            item_shape,
            Some(Shape::Integer | Shape::Number | Shape::String)
        ) && **item != Ty::Scalar(Scalar::Bytes)
        {
            let c = self.scalar_markers(item);
            if !c.markers.is_empty() && self.rng.chance(40) {
                markers.push(Marker::Items(c.markers));
                item_samples = c.samples;
            } else if matches!(**item, Ty::Named(_)) {
                item_samples = c.samples;
            }
        } else if item_shape == Some(Shape::Boolean) && !set {
            item_samples = vec![Value::Bool(true)];
        }
        let (mut min, mut max) = (0, usize::MAX);
        if self.rng.chance(30) {
            min = self.rng.range(0, 2) as usize;
            markers.push(Marker::MinItems(min as u32));
        }
        if self.rng.chance(30) {
            max = min + self.rng.range(0, 10) as usize;
            markers.push(Marker::MaxItems(max as u32));
        }
        if self.rng.below(300) == 0 {
            // The API server refuses uniqueItems: both CRDs must be refused alike.
            markers.push(Marker::UniqueItems);
        }
        let mut defaults = Vec::new();
        if min == 0 && !keyed {
            // `{}` is controller-gen's spelling of an empty list default.
            defaults.push(Value::Object(Vec::new()));
        }
        if !item_samples.is_empty() {
            let count = self.rng.range(min as i64, max.min(min + 3) as i64) as usize;
            let items: Vec<Value> = if set {
                self.rng.subset(&item_samples, count)
            } else {
                (0..count)
                    .map(|_| self.rng.pick(&item_samples).clone())
                    .collect()
            };
            // Go's marker syntax has no empty list: `{}` is an empty object, which only a
            // default turns into `[]` (above).
            if items.len() >= min && !items.is_empty() {
                defaults.push(Value::List(items));
            }
        }
        defaults
    }

    /// Property counts, map type, and a default map.
    fn map_markers(&mut self, ty: &Ty, markers: &mut Vec<Marker>) -> Vec<Value> {
        let Ty::Map(value) = ty else { unreachable!() };
        let (mut min, mut max) = (0, u32::MAX);
        if self.rng.chance(20) {
            min = self.rng.range(0, 1) as u32;
            markers.push(Marker::MinProperties(min));
        }
        if self.rng.chance(20) {
            max = min + self.rng.range(0, 10) as u32;
            markers.push(Marker::MaxProperties(max));
        }
        if self.rng.chance(10) {
            markers.push(Marker::MapType(self.rng.choose(&TOPOLOGIES)));
        }
        let mut defaults = Vec::new();
        if min == 0 {
            defaults.push(Value::Object(Vec::new()));
        }
        let value_sample = match self.case.shape(value) {
            Shape::String if **value == Ty::Scalar(Scalar::String) => {
                Some(Value::String(words::string_value(&mut self.rng)))
            }
            Shape::Integer if matches!(**value, Ty::Scalar(_)) => Some(Value::Int(3)),
            Shape::Boolean => Some(Value::Bool(false)),
            _ => None,
        };
        if let Some(sample) = value_sample.filter(|_| max >= 1) {
            let key = words::string_value(&mut self.rng);
            defaults.push(Value::Object(vec![(key, sample)]));
        }
        defaults
    }

    /// What applies to a reference (a struct, a type of k8s.io, any JSON), which has no type
    /// where the field's markers apply.
    fn untyped_markers(&mut self, ty: &Ty, markers: &mut Vec<Marker>) -> Vec<Value> {
        match ty {
            Ty::Named(id) => {
                if self.rng.chance(8) {
                    markers.push(Marker::StructType(self.rng.choose(&TOPOLOGIES)));
                }
                if self.rng.chance(3) {
                    markers.push(Marker::PreserveUnknownFields);
                }
                if self.has_required(*id) {
                    Vec::new()
                } else {
                    vec![Value::Object(Vec::new())]
                }
            }
            Ty::K8s(K8s::RawExtension) => {
                if self.rng.chance(20) {
                    markers.push(Marker::EmbeddedResource);
                }
                vec![Value::Object(Vec::new())]
            }
            Ty::K8s(K8s::Quantity) => vec![
                Value::String("1Gi".into()),
                Value::String("500m".into()),
                Value::Int(1),
            ],
            Ty::K8s(K8s::IntOrString) => vec![Value::String("50%".into()), Value::Int(8080)],
            Ty::Json => {
                if self.rng.chance(15) {
                    markers.push(Marker::IntOrString);
                }
                Vec::new()
            }
            _ => Vec::new(),
        }
    }

    /// Whether the struct `id` (or a struct embedded in it) has a required field.
    fn has_required(&self, id: usize) -> bool {
        self.case.struct_def(id).fields.iter().any(|f| {
            if f.inline {
                matches!(f.ty, Ty::Named(inner) if self.has_required(inner))
            } else {
                f.required(self.case.package_optional)
            }
        })
    }

    /// Attributes of a struct: property counts, CEL rules on its fields, one-of constraints.
    pub fn struct_markers(&mut self, def: &StructDef, ctx: Ctx) -> Vec<Marker> {
        let mut markers = Vec::new();
        let own: Vec<&Field> = def.fields.iter().filter(|f| !f.inline).collect();
        if self.rng.chance(5) {
            markers.push(Marker::MinProperties(
                self.rng.range(0, own.len().min(1) as i64) as u32,
            ));
        }
        if self.rng.chance(5) {
            markers.push(Marker::MaxProperties(def.fields.len() as u32 + 8));
        }
        let place = Place {
            correlatable: ctx.correlatable,
            cel_format: false,
        };
        for _ in 0..self.rng.range(0, 2) {
            if self.rng.chance(40)
                && let Some(rule) = cel::struct_rule(&mut self.rng, &self.case, def, place)
            {
                markers.push(Marker::XValidation(rule));
            }
        }
        // A one-of rule reads its fields with `has()`, which CEL cannot do on arbitrary JSON.
        let optional: Vec<String> = own
            .iter()
            .filter(|f| {
                !f.required(self.case.package_optional)
                    && f.ty != Ty::Json
                    && words::is_identifier(&f.name)
            })
            .map(|f| f.name.clone())
            .collect();
        // Repeated one-of constraints are rules of their own.
        for _ in 0..self.rng.range(1, 2) {
            if optional.len() >= 2 && self.rng.chance(20) {
                let count = self.rng.range(2, optional.len().min(3) as i64) as usize;
                let fields = self.rng.subset(&optional, count);
                markers.push(match self.rng.below(3) {
                    0 => Marker::AtMostOneOf(fields),
                    1 => Marker::ExactlyOneOf(fields),
                    _ => Marker::AtLeastOneOf(fields),
                });
            }
        }
        if self.rng.chance(3) {
            markers.push(Marker::StructType(self.rng.choose(&TOPOLOGIES)));
        }
        if self.rng.chance(3) {
            markers.push(Marker::Title(words::text(&mut self.rng)));
        }
        if self.rng.chance(3) {
            let url = *self.rng.pick(&URLS);
            let description = self.rng.chance(50).then(|| words::text(&mut self.rng));
            markers.push(Marker::ExternalDocs { url, description });
        }
        markers
    }
}

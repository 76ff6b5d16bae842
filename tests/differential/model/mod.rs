//! One random API: a kind, its named types and their attributes, in a form both writers read
//! (`go` writes it as Go with kubebuilder markers, `rust` as Rust with webop attributes).
//! The model says what the API means; each writer chooses its language's spelling.

mod marker;

pub use marker::{Marker, Number, Rule, Value};

/// A kind and everything its CRD is made of.
#[derive(Clone, Debug)]
pub struct Case {
    /// `c0042`: the Go package and the Rust module of the case.
    pub name: String,
    pub group: String,
    pub version: String,
    pub kind: String,
    /// `+kubebuilder:resource:path=...`; flect's plural of the kind when `None`.
    pub plural: Option<String>,
    pub singular: Option<String>,
    pub short_names: Vec<String>,
    pub categories: Vec<String>,
    pub cluster_scoped: bool,
    /// The root type's doc comment.
    pub root_doc: Doc,
    /// `Spec` without `omitempty`.
    pub spec_required: bool,
    /// The status type, and whether it is the status subresource.
    pub status: Option<(TypeId, bool)>,
    pub scale: Option<Scale>,
    pub printcolumns: Vec<PrintColumn>,
    /// The package-level `+kubebuilder:validation:Optional`: fields are optional unless marked.
    pub package_optional: bool,
    pub spec: TypeId,
    pub types: Vec<TypeDef>,
    /// One attribute was put where it does not fit, on purpose: both generators must refuse the
    /// case.
    pub probe: bool,
}

/// An index into `Case::types`.
pub type TypeId = usize;

/// The lines of a doc comment (without `//` or `///`); empty for none.
pub type Doc = Vec<String>;

#[derive(Clone, Debug)]
pub struct Scale {
    pub spec_path: String,
    pub status_path: String,
    pub selector_path: Option<String>,
}

#[derive(Clone, Debug)]
pub struct PrintColumn {
    pub name: String,
    pub type_: &'static str,
    pub json_path: String,
    pub description: Option<String>,
    pub format: Option<&'static str>,
    pub priority: Option<u32>,
}

/// A named type of the case.
#[derive(Clone, Debug)]
pub enum TypeDef {
    Struct(StructDef),
    /// Go: `type Name string` with an enum marker; Rust: an enum of unit variants.
    Enum(EnumDef),
    /// Go: `type Name int32` (a named scalar); Rust: `struct Name(i32)`.
    Newtype(NewtypeDef),
}

impl TypeDef {
    pub fn name(&self) -> &str {
        match self {
            TypeDef::Struct(s) => &s.name,
            TypeDef::Enum(e) => &e.name,
            TypeDef::Newtype(n) => &n.name,
        }
    }
}

#[derive(Clone, Debug)]
pub struct StructDef {
    pub name: String,
    pub doc: Doc,
    pub fields: Vec<Field>,
    pub markers: Vec<Marker>,
}

#[derive(Clone, Debug)]
pub struct EnumDef {
    pub name: String,
    pub doc: Doc,
    /// The values, in declaration order.
    pub values: Vec<String>,
    pub markers: Vec<Marker>,
    /// Go spells it `+k8s:enum` with constants rather than an enum marker. controller-gen sorts
    /// those values by their JSON text, so only sorted values are spelled so.
    pub go_k8s_enum: bool,
}

#[derive(Clone, Debug)]
pub struct NewtypeDef {
    pub name: String,
    pub doc: Doc,
    pub inner: Scalar,
    pub markers: Vec<Marker>,
}

#[derive(Clone, Debug)]
pub struct Field {
    /// The JSON name.
    pub name: String,
    pub doc: Doc,
    pub ty: Ty,
    pub presence: Presence,
    pub markers: Vec<Marker>,
    /// An embedded struct (Go `json:",inline"`, Rust `#[serde(flatten)]`); `ty` is a struct.
    pub inline: bool,
    /// Go writes an optional struct as a value with `omitempty` rather than a pointer.
    pub go_value: bool,
    /// Rust writes an optional list or map as `#[serde(default)] Vec<T>` rather than `Option`.
    pub rust_serde_default: bool,
}

/// How a field says whether it may be absent. The spelling differs between the languages; the
/// meaning is what controller-gen gives the Go spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presence {
    /// Go `json:"x"`, Rust `T`: required, unless the package is optional.
    Plain,
    /// Go `omitempty`, Rust `Option<T>` (or a default): optional.
    OmitEmpty,
    /// Go `omitempty` with a required marker, Rust `#[validate(required)]` on an `Option`.
    MarkedRequired(MarkerSpelling),
    /// Go without `omitempty` with an optional marker, Rust `#[validate(optional)]`.
    MarkedOptional(MarkerSpelling),
}

/// Go has three spellings of required and optional: `+kubebuilder:validation:Required`,
/// `+required`, `+k8s:required`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkerSpelling {
    Kubebuilder,
    Short,
    K8s,
}

impl Field {
    /// Whether the field is in its struct's `required` list.
    pub fn required(&self, package_optional: bool) -> bool {
        match self.presence {
            Presence::Plain => !package_optional,
            Presence::MarkedRequired(_) => true,
            Presence::OmitEmpty | Presence::MarkedOptional(_) => false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scalar {
    Int32,
    Int64,
    Float64,
    String,
    Bool,
    /// Go `[]byte`, Rust `Vec<u8>`: a base64 string.
    Bytes,
}

/// The types of k8s.io/api and k8s.io/apimachinery a field may have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum K8s {
    Time,
    MicroTime,
    Quantity,
    IntOrString,
    Condition,
    LabelSelector,
    ResourceRequirements,
    LocalObjectReference,
    ObjectReference,
    EnvVar,
    Toleration,
    RawExtension,
    ObjectMeta,
}

impl K8s {
    pub const ALL: [K8s; 13] = [
        K8s::Time,
        K8s::MicroTime,
        K8s::Quantity,
        K8s::IntOrString,
        K8s::Condition,
        K8s::LabelSelector,
        K8s::ResourceRequirements,
        K8s::LocalObjectReference,
        K8s::ObjectReference,
        K8s::EnvVar,
        K8s::Toleration,
        K8s::RawExtension,
        K8s::ObjectMeta,
    ];

    /// What its flattened schema is.
    pub fn shape(self) -> Shape {
        match self {
            K8s::Time | K8s::MicroTime => Shape::String,
            K8s::Quantity | K8s::IntOrString => Shape::IntOrString,
            K8s::RawExtension | K8s::ObjectMeta => Shape::OpaqueObject,
            _ => Shape::Object,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Scalar(Scalar),
    List(Box<Ty>),
    Map(Box<Ty>),
    Named(TypeId),
    K8s(K8s),
    /// Any JSON: Go `runtime.RawExtension` marked schemaless and preserving unknown fields,
    /// Rust `serde_json::Value`.
    Json,
}

/// What a schema is, as far as markers and CEL rules care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Integer,
    Number,
    String,
    Boolean,
    Array,
    Map,
    /// A struct with known fields.
    Object,
    /// An object whose fields are not known (RawExtension, ObjectMeta).
    OpaqueObject,
    IntOrString,
    /// No type at all (any JSON).
    Any,
}

impl Case {
    /// What the flattened schema of `ty` is.
    pub fn shape(&self, ty: &Ty) -> Shape {
        match ty {
            Ty::Scalar(s) => s.shape(),
            Ty::List(_) => Shape::Array,
            Ty::Map(_) => Shape::Map,
            Ty::Named(id) => match &self.types[*id] {
                TypeDef::Struct(_) => Shape::Object,
                TypeDef::Enum(_) => Shape::String,
                TypeDef::Newtype(n) => n.inner.shape(),
            },
            Ty::K8s(k8s) => k8s.shape(),
            Ty::Json => Shape::Any,
        }
    }

    /// What the schema of `ty` is where a field's markers apply to it, before its named type is
    /// merged in: controller-gen's reference to a struct or to a type of another package has no
    /// type (so markers that check the type refuse it); a reference to a named scalar has the
    /// scalar's type.
    pub fn use_site_shape(&self, ty: &Ty) -> Option<Shape> {
        match ty {
            Ty::Named(id) if matches!(self.types[*id], TypeDef::Struct(_)) => None,
            Ty::K8s(_) | Ty::Json => None,
            _ => Some(self.shape(ty)),
        }
    }

    pub fn struct_def(&self, id: TypeId) -> &StructDef {
        match &self.types[id] {
            TypeDef::Struct(s) => s,
            other => panic!("{} is not a struct", other.name()),
        }
    }
}

impl Scalar {
    pub fn shape(self) -> Shape {
        match self {
            Scalar::Int32 | Scalar::Int64 => Shape::Integer,
            Scalar::Float64 => Shape::Number,
            Scalar::String | Scalar::Bytes => Shape::String,
            Scalar::Bool => Shape::Boolean,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn required_follows_controller_gens_rules() {
        let field = |presence| Field {
            name: "a".into(),
            doc: vec![],
            ty: Ty::Scalar(Scalar::String),
            presence,
            markers: vec![],
            inline: false,
            go_value: false,
            rust_serde_default: false,
        };
        assert!(field(Presence::Plain).required(false));
        assert!(!field(Presence::Plain).required(true));
        assert!(field(Presence::MarkedRequired(MarkerSpelling::K8s)).required(true));
        assert!(!field(Presence::MarkedOptional(MarkerSpelling::Short)).required(false));
        assert!(!field(Presence::OmitEmpty).required(false));
    }
}

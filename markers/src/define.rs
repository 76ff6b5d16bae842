//! What the catalogue's rows become: the runtime [`Marker`], the payload-free [`MarkerKind`]
//! and the [`CATALOGUE`] of specs, all three in row order.

// The rows name payloads, text rules and record fields without their paths.
use crate::Payload::*;
use crate::TextRule::*;
use crate::{
    Example, ExternalDocs, Family, Fits, MarkerSpec, Place, REASONS, RecordField, XValidation,
};

macro_rules! define_markers {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $(($payload_type:ty))? {
            example: $place:ident(#[$attribute:meta] $(#[$given:meta])* $example_type:ty),
            go: $go:literal,
            key: $key:literal in [$($family:ident),+],
            payload: $payload:expr,
            on: [$($on:ident),+],
            fits: $fits:ident,
            priority: $priority:literal,
            $(repeatable: $repeatable:literal,)?
        }
    )*) => {
        /// One schema attribute in the form derived code builds: every payload is `'static`,
        /// so a type's markers are a constant. JSON values (`default`, `example`, `enum`) are
        /// JSON texts, checked at compile time. `webop::schema::apply` applies them with
        /// controller-gen's semantics.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Marker {
            $($(#[doc = $doc])* $name $(($payload_type))?,)*
        }

        /// Which marker, without its payload.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum MarkerKind {
            $($(#[doc = $doc])* $name,)*
        }

        impl Marker {
            pub fn kind(&self) -> MarkerKind {
                match self {
                    $(Marker::$name { .. } => MarkerKind::$name,)*
                }
            }

            /// What the catalogue says about this marker.
            pub fn spec(&self) -> &'static MarkerSpec {
                self.kind().spec()
            }
        }

        impl MarkerKind {
            pub fn spec(self) -> &'static MarkerSpec {
                &CATALOGUE[self as usize]
            }
        }

        /// Every schema marker, in the catalogue's order.
        pub const CATALOGUE: &[MarkerSpec] = &[$(
            MarkerSpec {
                kind: MarkerKind::$name,
                name: stringify!($name),
                go: $go,
                key: $key,
                families: &[$(Family::$family),+],
                payload: $payload,
                on: &[$(Place::$on),+],
                fits: Fits::$fits,
                priority: $priority,
                repeatable: false $(|| $repeatable)?,
                example: Example {
                    place: define_markers!(@place $place),
                    attribute: stringify!(#[$attribute]),
                    given: &[$(stringify!(#[$given])),*],
                    ty: stringify!($example_type),
                },
            },
        )*];
    };
    (@place field) => { Place::Field };
    (@place type) => { Place::Type };
}

crate::catalogue!(define_markers);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_index_their_own_rows() {
        for (index, spec) in CATALOGUE.iter().enumerate() {
            assert_eq!(spec.kind as usize, index, "{}", spec.key);
            assert_eq!(spec.kind.spec(), spec);
        }
    }

    #[test]
    fn a_key_names_one_marker_per_attribute() {
        for spec in CATALOGUE {
            for family in spec.families {
                assert_eq!(
                    MarkerSpec::find(*family, spec.key).map(|s| s.kind),
                    Some(spec.kind),
                    "{} in #[{}]",
                    spec.key,
                    family.attribute()
                );
            }
        }
    }

    #[test]
    fn runtime_markers_know_their_spec() {
        let markers = [
            Marker::Minimum(1.0),
            Marker::Nullable,
            Marker::ExternalDocs(ExternalDocs {
                url: "https://example.com",
                description: None,
            }),
        ];
        let keys: Vec<&str> = markers.iter().map(|m| m.spec().key).collect();
        assert_eq!(keys, ["minimum", "nullable", "external_docs"]);
        assert_eq!(Marker::Type("string").spec().priority, 9);
    }

    #[test]
    fn every_example_is_written_where_its_marker_may_be() {
        for spec in CATALOGUE {
            assert!(spec.on.contains(&spec.example.place), "{}", spec.key);
            assert!(spec.example.attribute.contains(spec.key), "{}", spec.key);
        }
    }
}

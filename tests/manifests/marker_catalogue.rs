//! Every marker of the catalogue (`webop-markers`) through `#[derive(Schema)]`: each row's example
//! compiles, so its attribute parses, fits its field and becomes a `webop::schema::Marker` of
//! the right payload type; and the schema with the marker differs from the same struct without
//! it, so the marker applies. (webop-attrs' `every_marker_parses_checks_and_emits` checks the
//! refusals.)

use webop::schema::{CATALOGUE, JSONSchemaProps};

/// A module per row: `With` carries the example's marker, `Without` only what is given beside it.
macro_rules! examples {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident $(($payload_type:ty))? {
            example: $place:ident(#[$marker:meta] $(#[$given:meta])* $ty:ty),
            $($rest:tt)*
        }
    )*) => {
        $(
            #[allow(non_snake_case, dead_code)]
            pub mod $name {
                use webop::prelude::*;

                #[derive(Schema)]
                pub struct Without {
                    $(#[$given])*
                    pub field: $ty,
                }

                examples!(@with $place #[$marker] $(#[$given])* $ty);
            }
        )*

        /// Each row's name, and its schema with and without the marker.
        pub fn schemas() -> Vec<(&'static str, JSONSchemaProps, JSONSchemaProps)> {
            use webop::schema::Schema;
            vec![$((stringify!($name), $name::With::schema(), $name::Without::schema()),)*]
        }
    };
    (@with field #[$marker:meta] $(#[$given:meta])* $ty:ty) => {
        #[derive(Schema)]
        pub struct With {
            #[$marker]
            $(#[$given])*
            pub field: $ty,
        }
    };
    (@with type #[$marker:meta] $(#[$given:meta])* $ty:ty) => {
        #[derive(Schema)]
        #[$marker]
        pub struct With {
            $(#[$given])*
            pub field: $ty,
        }
    };
}

mod examples {
    use super::*;

    webop_markers::catalogue!(examples);
}

#[test]
fn every_marker_compiles_and_applies() {
    let schemas = examples::schemas();
    assert_eq!(schemas.len(), CATALOGUE.len());
    for ((name, with, without), spec) in schemas.iter().zip(CATALOGUE) {
        assert_eq!(*name, spec.name);
        assert_ne!(
            with, without,
            "{name}: the schema is the same without the marker"
        );
    }
}

//! The definitions of the named types a schema refers to (controller-gen's `Parser.Schemata`).

use std::collections::BTreeMap;

use super::JSONSchemaProps;

/// Named types' schemas, keyed by their Rust type name.
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    /// `None` while the definition is being built, to catch a type that contains itself.
    schemas: BTreeMap<&'static str, Option<JSONSchemaProps>>,
}

impl Definitions {
    /// A reference to the named type `T`, defining it (once) with `define`. `reference` holds what
    /// the reference itself says before flattening: nothing for a struct, the type and format of
    /// a named scalar (as controller-gen's reference to `type Phase string` carries
    /// `type: string`), so attributes at the use site are checked against it.
    pub fn named<T: ?Sized>(
        &mut self,
        reference: JSONSchemaProps,
        define: impl FnOnce(&mut Definitions) -> JSONSchemaProps,
    ) -> JSONSchemaProps {
        let id = std::any::type_name::<T>();
        match self.schemas.get(id) {
            Some(Some(_)) => {}
            Some(None) => panic!(
                "webop: {id} contains itself; a CRD schema cannot be recursive (use serde_json::Value with #[schema(preserve_unknown_fields)] for open-ended data)"
            ),
            None => {
                self.schemas.insert(id, None);
                let definition = define(self);
                self.schemas.insert(id, Some(definition));
            }
        }
        JSONSchemaProps {
            ref_path: Some(id.to_owned()),
            ..reference
        }
    }

    /// The definition a reference points at.
    pub fn get(&self, reference: &str) -> Option<&JSONSchemaProps> {
        self.schemas.get(reference).and_then(Option::as_ref)
    }
}

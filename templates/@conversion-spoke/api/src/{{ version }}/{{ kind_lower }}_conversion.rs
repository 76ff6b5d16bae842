//! {{ kind }} {{ version }} is a spoke of the conversion webhook of {{ kind }} (kubebuilder's
//! api/{{ version }}/{{ kind_lower }}_conversion.go): it converts to and from the hub {{ hub }},
//! the version the API server stores.
//!
//! webop wrote the conversion of the fields both versions have with the same type.
//! TODO(user): convert the fields that differ, so that a round trip loses nothing.

use webop::webhook::{ConversionError, Convertible};

use super::{{ kind }};
use crate::{{ group_prefix }}{{ hub }};

impl Convertible<{{ hub }}::{{ kind }}> for {{ kind }} {
    fn convert_to(&self) -> Result<{{ hub }}::{{ kind }}, ConversionError> {
{{ convert_to }}
    }

    fn convert_from(hub: &{{ hub }}::{{ kind }}) -> Result<Self, ConversionError> {
{{ convert_from }}
    }
}

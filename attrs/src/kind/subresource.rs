//! `#[subresource(status, scale(...))]`: controller-gen's `+kubebuilder:subresource:status` and
//! `+kubebuilder:subresource:scale`.

use proc_macro2::Span;
use syn::LitStr;

use super::json_path;
use crate::args::{Arg, ArgValue, Seen, unknown_key};
use crate::errors::Errors;

/// The scale subresource's JSON paths.
#[derive(Clone, Debug)]
pub struct Scale {
    pub spec_path: String,
    pub status_path: String,
    pub selector_path: Option<String>,
    /// The `scale` key, where path errors point.
    pub span: Span,
}

/// The arguments of every `#[subresource]` so far.
#[derive(Default)]
pub(super) struct Builder {
    /// `status`: the kind has the status subresource.
    pub(super) status: bool,
    /// `status = "Type"`: the status type, when it is not `<Kind>Status`.
    pub(super) status_type: Option<LitStr>,
    pub(super) scale: Option<Scale>,
    seen: Seen,
}

impl Builder {
    pub(super) fn add(&mut self, args: &[Arg], errors: &Errors) {
        for arg in args {
            if errors.ok(self.seen.once(arg)).is_some() {
                errors.ok(self.arg(arg));
            }
        }
    }

    fn arg(&mut self, arg: &Arg) -> syn::Result<()> {
        match arg.name().as_str() {
            "status" => {
                self.status = true;
                if let ArgValue::Value(_) = arg.value {
                    self.status_type = Some(arg.non_empty_string()?);
                }
            }
            "scale" => self.scale = Some(scale(arg)?),
            _ => return Err(unknown_key(arg, "subresource", &["status", "scale"])),
        }
        Ok(())
    }
}

fn scale(arg: &Arg) -> syn::Result<Scale> {
    let (mut spec, mut status, mut selector) = (None, None, None);
    let errors = Errors::new();
    let mut seen = Seen::default();
    for inner in &arg.nested()? {
        if errors.ok(seen.once(inner)).is_none() {
            continue;
        }
        let path = match inner.name().as_str() {
            "spec_path" => &mut spec,
            "status_path" => &mut status,
            "selector_path" => &mut selector,
            _ => {
                errors.push(unknown_key(
                    inner,
                    "subresource(scale)",
                    &["spec_path", "status_path", "selector_path"],
                ));
                continue;
            }
        };
        *path = errors.ok(json_path(inner));
    }
    let need = |what: &str| {
        syn::Error::new(
            arg.key.span(),
            format!("`scale(...)` needs `{what} = \"...\"`"),
        )
    };
    // A path written with a bad value is reported as such, not as missing.
    let written = |key: &str| seen.contains(key);
    for (key, path) in [("spec_path", &spec), ("status_path", &status)] {
        if path.is_none() && !written(key) {
            errors.push(need(key));
        }
    }
    errors.finish()?;
    Ok(Scale {
        spec_path: spec.expect("checked above"),
        status_path: status.expect("checked above"),
        selector_path: selector,
        span: arg.key.span(),
    })
}

//! Every error found while reading attributes, reported together: a user sees all bad
//! attributes of an item in one compile (serde_derive's `Ctxt`).

use std::cell::RefCell;

/// The errors found so far. Parsers take `&Errors`, push what they find and go on with the next
/// argument, attribute or field; the caller turns them into one `syn::Error` with [`finish`].
///
/// [`finish`]: Errors::finish
#[derive(Default)]
pub struct Errors(RefCell<Vec<syn::Error>>);

impl Errors {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn push(&self, error: syn::Error) {
        self.0.borrow_mut().push(error);
    }

    /// The value, or `None` after pushing the error.
    pub fn ok<T>(&self, result: syn::Result<T>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(error) => {
                self.push(error);
                None
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }

    /// `Ok` if nothing was found, or every error combined in the order found.
    pub fn finish(self) -> syn::Result<()> {
        let mut errors = self.0.into_inner().into_iter();
        let Some(mut first) = errors.next() else {
            return Ok(());
        };
        for error in errors {
            first.combine(error);
        }
        Err(first)
    }

    /// `value` if nothing was found, or every error combined.
    pub fn finish_with<T>(self, value: T) -> syn::Result<T> {
        self.finish().map(|()| value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proc_macro2::Span;

    #[test]
    fn every_error_is_kept_in_order() {
        let errors = Errors::new();
        assert_eq!(errors.ok(Ok::<_, syn::Error>(1)), Some(1));
        errors.push(syn::Error::new(Span::call_site(), "first"));
        assert_eq!(
            errors.ok::<()>(Err(syn::Error::new(Span::call_site(), "second"))),
            None
        );
        let all: Vec<String> = errors
            .finish()
            .unwrap_err()
            .into_iter()
            .map(|e| e.to_string())
            .collect();
        assert_eq!(all, ["first", "second"]);
        assert!(Errors::new().finish().is_ok());
    }
}

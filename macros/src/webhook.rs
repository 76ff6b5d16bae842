//! `#[webhook(...)]` and `#[webhook_configuration(...)]`: checked at compile time, the item left
//! as it is; `webop manifests` collects them from source into config/webhook/manifests.yaml.

use proc_macro2::{Span, TokenStream};

/// `item`, after the attribute's arguments passed `check`; else their errors, and the item.
pub fn expand<T>(
    check: fn(TokenStream, Span) -> syn::Result<T>,
    args: TokenStream,
    item: TokenStream,
) -> TokenStream {
    match check(args, Span::call_site()) {
        Ok(_) => item,
        Err(error) => {
            let mut output = error.to_compile_error();
            output.extend(item);
            output
        }
    }
}

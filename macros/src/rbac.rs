//! `#[rbac(...)]`: checks the rule at compile time and leaves the item as it is.
//! `webop manifests` collects the rules from source; nothing is generated here.

use proc_macro2::{Span, TokenStream};

pub fn expand(args: TokenStream, item: TokenStream) -> TokenStream {
    match webop_attrs::rbac::parse_args(args, Span::call_site()) {
        Ok(_) => item,
        Err(error) => {
            // The item is kept so that a bad rule does not also hide the item from the compiler.
            let mut output = error.to_compile_error();
            output.extend(item);
            output
        }
    }
}

//! `<Kind>::crd_version()`: this version of the kind as a `webop::crd::CrdVersion` (names,
//! scope, schema, printer columns, subresources, version state, CRD metadata), and
//! `<Kind>::crd()`, the CRD of that version alone.

use proc_macro2::TokenStream;
use quote::quote;
use webop_attrs::input::Input;
use webop_attrs::kind::{self, KindAttrs, VersionRole};

use crate::kind_checks::has_spec;
use crate::paths::{k8s, root_ident};

fn opt_str(value: &Option<String>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// `<Kind>::crd_version()` and `<Kind>::crd()`.
pub fn crd_version(input: &Input, attrs: &KindAttrs) -> TokenStream {
    let k8s = k8s();
    let vis = input.vis;
    let spec = input.ident;
    let root = root_ident(attrs);
    let kind::Resource {
        group,
        version,
        kind,
        plural,
        singular,
        short_names,
        categories,
        namespaced,
        doc,
        spec_required,
        flatten_spec,
        status_required,
        skip_crd,
        ..
    } = &attrs.resource;
    let doc = opt_str(doc);
    let status_schema = match &attrs.status.ty {
        Some(status) => {
            quote!(::core::option::Option::Some(<#status as ::webop::schema::Schema>::schema()))
        }
        None => quote!(::core::option::Option::None),
    };
    let status_subresource = attrs.status.subresource;
    let spec_schema = if has_spec(input) {
        quote!(::core::option::Option::Some(<#spec as ::webop::schema::Schema>::use_site(&mut defs)))
    } else {
        quote!(::core::option::Option::None)
    };
    let rules = webop_attrs::schema::slice(&attrs.root_rules);
    let root_schema = if *flatten_spec {
        quote!(::webop::crd::flattened_root_schema(&defs, #doc, spec.expect("a flattened spec has fields"), status, #status_required, #rules))
    } else {
        // In the order of the Go root's fields: `Spec`, then `Status`.
        let required = [("spec", *spec_required), ("status", *status_required)]
            .into_iter()
            .filter_map(|(name, required)| required.then_some(name));
        quote!(::webop::crd::root_schema(&defs, #doc, spec, status, &[#(#required),*], #rules))
    };
    let columns = attrs.printer_columns.iter().map(|c| {
        let (name, type_, json_path, priority) = (&c.name, &c.type_, &c.json_path, c.priority);
        let (description, format) = (opt_str(&c.description), opt_str(&c.format));
        quote! {
            ::webop::crd::PrinterColumn {
                name: #name, type_: #type_, json_path: #json_path,
                description: #description, format: #format, priority: #priority,
            }
        }
    });
    let scale = match &attrs.scale {
        Some(s) => {
            let (spec_path, status_path, selector) =
                (&s.spec_path, &s.status_path, opt_str(&s.selector_path));
            quote!(::core::option::Option::Some(::webop::crd::Scale {
                spec_path: #spec_path, status_path: #status_path, selector_path: #selector,
            }))
        }
        None => quote!(::core::option::Option::None),
    };
    let version_state = &attrs.version;
    let storage = version_state.role == VersionRole::Storage;
    let skip = version_state.role == VersionRole::Skipped;
    let (served, crd) = (version_state.served, !skip_crd);
    let deprecated = match &version_state.deprecation {
        Some(deprecation) => {
            let warning = opt_str(&deprecation.warning);
            quote!(::core::option::Option::Some(#warning))
        }
        None => quote!(::core::option::Option::None),
    };
    let (selectable, annotations, labels) = (
        &attrs.selectable_fields,
        &attrs.metadata.annotations,
        &attrs.metadata.labels,
    );
    let crd_type = quote!(#k8s::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition);
    quote! {
        impl #root {
            /// This version of the kind, for `webop::crd::assemble` (which merges the versions
            /// of a kind into one CRD).
            #vis fn crd_version() -> ::webop::crd::CrdVersion {
                #[allow(unused_mut)] // a kind without spec and status defines nothing
                let mut defs = ::webop::schema::Definitions::default();
                let spec = #spec_schema;
                let status = #status_schema;
                ::webop::crd::CrdVersion {
                    group: #group,
                    version: #version,
                    kind: #kind,
                    names: ::webop::crd::Names {
                        plural: #plural,
                        singular: #singular,
                        short_names: &[#(#short_names),*],
                        categories: &[#(#categories),*],
                    },
                    namespaced: #namespaced,
                    schema: #root_schema,
                    printer_columns: &[#(#columns),*],
                    status_subresource: #status_subresource,
                    scale: #scale,
                    storage: #storage,
                    served: #served,
                    skip: #skip,
                    crd: #crd,
                    deprecated: #deprecated,
                    selectable_fields: &[#(#selectable),*],
                    annotations: &[#(#annotations),*],
                    labels: &[#(#labels),*],
                }
            }

            /// The CRD of this version alone (a kind with several versions gets its CRD from
            /// `webop::crd::assemble` over all of them).
            #vis fn crd() -> #crd_type {
                ::webop::crd::single(Self::crd_version())
            }
        }
    }
}

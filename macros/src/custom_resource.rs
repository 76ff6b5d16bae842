//! `#[derive(CustomResource)]` on `<Kind>Spec`: the spec's schema, the root type `<Kind>` and its
//! kube traits; `crd_version` adds the `CrdVersion` that becomes its CRD.

use proc_macro2::TokenStream;
use quote::quote;
use syn::DeriveInput;
use webop_attrs::errors::Errors;
use webop_attrs::input::Input;
use webop_attrs::kind::{self, KindAttrs};

use crate::crd_version::crd_version;
use crate::kind_checks::{check_unit_spec, flattened_spec_checks, has_spec, scale_checks};
use crate::paths::{k8s, kube_core, root_ident};
use crate::schema_derive;

pub fn expand(ast: &DeriveInput) -> syn::Result<TokenStream> {
    if !ast.generics.params.is_empty() {
        return Err(syn::Error::new_spanned(
            &ast.generics,
            "a custom resource's spec cannot be generic",
        ));
    }
    let errors = Errors::new();
    // The kind's attributes first: they are written above the fields.
    let attrs = kind::parse(&ast.attrs, &ast.ident, &errors);
    let input = Input::from_ast(ast, &errors);
    let spec_schema = if has_spec(&input) {
        schema_derive::expand(&input, &errors)
    } else {
        if let Some(attrs) = &attrs {
            check_unit_spec(&input, attrs, &errors);
        }
        quote!()
    };
    let scale_checks = attrs
        .as_ref()
        .map(|attrs| scale_checks(&input, attrs, &errors));
    errors.finish()?;
    let attrs = attrs.expect("no errors, so a kind");
    let input = &input;
    let root = root_type(input, &attrs);
    let resource = resource_impls(input, &attrs);
    let crd = crd_version(input, &attrs);
    let flattened_spec_checks = flattened_spec_checks(input, &attrs);
    Ok(quote! {
        #spec_schema
        #root
        #resource
        #crd
        #scale_checks
        #flattened_spec_checks
    })
}

fn root_type(input: &Input, attrs: &KindAttrs) -> TokenStream {
    let (k8s, serde) = (k8s(), quote!(::webop::__private::serde));
    let vis = input.vis;
    let spec = input.ident;
    let root = root_ident(attrs);
    let meta = quote!(#k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta);
    let doc = attrs.resource.doc.clone().unwrap_or_else(|| {
        format!(
            "The {} custom resource, with {spec} as its spec.",
            attrs.resource.kind
        )
    });
    let (status_field, status_init, status_ser, status_type, status_count) = match &attrs.status.ty
    {
        Some(status) => (
            quote!(#vis status: ::core::option::Option<#status>,),
            quote!(status: ::core::option::Option::None,),
            quote! {
                if let ::core::option::Option::Some(status) = &self.status {
                    state.serialize_field("status", status)?;
                }
            },
            quote!(#status),
            quote!(usize::from(self.status.is_some())),
        ),
        None => (
            quote!(),
            quote!(),
            quote!(),
            quote!(#serde::de::IgnoredAny),
            quote!(0),
        ),
    };
    let status_move = attrs
        .status
        .ty
        .as_ref()
        .map(|_| quote!(status: fields.status,));
    // A kind without a spec keeps the unit value in the root (for `HasSpec`) but never writes it.
    let (spec_count, spec_ser, spec_de, spec_move) = if has_spec(input) {
        (
            quote!(1),
            quote!(state.serialize_field("spec", &self.spec)?;),
            quote!(#spec),
            quote!(fields.spec.ok_or_else(|| <__D::Error as #serde::de::Error>::missing_field("spec"))?),
        )
    } else {
        (
            quote!(0),
            quote!(),
            quote!(#serde::de::IgnoredAny),
            quote!(#spec),
        )
    };
    let kind = &attrs.resource.kind;
    let api_version = quote!(&<Self as ::webop::__private::kube_core::Resource>::api_version(&()));
    let serde_impls = if attrs.resource.flatten_spec {
        let status_ser_type = attrs
            .status
            .ty
            .as_ref()
            .map_or_else(|| quote!(()), |status| quote!(#status));
        let status_ref = attrs.status.ty.as_ref().map_or_else(
            || quote!(::core::option::Option::None),
            |_| quote!(self.status.as_ref()),
        );
        quote! {
            #[automatically_derived]
            impl #serde::Serialize for #root {
                fn serialize<__S: #serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    let object: ::webop::__private::FlattenedSpecObject<'_, #spec, #status_ser_type> =
                        ::webop::__private::FlattenedSpecObject {
                            api_version: #api_version,
                            kind: #kind,
                            metadata: &self.metadata,
                            spec: &self.spec,
                            status: #status_ref,
                        };
                    #serde::Serialize::serialize(&object, serializer)
                }
            }

            #[automatically_derived]
            impl<'de> #serde::Deserialize<'de> for #root {
                fn deserialize<__D: #serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                    let fields = <::webop::__private::FlattenedSpecFields<#spec, #status_type> as #serde::Deserialize>::deserialize(deserializer)?;
                    ::core::result::Result::Ok(Self { metadata: fields.metadata, spec: fields.spec, #status_move })
                }
            }
        }
    } else {
        quote! {
            #[automatically_derived]
            impl #serde::Serialize for #root {
                fn serialize<__S: #serde::Serializer>(&self, serializer: __S) -> ::core::result::Result<__S::Ok, __S::Error> {
                    use #serde::ser::SerializeStruct;
                    let mut state = serializer.serialize_struct(#kind, 3 + #spec_count + #status_count)?;
                    state.serialize_field("apiVersion", #api_version)?;
                    state.serialize_field("kind", #kind)?;
                    state.serialize_field("metadata", &self.metadata)?;
                    #spec_ser
                    #status_ser
                    state.end()
                }
            }

            #[automatically_derived]
            impl<'de> #serde::Deserialize<'de> for #root {
                fn deserialize<__D: #serde::Deserializer<'de>>(deserializer: __D) -> ::core::result::Result<Self, __D::Error> {
                    let fields = <::webop::__private::CustomResourceFields<#spec_de, #status_type> as #serde::Deserialize>::deserialize(deserializer)?;
                    ::core::result::Result::Ok(Self { metadata: fields.metadata, spec: #spec_move, #status_move })
                }
            }
        }
    };
    quote! {
        #[doc = #doc]
        #[derive(Clone, Debug)]
        #vis struct #root {
            #vis metadata: #meta,
            #vis spec: #spec,
            #status_field
        }

        impl #root {
            /// A new object named `name` with `spec` and no status.
            #vis fn new(name: &str, spec: #spec) -> Self {
                Self {
                    metadata: #meta {
                        name: ::core::option::Option::Some(name.to_owned()),
                        ..::core::default::Default::default()
                    },
                    spec,
                    #status_init
                }
            }
        }

        #serde_impls
    }
}

fn resource_impls(input: &Input, attrs: &KindAttrs) -> TokenStream {
    let spec = input.ident;
    let (k8s, kube_core) = (k8s(), kube_core());
    let root = root_ident(attrs);
    let kind::Resource {
        group,
        version,
        kind,
        plural,
        short_names,
        ..
    } = &attrs.resource;
    let api_version = if group.is_empty() {
        version.clone()
    } else {
        format!("{group}/{version}")
    };
    let scope = if attrs.resource.namespaced {
        quote!(#kube_core::NamespaceResourceScope)
    } else {
        quote!(#kube_core::ClusterResourceScope)
    };
    let meta = quote!(#k8s::apimachinery::pkg::apis::meta::v1::ObjectMeta);
    let crd_name = format!("{plural}.{group}");
    let crd_type = quote!(#k8s::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition);
    let status_impl = attrs.status.ty.as_ref().map(|status| {
        quote! {
            #[automatically_derived]
            impl #kube_core::object::HasStatus for #root {
                type Status = #status;
                fn status(&self) -> ::core::option::Option<&#status> {
                    self.status.as_ref()
                }
                fn status_mut(&mut self) -> &mut ::core::option::Option<#status> {
                    &mut self.status
                }
            }
        }
    });
    quote! {
        #[automatically_derived]
        impl #kube_core::Resource for #root {
            type DynamicType = ();
            type Scope = #scope;
            fn kind(_: &()) -> ::std::borrow::Cow<'_, str> { #kind.into() }
            fn group(_: &()) -> ::std::borrow::Cow<'_, str> { #group.into() }
            fn version(_: &()) -> ::std::borrow::Cow<'_, str> { #version.into() }
            fn api_version(_: &()) -> ::std::borrow::Cow<'_, str> { #api_version.into() }
            fn plural(_: &()) -> ::std::borrow::Cow<'_, str> { #plural.into() }
            fn meta(&self) -> &#meta { &self.metadata }
            fn meta_mut(&mut self) -> &mut #meta { &mut self.metadata }
        }

        #[automatically_derived]
        impl #kube_core::object::HasSpec for #root {
            type Spec = #spec;
            fn spec(&self) -> &#spec { &self.spec }
            fn spec_mut(&mut self) -> &mut #spec { &mut self.spec }
        }

        #status_impl

        #[automatically_derived]
        impl #kube_core::CustomResourceExt for #root {
            fn crd() -> #crd_type {
                #root::crd()
            }
            fn crd_name() -> &'static str { #crd_name }
            fn api_resource() -> #kube_core::dynamic::ApiResource {
                #kube_core::dynamic::ApiResource::erase::<Self>(&())
            }
            fn shortnames() -> &'static [&'static str] { &[#(#short_names),*] }
        }
    }
}

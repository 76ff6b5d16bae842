use proc_macro2::{Span, TokenStream};
use quote::quote;

use super::args::closest_key;
use super::*;
use crate::suggest::edit_distance;

fn parse(args: TokenStream) -> syn::Result<RbacAttr> {
    parse_args(args, Span::call_site())
}

fn errors(args: TokenStream) -> Vec<String> {
    match parse(args) {
        Ok(rule) => panic!("expected errors, parsed {rule:?}"),
        Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
    }
}

fn strings(values: &[RbacValue]) -> Vec<&str> {
    values.iter().map(|v| v.value.as_str()).collect()
}

#[test]
fn arrays_and_strings() {
    let rule = parse(quote!(
        groups = ["apps", "core"],
        resources = "deployments;deployments/status",
        resource_names = ["a"],
        verbs = ["get", "list"],
        role_name = "reader"
    ))
    .unwrap();
    assert_eq!(strings(&rule.groups), ["apps", ""]);
    assert_eq!(
        strings(&rule.resources),
        ["deployments", "deployments/status"]
    );
    assert_eq!(strings(&rule.resource_names), ["a"]);
    assert_eq!(strings(&rule.verbs), ["get", "list"]);
    assert!(rule.urls.is_empty());
    assert!(rule.namespace.is_none());
    assert_eq!(rule.role_name.unwrap().value, "reader");
}

#[test]
fn core_group_spellings() {
    for groups in [
        quote!(groups = [""]),
        quote!(groups = ""),
        quote!(groups = "core"),
        quote!(groups = ["core"]),
    ] {
        let rule = parse(quote!(#groups, resources = ["pods"], verbs = "get")).unwrap();
        assert_eq!(strings(&rule.groups), [""], "{groups}");
    }
    let rule = parse(quote!(
        groups = "apps;;batch",
        resources = ["pods"],
        verbs = "*"
    ))
    .unwrap();
    assert_eq!(strings(&rule.groups), ["apps", "", "batch"]);
}

#[test]
fn non_resource_urls() {
    let rule = parse(quote!(urls = ["/metrics", "/healthz"], verbs = ["get"])).unwrap();
    assert_eq!(strings(&rule.urls), ["/metrics", "/healthz"]);
}

#[test]
fn unknown_keys_suggest_the_closest() {
    let all = "(keys: groups, resources, resource_names, verbs, urls, namespace, role_name)";
    assert_eq!(
        errors(quote!(groups = [""], resources = ["pods"], verb = ["get"]))[0],
        format!("unknown key `verb` in #[rbac]: did you mean `verbs`? {all}")
    );
    let cases = [
        (quote!(resourceNames = ["x"]), "resource_names"),
        (quote!(apiGroups = ["x"]), "groups"),
        (quote!(roleName = "x"), "role_name"),
        (quote!(nonResourceURLs = ["/x"]), "urls"),
        (quote!(namespce = "x"), "namespace"),
        (quote!(resource = ["x"]), "resources"),
    ];
    for (argument, suggestion) in cases {
        let message = &errors(quote!(#argument, verbs = ["get"]))[0];
        assert!(
            message.contains(&format!("did you mean `{suggestion}`?")),
            "{message}"
        );
    }
    let message = &errors(quote!(colour = "red", urls = ["/x"], verbs = ["get"]))[0];
    assert_eq!(*message, format!("unknown key `colour` in #[rbac]: {all}"));
}

#[test]
fn wrong_value_types() {
    assert_eq!(
        errors(quote!(groups = [""], resources = ["pods"], verbs = [get]))[0],
        "`verbs` takes strings; `get` is not a string literal (write \"get\")"
    );
    assert_eq!(
        errors(quote!(groups = [""], resources = pods, verbs = ["get"]))[0],
        "`resources` takes a list of strings, e.g. resources = [\"deployments\"] or \"a;b\"; found `pods`"
    );
    assert_eq!(
        errors(quote!(
            groups = [""],
            resources = ["pods"],
            verbs = ["get"],
            namespace = ["system"]
        ))[0],
        "`namespace` takes a string, e.g. namespace = \"system\"; found `[\"system\"]`"
    );
    assert_eq!(
        errors(quote!(groups = [""], resources = ["pods"], verbs))[0],
        "`verbs` needs a value, e.g. verbs = [\"get\", \"list\"]"
    );
    assert_eq!(
        errors(quote!(groups = [""], resources = ["pods"], verbs("get")))[0],
        "`verbs` needs a value, e.g. verbs = [\"get\", \"list\"]"
    );
}

#[test]
fn empty_and_malformed_values() {
    assert_eq!(
        errors(quote!(groups = [""], resources = [""], verbs = ["get"]))[0],
        "empty string in `resources`: every value must be non-empty"
    );
    assert_eq!(
        errors(quote!(groups = [""], resources = ["pods"], verbs = "get;"))[0],
        "empty string in `verbs`: every value must be non-empty"
    );
    assert_eq!(
        errors(quote!(groups = [""], resources = ["pods"], verbs = []))[0],
        "`verbs` is empty; give at least one value, e.g. verbs = [\"get\", \"list\"]"
    );
    assert_eq!(
        errors(quote!(
            groups = [""],
            resources = ["pods"],
            verbs = ["get"],
            namespace = ""
        ))[0],
        "`namespace` is an empty string; leave it out or name it, e.g. namespace = \"system\""
    );
    assert_eq!(
        errors(quote!(
            groups = [""],
            resources = ["pods"],
            verbs = "get,list"
        ))[0],
        "`verbs` value \"get,list\" contains a space or `,`; separate values with `;` or list them in an array"
    );
    assert_eq!(
        errors(quote!(
            groups = "apps, batch",
            resources = ["pods"],
            verbs = "get"
        ))[0],
        "group \"apps, batch\" contains a space or `,`; separate groups with `;` or list them in an array"
    );
    assert_eq!(
        errors(quote!(
            groups = [""],
            groups = ["apps"],
            resources = ["pods"],
            verbs = "get"
        ))[0],
        "`groups` is given twice; put all values in one list"
    );
}

#[test]
fn rules_between_arguments() {
    assert_eq!(
        errors(quote!(groups = [""], resources = ["pods"])),
        ["#[rbac] needs `verbs`, e.g. verbs = [\"get\", \"list\", \"watch\"]"]
    );
    assert_eq!(
        errors(quote!(
            urls = ["/metrics"],
            resources = ["pods"],
            verbs = ["get"]
        )),
        [
            "`urls` cannot be combined with `resources`: a rule grants either API resources or non-resource URLs; write two #[rbac] attributes"
        ]
    );
    assert_eq!(
        errors(quote!(
            urls = ["/metrics"],
            groups = [""],
            resources = ["pods"],
            verbs = ["get"]
        )),
        [
            "`urls` cannot be combined with `groups` and `resources`: a rule grants either API resources or non-resource URLs; write two #[rbac] attributes"
        ]
    );
    assert_eq!(
        errors(quote!(
            urls = ["/metrics"],
            verbs = ["get"],
            namespace = "system"
        )),
        [
            "`namespace` cannot be used with `urls`: a namespaced Role cannot hold non-resource URLs; drop `namespace`"
        ]
    );
    assert_eq!(
        errors(quote!(verbs = ["get"])),
        [
            "#[rbac] needs `resources` (e.g. resources = [\"deployments\"]) or `urls` (e.g. urls = [\"/metrics\"])"
        ]
    );
    assert_eq!(
        errors(quote!(resources = ["pods"], verbs = ["get"])),
        [
            "`resources` need `groups`, e.g. groups = [\"apps\"]; the core group (pods, services, ...) is groups = [\"\"]"
        ]
    );
}

#[test]
fn all_errors_are_reported_together() {
    let all = errors(quote!(resources = [""], verbs = [get], colour = "red"));
    assert_eq!(all.len(), 4, "{all:#?}");
    assert!(all[0].starts_with("empty string in `resources`"));
    assert!(all[1].starts_with("`verbs` takes strings"));
    assert!(all[2].starts_with("unknown key `colour`"));
    assert!(all[3].starts_with("`resources` need `groups`"));
}

#[test]
fn a_misspelt_key_is_not_also_reported_missing() {
    let all = errors(quote!(grups = [""], resources = ["pods"], verb = ["get"]));
    assert_eq!(all.len(), 2, "{all:#?}");
    assert!(all[0].starts_with("unknown key `grups` in #[rbac]: did you mean `groups`?"));
    assert!(all[1].starts_with("unknown key `verb` in #[rbac]: did you mean `verbs`?"));
    let all = errors(quote!(url = ["/metrics"], verbs = ["get"]));
    assert_eq!(all.len(), 1, "{all:#?}");
}

#[test]
fn syntax_errors_stop_parsing() {
    let all = errors(quote!(verbs = ["get" "list"]));
    assert_eq!(all, ["expected `,` or `;`"]);
}

#[test]
fn finds_rules_anywhere_in_a_file() {
    let file: syn::File = syn::parse_quote! {
        use webop::prelude::*;

        #[rbac(groups = ["apps"], resources = ["deployments"], verbs = ["get"])]
        pub struct Reconciler;

        impl Reconciler {
            #[webop::rbac(groups = [""], resources = ["pods"], verbs = ["list"])]
            fn reconcile(&self) {
                #[webop::prelude::rbac(urls = ["/metrics"], verbs = ["get"])]
                fn nested() {}
            }
        }

        mod inner {
            #[rbac(groups = ["batch"], resources = ["jobs"], verbs = ["watch"], namespace = "system")]
            #[derive(Debug)]
            struct Job;
        }

        #[other::rbac(anything)]
        #[serde(rename = "x")]
        struct NotOurs;
    };
    let rules = rules_in_file(&file).unwrap();
    let verbs: Vec<Vec<&str>> = rules.iter().map(|r| strings(&r.verbs)).collect();
    assert_eq!(verbs, [["get"], ["list"], ["get"], ["watch"]]);
    assert_eq!(rules[3].namespace.as_ref().unwrap().value, "system");
}

#[test]
fn file_errors_are_combined() {
    let file: syn::File = syn::parse_quote! {
        #[rbac]
        struct A;
        #[rbac(verbs = ["get"])]
        struct B;
        #[rbac = "x"]
        struct C;
    };
    let messages: Vec<String> = rules_in_file(&file)
        .unwrap_err()
        .into_iter()
        .map(|e| e.to_string())
        .collect();
    assert_eq!(messages.len(), 3, "{messages:#?}");
    assert!(messages[0].starts_with("#[rbac] needs arguments"));
    assert!(messages[1].starts_with("#[rbac] needs `resources`"));
    assert!(messages[2].starts_with("#[rbac] needs arguments"));
}

#[test]
fn closest_key_distance() {
    assert_eq!(closest_key("verbz"), Some("verbs"));
    assert_eq!(closest_key("urlz"), Some("urls"));
    assert_eq!(closest_key("ROLE_NAME"), Some("role_name"));
    assert_eq!(closest_key("xyz"), None);
    assert_eq!(edit_distance("kitten", "sitting"), 3);
}

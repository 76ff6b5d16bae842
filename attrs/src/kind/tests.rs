use super::*;

fn parse_spec(source: &str) -> Result<KindAttrs, Vec<String>> {
    let item: syn::ItemStruct = syn::parse_str(source).unwrap();
    let errors = Errors::new();
    let attrs = parse(&item.attrs, &item.ident, &errors);
    match errors.finish() {
        Ok(()) => Ok(attrs.expect("no errors, so a kind")),
        Err(error) => Err(error.into_iter().map(|e| e.to_string()).collect()),
    }
}

const RESOURCE: &str = r#"#[resource(group = "app.example.com", version = "v1", kind = "WebApp")]"#;

#[test]
fn defaults_follow_controller_gen() {
    let kind = parse_spec(&format!("{RESOURCE} struct WebAppSpec;")).unwrap();
    assert_eq!(
        (
            kind.resource.plural.as_str(),
            kind.resource.singular.as_str()
        ),
        ("webapps", "webapp")
    );
    assert!(kind.resource.namespaced);
    assert!(kind.status.ty.is_none() && !kind.status.subresource);
    assert_eq!(
        kind.version,
        VersionState {
            role: VersionRole::Other,
            served: true,
            deprecation: None
        }
    );
}

#[test]
fn the_subresource_alone_names_kind_status() {
    let kind = parse_spec(&format!(
        "{RESOURCE} #[subresource(status)] struct WebAppSpec;"
    ))
    .unwrap();
    let ty = kind.status.ty.unwrap();
    assert_eq!(quote::quote!(#ty).to_string(), "WebAppStatus");
    assert!(kind.status.subresource);
    let kind = parse_spec(&format!(
        r#"{RESOURCE} #[subresource(status = "()")] struct WebAppSpec;"#
    ))
    .unwrap();
    assert!(kind.status.ty.is_none() && kind.status.subresource);
}

#[test]
fn version_attributes_make_one_state() {
    let kind = parse_spec(&format!(
        r#"{RESOURCE} #[storage_version] #[unserved_version] #[deprecated_version(warning = "use v2")] struct S;"#
    ))
    .unwrap();
    assert_eq!(
        kind.version,
        VersionState {
            role: VersionRole::Storage,
            served: false,
            deprecation: Some(Deprecation {
                warning: Some("use v2".into())
            })
        }
    );
    let errors = parse_spec(&format!(
        "{RESOURCE} #[storage_version] #[skip_version] struct S;"
    ))
    .unwrap_err();
    assert_eq!(
        errors,
        ["a version cannot be both #[storage_version] and #[skip_version]"]
    );
}

#[test]
fn every_family_reports_its_errors_together() {
    let errors = parse_spec(
        r#"#[resource(group = "app.example.com", kind = "WebApp", colour = "red")]
           #[subresource(scale(spec_path = "spec.replicas"))]
           #[printcolumn(name = "Age", type = "int")]
           #[metadata(labels = ["team"])]
           #[storage_version(now)]
           struct S;"#,
    )
    .unwrap_err();
    assert_eq!(
        errors,
        [
            "unknown key `colour` in #[resource]; expected one of: group, version, kind, scope, plural, singular, short_name, category, status, doc, spec_required, flatten_spec, status_required, skip",
            "invalid spec_path \"spec.replicas\": a JSON path starts with `.` (e.g. \".spec.replicas\")",
            "`scale(...)` needs `status_path = \"...\"`",
            "invalid printcolumn type \"int\": must be one of \"integer\", \"number\", \"string\", \"boolean\", \"date\"",
            "#[printcolumn] needs `json_path = \"...\"`",
            "metadata entry \"team\" is not in 'key=value' format",
            "#[storage_version] takes no arguments",
            "#[derive(CustomResource)] needs #[resource(version = \"...\")] (for example #[resource(group = \"app.example.com\", version = \"v1\", kind = \"WebApp\")])",
        ]
    );
}

#[test]
fn root_rules_are_read_as_x_validation_reads_its_own() {
    let kind = parse_spec(&format!(
        r#"{RESOURCE} #[root(x_validation(rule = "self.metadata.name.size() <= 59", message = "short"))] #[root(x_validation(rule = "true"))] struct S;"#
    ))
    .unwrap();
    let rules: Vec<_> = kind
        .root_rules
        .iter()
        .map(|rule| (rule.kind, rule.value.clone()))
        .collect();
    assert_eq!(rules.len(), 2);
    assert!(
        rules
            .iter()
            .all(|(kind, _)| *kind == crate::schema::MarkerKind::XValidation)
    );

    let errors = parse_spec(&format!(
        r#"{RESOURCE} #[root(x_validation(message = "m"), rules(rule = "true"))] struct S;"#
    ))
    .unwrap_err();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors[0].contains("rule"), "{errors:?}");
    assert!(
        errors[1].contains("unknown") && errors[1].contains("x_validation"),
        "{errors:?}"
    );
}

//! Go constructs beyond what kubebuilder scaffolds, read as controller-gen reads them: `+k8s:enum`,
//! types with JSON of their own, roots with fields of their own, required statuses, roots without
//! ObjectMeta, packages the API packages share.

use super::import;
use super::tests::{WIDGET, fixture, project_with};

/// The fixture's `+k8s:enum`, types with JSON of their own, a root with fields of its own,
/// required statuses, a root without ObjectMeta and a shared package.
#[test]
fn the_fixture_s_enums_custom_json_root_shapes_and_shared_package_import() {
    let imported = import(&fixture()).unwrap();
    let source = |kind: &str| {
        let found = imported.kinds.iter().find(|k| k.resource.kind == kind);
        found.unwrap().source.clone()
    };
    let beacon = source("Beacon");
    for expected in [
        "status_required,\n    flatten_spec\n)]",
        "pub flag: Option<crate::shared::Flag>,",
        "pub enum Light {\n    Flashing,\n    #[serde(rename = \"dark\")]\n    Dark,\n    #[serde(rename = \"ebb-flow\")]\n    EbbFlow,\n    #[serde(rename = \"ebb&flood\")]\n    EbbFlood,",
        "#[validate(type = \"string\", pattern = \"^-?[0-9]+,-?[0-9]+$\")]\npub struct Position(pub String);",
        "#[validate(max_length = 8)]\npub struct Range(pub String);",
    ] {
        assert!(beacon.contains(expected), "{expected} in\n{beacon}");
    }
    let lighthouse = source("Lighthouse");
    assert!(
        lighthouse.contains("spec_required,\n    status_required\n)]"),
        "{lighthouse}"
    );
    assert!(source("Buoy").contains("    skip\n)]"));
    let [shared] = imported.shared.as_slice() else {
        panic!("{:?}", imported.shared);
    };
    assert_eq!(
        (shared.module.as_str(), shared.go_dir.as_str()),
        ("shared", "api/shared")
    );
    assert!(
        shared.source.contains("pub struct Flag {"),
        "{}",
        shared.source
    );
    assert!(
        shared.source.contains("pub struct Colour(pub String);"),
        "{}",
        shared.source
    );
    let notes: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
    assert!(
        notes
            .iter()
            .any(|n| n.ends_with("so controller-gen writes no CRD of it: #[resource(skip)]")),
        "{notes:?}"
    );
}

/// Two groups' kinds naming the types of one Go package: one module of the API crate, which
/// both kinds' files name.
#[test]
fn a_package_shared_by_two_groups_is_one_module() {
    let kind = |group: &str, kind: &str| {
        format!(
            "package v1\n\n\
             import (\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\t\"example.com/shop/api/common\"\n)\n\n\
             // +groupName={group}.example.com\n\n\
             type {kind}Spec struct {{\n\tAddress common.Address `json:\"address\"`\n}}\n\n\
             // +kubebuilder:object:root=true\n\
             type {kind} struct {{\n\
             \tmetav1.TypeMeta   `json:\",inline\"`\n\
             \tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\
             \tSpec {kind}Spec `json:\"spec,omitempty\"`\n}}\n"
        )
    };
    let resource = |group: &str, kind: &str| {
        format!(
            "- api:\n    crdVersion: v1\n    namespaced: true\n  domain: example.com\n  group: {group}\n  kind: {kind}\n  path: example.com/shop/api/{group}/v1\n  version: v1\n"
        )
    };
    let resources = resource("sales", "Order") + &resource("billing", "Invoice");
    let temp = project_with(&resources, "package v1\n");
    let root = temp.path();
    for (group, name) in [("sales", "Order"), ("billing", "Invoice")] {
        std::fs::create_dir_all(root.join(format!("api/{group}/v1"))).unwrap();
        let file = format!("api/{group}/v1/{}_types.go", name.to_lowercase());
        std::fs::write(root.join(file), kind(group, name)).unwrap();
    }
    std::fs::create_dir_all(root.join("api/common")).unwrap();
    std::fs::write(
        root.join("api/common/address.go"),
        "package common\n\n// Address is where to deliver.\ntype Address struct {\n\tStreet Street `json:\"street\"`\n}\n\n\
         // +kubebuilder:validation:MinLength=1\ntype Street string\n\n// Unused is named by no API type.\ntype Unused string\n",
    )
    .unwrap();
    let imported = import(root).unwrap();
    assert!(imported.issues.is_empty(), "{:?}", imported.issues);
    for kind in &imported.kinds {
        assert!(
            kind.source.contains("pub address: crate::common::Address,"),
            "{}",
            kind.source
        );
    }
    let [common] = imported.shared.as_slice() else {
        panic!("{:?}", imported.shared);
    };
    assert_eq!(common.module, "common");
    assert!(
        common.source.contains("pub street: Street,"),
        "{}",
        common.source
    );
    assert!(
        common.source.contains("pub struct Street(pub String);"),
        "{}",
        common.source
    );
    assert!(!common.source.contains("Unused"), "{}", common.source);
}

/// controller-gen refuses `+k8s:enum` on a field, on a type that is no string, and on a type
/// without constants: so does the import.
#[test]
fn a_k8s_enum_controller_gen_refuses_is_refused() {
    let widget = |extra: &str, field: &str| {
        format!(
            "package v1\n\nimport metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n{extra}\n\
             type WidgetSpec struct {{\n{field}\tSize int32 `json:\"size\"`\n}}\n\n\
             // +kubebuilder:object:root=true\n\
             type Widget struct {{\n\tmetav1.TypeMeta   `json:\",inline\"`\n\
             \tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\tSpec WidgetSpec `json:\"spec\"`\n}}\n"
        )
    };
    for (types, why) in [
        (widget("", "\t// +k8s:enum\n"), "on a type, not a field"),
        (
            widget(
                "// +k8s:enum\ntype Count int32\n\nconst One Count = 1\n",
                "\tCount Count `json:\"count\"`\n",
            ),
            "type Count is no string type",
        ),
        (
            widget(
                "// +k8s:enum\ntype Mode string\n",
                "\tMode Mode `json:\"mode\"`\n",
            ),
            "no constant of type Mode",
        ),
    ] {
        let temp = project_with(WIDGET, &types);
        let err = import(temp.path()).err().map(|e| e.to_string());
        assert!(
            err.as_deref()
                .is_some_and(|e| e.contains("+k8s:enum: ") && e.contains(why)),
            "{err:?}"
        );
    }
}

/// A root with a `Spec` and fields of its own is flattened, its `Spec` one of the fields; a
/// status of another package's type is left out.
#[test]
fn a_root_with_a_spec_and_fields_of_its_own_is_flattened() {
    let types = "package v1\n\n\
        import (\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\tcorev1 \"k8s.io/api/core/v1\"\n)\n\n\
        type WidgetSpec struct {\n\tSize int32 `json:\"size\"`\n}\n\n\
        // +kubebuilder:object:root=true\n\
        type Widget struct {\n\
        \tmetav1.TypeMeta   `json:\",inline\"`\n\
        \tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\
        \tNote string `json:\"note,omitempty\"`\n\
        \tSpec WidgetSpec `json:\"spec\"`\n\
        \tStatus corev1.PodStatus `json:\"status\"`\n\
        }\n";
    let temp = project_with(WIDGET, types);
    let imported = import(temp.path()).unwrap();
    let source = &imported.kinds[0].source;
    for expected in [
        "    flatten_spec\n)]\n#[serde(rename_all = \"camelCase\")]\npub struct WidgetSpec {",
        "pub note: Option<String>,",
        "pub spec: WidgetSpecFields,",
        "pub struct WidgetSpecFields {\n    pub size: i32,",
    ] {
        assert!(source.contains(expected), "{expected} in\n{source}");
    }
    assert!(!source.contains("status"), "{source}");
    let issues: Vec<String> = imported.issues.iter().map(ToString::to_string).collect();
    assert_eq!(
        issues,
        ["api/v1/widget_types.go:18: Widget's status is of another package's type: left out"]
    );
}

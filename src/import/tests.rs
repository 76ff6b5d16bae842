use std::collections::BTreeSet;

use super::*;

const CRD: &str = r#"---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    controller-gen.kubebuilder.io/version: v0.21.0
  name: widgets.example.com
spec:
  group: example.com
  names:
    kind: Widget
    listKind: WidgetList
    plural: widgets
    shortNames:
    - wd
    singular: widget
  scope: Namespaced
  versions:
  - additionalPrinterColumns:
    - jsonPath: .spec.size
      name: Size
      type: integer
    name: v1
    schema:
      openAPIV3Schema:
        description: Widget is a widget.
        properties:
          apiVersion:
            description: |-
              APIVersion defines the versioned schema of this representation of an object.
              Servers should convert recognized schemas to the latest internal value, and
              may reject unrecognized values.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources
            type: string
          kind:
            description: |-
              Kind is a string value representing the REST resource this object represents.
              Servers may infer this from the endpoint the client submits requests to.
              Cannot be updated.
              In CamelCase.
              More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds
            type: string
          metadata:
            type: object
          spec:
            description: WidgetSpec is the spec.
            properties:
              size:
                description: size of the widget.
                format: int32
                maximum: 10
                minimum: 1
                type: integer
              mode:
                enum:
                - fast
                - Slow
                type: string
              tags:
                items:
                  maxLength: 5
                  type: string
                type: array
                x-kubernetes-list-type: set
            required:
            - size
            type: object
            x-kubernetes-validations:
            - message: small
              rule: self.size < 5
        type: object
    served: true
    storage: true
    subresources:
      status: {}
"#;

fn import_widget() -> Imported {
    let table = KeywordTable::from_catalogue();
    let crds = parse("widget.yaml", CRD).unwrap();
    import(&table, "widget.yaml", &crds[0], &|_| BTreeSet::new()).unwrap()
}

#[test]
fn a_crd_becomes_attributed_types() {
    let imported = import_widget();
    assert_eq!(imported.notes, []);
    assert_eq!(imported.kind.kind, "Widget");
    assert_eq!(imported.kind.plural, "widgets");
    let (version, source) = &imported.sources[0];
    assert_eq!(version, "v1");
    for expected in [
        r#"#[resource(group = "example.com", version = "v1", kind = "Widget", short_name = ["wd"])]"#,
        r#"#[resource(doc = "Widget is a widget.")]"#,
        r#"#[subresource(status = "()")]"#,
        r#"#[printcolumn(name = "Size", type = "integer", json_path = ".spec.size")]"#,
        r#"#[x_validation(rule = "self.size < 5", message = "small")]"#,
        "    /// size of the widget.\n    #[validate(maximum = 10, minimum = 1)]\n    pub size: i32,",
        "pub mode: Option<WidgetMode>,",
        "#[validate(items(max_length = 5))]\n    #[schema(list_type = \"set\")]\n    pub tags: Option<Vec<String>>,",
        "pub enum WidgetMode {\n    #[serde(rename = \"fast\")]\n    Fast,\n    Slow,\n}",
    ] {
        assert!(source.contains(expected), "{expected}\nnot in\n{source}");
    }
}

#[test]
fn not_a_crd_is_refused_by_its_kind() {
    let table = KeywordTable::from_catalogue();
    let doc = parse("cm.yaml", "apiVersion: v1\nkind: ConfigMap\n").unwrap();
    let err = import(&table, "cm.yaml", &doc[0], &|_| BTreeSet::new()).unwrap_err();
    assert!(
        err.to_string()
            .contains(r#"apiVersion "v1" and kind "ConfigMap" is not a CustomResourceDefinition"#),
        "{err}"
    );
}

#[test]
fn an_unknown_keyword_is_refused_with_its_path() {
    let table = KeywordTable::from_catalogue();
    let text = CRD.replace(
        "                maximum: 10\n",
        "                maximum: 10\n                maxValue: 3\n",
    );
    let doc = parse("w.yaml", &text).unwrap();
    let err = import(&table, "w.yaml", &doc[0], &|_| BTreeSet::new()).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"w.yaml: unknown schema keyword "maxValue" at .spec.size: a CRD schema has only the keywords of apiextensions.k8s.io/v1 JSONSchemaProps"#
    );
}

#[test]
fn a_file_that_is_not_yaml_is_refused() {
    let err = parse("bad.yaml", "a: [b").unwrap_err();
    assert!(err.to_string().starts_with("bad.yaml: not YAML:"), "{err}");
}

#[test]
fn what_no_attribute_writes_is_noted_with_its_path() {
    let table = KeywordTable::from_catalogue();
    let text = CRD.replace(
        "                maximum: 10\n",
        "                maximum: 10\n                not: {type: string}\n",
    );
    let doc = parse("w.yaml", &text).unwrap();
    let imported = import(&table, "w.yaml", &doc[0], &|_| BTreeSet::new()).unwrap();
    let notes: Vec<String> = imported.notes.iter().map(ToString::to_string).collect();
    assert_eq!(
        notes,
        ["v1 .spec.size: not: no webop attribute writes it on a field: left out"]
    );
}

#[test]
fn a_required_spec_and_status_are_kind_attributes() {
    let table = KeywordTable::from_catalogue();
    let text = CRD.replace(
        "              rule: self.size < 5\n        type: object\n",
        "              rule: self.size < 5\n          status:\n            type: object\n        required:\n        - spec\n        - status\n        type: object\n",
    );
    let doc = parse("w.yaml", &text).unwrap();
    let imported = import(&table, "w.yaml", &doc[0], &|_| BTreeSet::new()).unwrap();
    let source = &imported.sources[0].1;
    assert!(source.contains("#[resource(spec_required)]"), "{source}");
    assert!(source.contains("#[resource(status_required)]"), "{source}");
}

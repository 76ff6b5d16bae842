use super::*;

const TYPES: &str = r#"// Package v1 holds the API.
// +kubebuilder:object:generate=true
// +groupName=ship.example.com
package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +kubebuilder:validation:Enum=Fast;Slow
type Mode string

const (
	ModeFast Mode = "Fast"
	ModeSlow Mode = "Slow"
)

// FrigateSpec is the spec.
type FrigateSpec struct {
	// size of the frigate.
	// +kubebuilder:validation:Minimum=1
	Size *int32 `json:"size,omitempty"` // a line comment

	// +optional

	// mode says how fast.
	Mode Mode `json:"mode"`
	Labels map[string]string `json:"labels,omitempty"`
}

// +kubebuilder:object:root=true
// +kubebuilder:subresource:status

// Frigate is a ship.
type Frigate struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec FrigateSpec `json:"spec"`
}

func init() {
	SchemeBuilder.Register(&Frigate{}, &FrigateList{})
}
"#;

#[test]
fn declarations_fields_and_markers_are_read_as_controller_gen_associates_them() {
    let file = parse("api/v1/frigate_types.go", TYPES).unwrap();
    assert_eq!(file.package, "v1");
    assert_eq!(
        file.import_path("metav1"),
        Some("k8s.io/apimachinery/pkg/apis/meta/v1")
    );
    let markers: Vec<&str> = file
        .package_markers
        .iter()
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(
        markers,
        [
            "kubebuilder:object:generate=true",
            "groupName=ship.example.com"
        ]
    );
    let mode = &file.types[0];
    assert_eq!(
        mode.markers[0].text,
        "kubebuilder:validation:Enum=Fast;Slow"
    );
    assert!(mode.doc.is_empty());
    assert_eq!(file.consts[1].ty.as_deref(), Some("Mode"));
    assert_eq!(file.consts[1].value.as_deref(), Some("Slow"));

    let GoType::Struct(fields) = &file.types[1].ty else {
        panic!("a struct")
    };
    assert_eq!(file.types[1].doc, ["FrigateSpec is the spec."]);
    assert_eq!(fields[0].doc, ["size of the frigate."]);
    assert_eq!(
        fields[0].markers[0].text,
        "kubebuilder:validation:Minimum=1"
    );
    assert_eq!(
        fields[0].tag_value("json").as_deref(),
        Some("size,omitempty")
    );
    assert!(matches!(&fields[0].ty, GoType::Pointer(_)));
    // The closest non-doc group counts; the line comment does not.
    assert_eq!(fields[1].markers[0].text, "optional");
    assert_eq!(fields[1].doc, ["mode says how fast."]);
    assert!(matches!(&fields[2].ty, GoType::Map(..)));

    let root = &file.types[2];
    let texts: Vec<&str> = root.markers.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(
        texts,
        [
            "kubebuilder:object:root=true",
            "kubebuilder:subresource:status"
        ]
    );
    assert_eq!(root.doc, ["Frigate is a ship."]);
    let GoType::Struct(fields) = &root.ty else {
        panic!("a struct")
    };
    assert_eq!(fields[0].name, None);
    assert_eq!(fields[2].name.as_deref(), Some("Spec"));
}

#[test]
fn a_file_that_does_not_parse_says_where() {
    let err = parse(
        "a.go",
        "package v1\n\ntype A struct {\n\tB string `json:\"b\"`\n",
    )
    .unwrap_err();
    assert_eq!(err.file, "a.go");
    assert!(
        err.message.contains("end of the file") || err.message.contains("not closed"),
        "{err}"
    );
    let err = parse("a.go", "package v1\n\ntype = 3\n").unwrap_err();
    assert_eq!(err.line, 3);
    assert!(parse("a.go", "v1\n").is_err());
}

#[test]
fn doc_lines_follow_comment_group_text() {
    assert_eq!(
        doc_lines(&["// a  ", "//", "//", "//b", "//go:generate x", "// "]),
        ["a", "", "b"]
    );
}

#[test]
fn methods_are_read_with_their_receiver_type() {
    let file = parse(
        "m.go",
        "package v1\n\n\
         func (p *Position) MarshalJSON() ([]byte, error) { return nil, nil }\n\
         func (r Range) MarshalText() ([]byte, error) {\n\treturn []byte(\"x\"), nil\n}\n\
         func (l *List[T]) Len() int { return 0 }\n\
         func Plain() {}\n",
    )
    .unwrap();
    let methods: Vec<(&str, &str)> = file
        .methods
        .iter()
        .map(|(r, m)| (r.as_str(), m.as_str()))
        .collect();
    assert_eq!(
        methods,
        [
            ("Position", "MarshalJSON"),
            ("Range", "MarshalText"),
            ("List", "Len")
        ]
    );
}

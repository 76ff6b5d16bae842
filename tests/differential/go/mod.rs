//! A case as Go source with kubebuilder markers: one package, the input of controller-gen.

mod markers;

use std::collections::BTreeSet;
use std::fmt::Write;

use super::model::{
    Case, Field, K8s, Marker, MarkerSpelling, Presence, Scalar, Ty, TypeDef, Value,
};
use super::words;
use markers::{go_string, marker_line, markers};

/// The Go source of `case` (one file of package `case.name`).
pub fn source(case: &Case) -> String {
    let mut imports = BTreeSet::from(["metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\""]);
    let mut body = String::new();
    root(case, &mut body);
    for def in &case.types {
        body.push('\n');
        match def {
            TypeDef::Struct(s) => {
                comment(&mut body, "", &s.doc, &markers(&s.markers));
                writeln!(body, "type {} struct {{", s.name).unwrap();
                for (i, field) in s.fields.iter().enumerate() {
                    if i > 0 {
                        body.push('\n');
                    }
                    write_field(case, i, field, &mut imports, &mut body);
                }
                body.push_str("}\n");
            }
            TypeDef::Enum(e) => {
                let mut lines = markers(&e.markers);
                if e.go_k8s_enum {
                    lines.insert(0, "+k8s:enum".to_owned());
                    comment(&mut body, "", &e.doc, &lines);
                    writeln!(body, "type {} string\n\nconst (", e.name).unwrap();
                    for (i, value) in e.values.iter().enumerate() {
                        writeln!(body, "\t{}V{i} {} = {}", e.name, e.name, go_string(value))
                            .unwrap();
                    }
                    body.push_str(")\n");
                } else {
                    let values: Vec<Value> =
                        e.values.iter().map(|v| Value::String(v.clone())).collect();
                    lines.insert(0, marker_line(&Marker::Enum(values)));
                    comment(&mut body, "", &e.doc, &lines);
                    writeln!(body, "type {} string", e.name).unwrap();
                }
            }
            TypeDef::Newtype(n) => {
                comment(&mut body, "", &n.doc, &markers(&n.markers));
                writeln!(body, "type {} {}", n.name, scalar(n.inner)).unwrap();
            }
        }
    }
    let mut out = String::new();
    let mut package_markers = vec![
        format!("+groupName={}", case.group),
        format!("+versionName={}", case.version),
    ];
    if case.package_optional {
        package_markers.push("+kubebuilder:validation:Optional".to_owned());
    }
    let package_doc = vec![format!(
        "Package {} is a generated differential test case.",
        case.name
    )];
    comment(&mut out, "", &package_doc, &package_markers);
    writeln!(out, "package {}\n\nimport (", case.name).unwrap();
    for import in imports {
        writeln!(out, "\t{import}").unwrap();
    }
    out.push_str(")\n");
    out.push_str(&body);
    out
}

fn root(case: &Case, out: &mut String) {
    let mut lines = vec!["+kubebuilder:object:root=true".to_owned()];
    if matches!(case.status, Some((_, true))) {
        lines.push("+kubebuilder:subresource:status".to_owned());
    }
    if let Some(scale) = &case.scale {
        let mut line = format!(
            "+kubebuilder:subresource:scale:specpath={},statuspath={}",
            scale.spec_path, scale.status_path
        );
        if let Some(selector) = &scale.selector_path {
            write!(line, ",selectorpath={selector}").unwrap();
        }
        lines.push(line);
    }
    let mut resource = Vec::new();
    if let Some(plural) = &case.plural {
        resource.push(format!("path={plural}"));
    }
    if let Some(singular) = &case.singular {
        resource.push(format!("singular={singular}"));
    }
    if !case.short_names.is_empty() {
        resource.push(format!("shortName={}", case.short_names.join(";")));
    }
    if !case.categories.is_empty() {
        resource.push(format!("categories={}", case.categories.join(";")));
    }
    if case.cluster_scoped {
        resource.push("scope=Cluster".to_owned());
    }
    if !resource.is_empty() {
        lines.push(format!("+kubebuilder:resource:{}", resource.join(",")));
    }
    for column in &case.printcolumns {
        let mut line = format!(
            "+kubebuilder:printcolumn:name={},type={},JSONPath={}",
            go_string(&column.name),
            column.type_,
            go_string(&column.json_path)
        );
        if let Some(description) = &column.description {
            write!(line, ",description={}", go_string(description)).unwrap();
        }
        if let Some(format) = column.format {
            write!(line, ",format={format}").unwrap();
        }
        if let Some(priority) = column.priority {
            write!(line, ",priority={priority}").unwrap();
        }
        lines.push(line);
    }
    // kubebuilder's layout: the markers, a blank line, then the doc comment.
    comment(out, "", &[], &lines);
    if !case.root_doc.is_empty() {
        out.push('\n');
        comment(out, "", &case.root_doc, &[]);
    }
    let spec = case.types[case.spec].name();
    // In a package whose fields are optional, a field without `omitempty` is optional too.
    let spec_marker = if case.spec_required && case.package_optional {
        "\t// +kubebuilder:validation:Required\n"
    } else {
        ""
    };
    let spec_tag = if case.spec_required {
        "spec"
    } else {
        "spec,omitempty"
    };
    writeln!(
        out,
        "type {kind} struct {{\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\n{spec_marker}\tSpec {spec} `json:\"{spec_tag}\"`",
        kind = case.kind
    )
    .unwrap();
    if let Some((status, _)) = case.status {
        writeln!(
            out,
            "\tStatus {} `json:\"status,omitempty\"`",
            case.types[status].name()
        )
        .unwrap();
    }
    out.push_str("}\n");
}

/// A comment block: the doc lines, then the markers.
fn comment(out: &mut String, indent: &str, doc: &[String], markers: &[String]) {
    for line in doc {
        if line.is_empty() {
            writeln!(out, "{indent}//").unwrap();
        } else {
            writeln!(out, "{indent}// {line}").unwrap();
        }
    }
    for marker in markers {
        writeln!(out, "{indent}// {marker}").unwrap();
    }
}

fn write_field(
    case: &Case,
    index: usize,
    field: &Field,
    imports: &mut BTreeSet<&str>,
    out: &mut String,
) {
    let mut lines = Vec::new();
    match field.presence {
        Presence::MarkedRequired(spelling) => lines.push(presence_marker("Required", spelling)),
        Presence::MarkedOptional(spelling) => lines.push(presence_marker("Optional", spelling)),
        Presence::Plain | Presence::OmitEmpty => {}
    }
    if field.ty == Ty::Json {
        // Arbitrary JSON, or an int-or-string (whose schema must not preserve unknown fields).
        lines.push("+kubebuilder:validation:Schemaless".to_owned());
        if !field.markers.contains(&Marker::IntOrString) {
            lines.push("+kubebuilder:pruning:PreserveUnknownFields".to_owned());
        }
    }
    lines.extend(markers(&field.markers));
    comment(out, "\t", &field.doc, &lines);
    let ty = go_type(case, &field.ty, imports);
    if field.inline {
        writeln!(out, "\t{ty} `json:\",inline\"`").unwrap();
        return;
    }
    let omitempty = matches!(
        field.presence,
        Presence::OmitEmpty | Presence::MarkedRequired(_)
    );
    let pointer = omitempty
        && !field.go_value
        && !matches!(
            field.ty,
            Ty::List(_) | Ty::Map(_) | Ty::Scalar(Scalar::Bytes) | Ty::Json
        );
    let tag = if omitempty {
        format!("{},omitempty", field.name)
    } else {
        field.name.clone()
    };
    let star = if pointer { "*" } else { "" };
    writeln!(
        out,
        "\t{} {star}{ty} `json:\"{tag}\"`",
        go_field_name(&field.name, index)
    )
    .unwrap();
}

fn presence_marker(which: &str, spelling: MarkerSpelling) -> String {
    match spelling {
        MarkerSpelling::Kubebuilder => format!("+kubebuilder:validation:{which}"),
        MarkerSpelling::Short => format!("+{}", which.to_lowercase()),
        MarkerSpelling::K8s => format!("+k8s:{}", which.to_lowercase()),
    }
}

/// The exported Go name of field `index` with JSON name `name` (`Odd<index>` for a name that is
/// no identifier).
pub fn go_field_name(name: &str, index: usize) -> String {
    if !words::is_identifier(name) {
        return format!("Odd{index}");
    }
    let mut chars = name.chars();
    let first = chars.next().expect("field names are not empty");
    format!("{}{}", first.to_ascii_uppercase(), chars.as_str())
}

fn scalar(s: Scalar) -> &'static str {
    match s {
        Scalar::Int32 => "int32",
        Scalar::Int64 => "int64",
        Scalar::Float64 => "float64",
        Scalar::String => "string",
        Scalar::Bool => "bool",
        Scalar::Bytes => "[]byte",
    }
}

fn go_type(case: &Case, ty: &Ty, imports: &mut BTreeSet<&str>) -> String {
    match ty {
        Ty::Scalar(s) => scalar(*s).to_owned(),
        Ty::List(item) => format!("[]{}", go_type(case, item, imports)),
        Ty::Map(value) => format!("map[string]{}", go_type(case, value, imports)),
        Ty::Named(id) => case.types[*id].name().to_owned(),
        Ty::K8s(k8s) => {
            let (import, name) = k8s_type(*k8s);
            imports.insert(import);
            name.to_owned()
        }
        Ty::Json => {
            imports.insert(RUNTIME);
            "runtime.RawExtension".to_owned()
        }
    }
}

const CORE: &str = "corev1 \"k8s.io/api/core/v1\"";
const META: &str = "metav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"";
const RUNTIME: &str = "runtime \"k8s.io/apimachinery/pkg/runtime\"";

fn k8s_type(k8s: K8s) -> (&'static str, &'static str) {
    match k8s {
        K8s::Time => (META, "metav1.Time"),
        K8s::MicroTime => (META, "metav1.MicroTime"),
        K8s::Condition => (META, "metav1.Condition"),
        K8s::LabelSelector => (META, "metav1.LabelSelector"),
        K8s::ObjectMeta => (META, "metav1.ObjectMeta"),
        K8s::Quantity => (
            "resource \"k8s.io/apimachinery/pkg/api/resource\"",
            "resource.Quantity",
        ),
        K8s::IntOrString => (
            "intstr \"k8s.io/apimachinery/pkg/util/intstr\"",
            "intstr.IntOrString",
        ),
        K8s::RawExtension => (RUNTIME, "runtime.RawExtension"),
        K8s::ResourceRequirements => (CORE, "corev1.ResourceRequirements"),
        K8s::LocalObjectReference => (CORE, "corev1.LocalObjectReference"),
        K8s::ObjectReference => (CORE, "corev1.ObjectReference"),
        K8s::EnvVar => (CORE, "corev1.EnvVar"),
        K8s::Toleration => (CORE, "corev1.Toleration"),
    }
}

//! `webop import kubebuilder` of a Go package two API groups share: in a multigroup project,
//! group `sales`'s Order and group `billing`'s Invoice both name `common.Address` of
//! `api/common`. The imported API crate has it once, as the module `common`
//! (`api/src/common.rs`), which both groups' types name (`crate::common::Address`), and
//! `make manifests` writes controller-gen's CRDs of both groups.

use crate::controller_gen;
use crate::import_kubebuilder::{fixture, import_and_compare, make_manifests_with_controller_gen};

use std::path::Path;

use support::read;

use crate::support;

const PROJECT: &str = "domain: example.com\nlayout:\n- go.kubebuilder.io/v4\nmultigroup: true\nprojectName: shop\nrepo: example.com/shop\nresources:\n\
- api:\n    crdVersion: v1\n    namespaced: true\n  controller: true\n  domain: example.com\n  group: sales\n  kind: Order\n  path: example.com/shop/api/sales/v1\n  version: v1\n\
- api:\n    crdVersion: v1\n    namespaced: true\n  domain: example.com\n  group: billing\n  kind: Invoice\n  path: example.com/shop/api/billing/v1\n  version: v1\n\
version: \"3\"\n";

const COMMON: &str = "// Package common holds what the groups share.\npackage common\n\n\
// Address is where to deliver.\ntype Address struct {\n\t// Street and number.\n\tStreet Street `json:\"street\"`\n\t// City, if not the default one.\n\tCity string `json:\"city,omitempty\"`\n}\n\n\
// Street names a street.\n// +kubebuilder:validation:MinLength=1\ntype Street string\n\n\
// Unused is named by no API type.\ntype Unused string\n";

fn kind(group: &str, kind: &str, field: &str) -> String {
    format!(
        "// +groupName={group}.example.com\npackage v1\n\n\
         import (\n\tmetav1 \"k8s.io/apimachinery/pkg/apis/meta/v1\"\n\n\t\"example.com/shop/api/common\"\n)\n\n\
         // {kind}Spec defines the desired state of {kind}.\n\
         type {kind}Spec struct {{\n\t// {field} of the {kind}.\n\t{field} common.Address `json:\"{lower}\"`\n}}\n\n\
         // +kubebuilder:object:root=true\n\n\
         // {kind} is the Schema for the API.\n\
         type {kind} struct {{\n\tmetav1.TypeMeta   `json:\",inline\"`\n\tmetav1.ObjectMeta `json:\"metadata,omitempty\"`\n\n\
         \tSpec {kind}Spec `json:\"spec,omitempty\"`\n}}\n\n\
         // +kubebuilder:object:root=true\n\n\
         // {kind}List contains a list of {kind}.\n\
         type {kind}List struct {{\n\tmetav1.TypeMeta `json:\",inline\"`\n\tmetav1.ListMeta `json:\"metadata,omitempty\"`\n\tItems []{kind} `json:\"items\"`\n}}\n",
        lower = field[..1].to_lowercase() + &field[1..]
    )
}

const CONTROLLER: &str = "package sales\n\n// OrderReconciler reconciles an Order.\ntype OrderReconciler struct{}\n\n\
// +kubebuilder:rbac:groups=sales.example.com,resources=orders,verbs=get;list;watch\n\n\
func (r *OrderReconciler) Reconcile() {}\n";

fn write(root: &Path, path: &str, text: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_package_two_groups_share_is_one_module_with_controller_gen_s_crds() {
    let Some(tool) = controller_gen::tool() else {
        return;
    };
    let temp = tempfile::tempdir().unwrap();
    let go = temp.path().join("shop");
    // The fixture's module requirements, under another module path.
    let go_mod =
        read(&fixture(), "go.mod").replace("module example.com/fleet", "module example.com/shop");
    write(&go, "go.mod", &go_mod);
    write(&go, "go.sum", &read(&fixture(), "go.sum"));
    write(&go, "PROJECT", PROJECT);
    write(&go, "api/common/address.go", COMMON);
    write(
        &go,
        "api/sales/v1/order_types.go",
        &kind("sales", "Order", "ShipTo"),
    );
    write(
        &go,
        "api/billing/v1/invoice_types.go",
        &kind("billing", "Invoice", "BillTo"),
    );
    write(
        &go,
        "internal/controller/sales/order_controller.go",
        CONTROLLER,
    );
    make_manifests_with_controller_gen(&tool, &go);
    let imported = temp.path().join("shop-rs");
    let compared = import_and_compare(&go, &imported, &go);
    assert!(
        compared.differences.is_empty(),
        "{:#?}",
        compared.differences
    );
    assert!(
        compared
            .report
            .contains("shared types: api/src/common.rs (api/common)"),
        "{}",
        compared.report
    );
    let common = read(&imported, "api/src/common.rs");
    assert_eq!(
        common.matches("pub struct Address {").count(),
        1,
        "{common}"
    );
    assert!(!common.contains("Unused"), "{common}");
    for (types, field) in [
        (
            "api/src/sales/v1/order_types.rs",
            "pub ship_to: crate::common::Address,",
        ),
        (
            "api/src/billing/v1/invoice_types.rs",
            "pub bill_to: crate::common::Address,",
        ),
    ] {
        let source = read(&imported, types);
        assert!(source.contains(field), "{field} in\n{source}");
    }
    assert!(read(&imported, "api/src/lib.rs").contains("pub mod common;"));
}

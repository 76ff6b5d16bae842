//! What `webop create api` lays out as kinds accumulate: the tool-owned modules and
//! kustomizations a second kind extends, a cluster-scoped kind without a controller, the home of
//! types shared between kinds, one controller per kind and distinct type names per version, and
//! generated Rust that is rustfmt-clean.

use crate::support;

use support::{CACHE, create_webapp, gvk_command, init_webapp, project_dir, read, refused, run_ok};

#[test]
fn a_second_kind_extends_the_tool_owned_modules_and_the_kustomizations() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    run_ok(&dir, CACHE);
    let api = read(&dir, "api/src/lib.rs");
    assert!(
        api.contains("pub mod v1;\n// +webop:scaffold:apiversions\n"),
        "{api}"
    );
    assert!(
        api.contains("        v1::WebApp::crd_version(),\n        v1::Cache::crd_version(),\n        // +webop:scaffold:crdversions\n"),
        "{api}"
    );
    let v1 = read(&dir, "api/src/v1/mod.rs");
    assert!(v1.contains("mod cache_types;\nmod webapp_types;\n// +webop:scaffold:kindmodules\n\npub use cache_types::*;\npub use webapp_types::*;\n// +webop:scaffold:kindexports\n"), "{v1}");
    let controllers = read(&dir, "src/controller/mod.rs");
    assert!(
        controllers.contains("pub mod cache_controller;\npub mod webapp_controller;\n"),
        "{controllers}"
    );
    let crd = read(&dir, "config/crd/kustomization.yaml");
    // The CRDs are listed once `webop manifests` writes them (kustomize refuses a missing file).
    assert!(!crd.contains("- bases/"), "{crd}");
    let samples = read(&dir, "config/samples/kustomization.yaml");
    assert!(
        samples.contains("- app_v1_webapp.yaml\n- app_v1_cache.yaml\n"),
        "{samples}"
    );
    // The plain flavour: kubebuilder's example field, an empty reconcile.
    assert!(read(&dir, "api/src/v1/cache_types.rs").contains("pub foo: Option<String>,"));
    assert!(
        read(&dir, "src/controller/cache_controller.rs").contains("Ok(Action::await_change())")
    );
    let project = read(&dir, "PROJECT");
    assert!(
        project.contains("  kind: Cache\n  path: webapp_operator_api::v1\n  version: v1\n"),
        "{project}"
    );
}

#[test]
fn a_cluster_scoped_kind_without_a_controller() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let report = run_ok(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["infra", "v1alpha1", "Cluster"],
            &[
                "--namespaced=false",
                "--controller=false",
                "--plural",
                "clusterz",
            ],
        ),
    );
    assert!(!report.contains("_controller.rs"), "{report}");
    let types = read(&dir, "api/src/v1alpha1/cluster_types.rs");
    assert!(
        types.contains("#[resource(plural = \"clusterz\")]\n#[resource(scope = \"Cluster\")]\n"),
        "{types}"
    );
    let project = read(&dir, "PROJECT");
    assert!(
        project.contains("- api:\n    crdVersion: v1\n  domain: example.com\n  group: infra\n"),
        "{project}"
    );
    assert!(project.contains("  plural: clusterz\n"), "{project}");
    let second = refused(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["infra", "v1alpha1", "Cluster"],
            &["--resource=false", "--controller=false"],
        ),
    );
    assert!(second.contains("nothing to scaffold"), "{second}");
}

#[test]
fn shared_api_types_have_a_home_that_later_commands_keep() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let lib = read(&dir, "api/src/lib.rs").replace(
        "// +webop:scaffold:apiversions\n",
        "// +webop:scaffold:apiversions\npub mod common;\n",
    );
    std::fs::write(dir.join("api/src/lib.rs"), &lib).unwrap();
    let v1 = read(&dir, "api/src/v1/mod.rs").replace(
        "// +webop:scaffold:kindexports\n",
        "// +webop:scaffold:kindexports\n\nmod shared;\npub use shared::*;\n",
    );
    std::fs::write(dir.join("api/src/v1/mod.rs"), &v1).unwrap();
    run_ok(&dir, CACHE);
    run_ok(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["app", "v2", "WebApp"],
            &["--controller=false"],
        ),
    );
    let lib = read(&dir, "api/src/lib.rs");
    assert!(
        lib.contains("pub mod v1;\npub mod v2;\n// +webop:scaffold:apiversions\npub mod common;\n"),
        "{lib}"
    );
    let v1 = read(&dir, "api/src/v1/mod.rs");
    assert!(v1.contains("mod cache_types;\nmod webapp_types;\n"), "{v1}");
    assert!(v1.ends_with("mod shared;\npub use shared::*;\n"), "{v1}");
}

#[test]
fn a_controller_per_kind_and_distinct_type_names_per_version() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    let stderr = refused(
        &dir,
        &gvk_command(&["create", "api"], ["app", "v2", "WebApp"], &[]),
    );
    assert!(
        stderr.contains("WebApp already has a controller"),
        "{stderr}"
    );
    assert!(stderr.contains("--controller=false"), "{stderr}");
    let report = run_ok(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["app", "v2", "WebApp"],
            &["--controller=false"],
        ),
    );
    assert!(read(&dir, "api/src/lib.rs").contains("pub mod v1;\npub mod v2;\n"));
    assert!(
        report.contains("WebApp now has versions v1, v2: mark the one the API server stores with #[storage_version]"),
        "{report}"
    );

    let stderr = refused(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["batch", "v1", "WebApp"],
            &["--controller=false"],
        ),
    );
    assert!(
        stderr.contains("api/src/v1/ already has WebApp (of group app.example.com)"),
        "{stderr}"
    );
    let stderr = refused(
        &dir,
        &gvk_command(&["create", "api"], ["app", "v1", "WebAppStatus"], &[]),
    );
    assert!(stderr.contains("invalid kind \"WebAppStatus\""), "{stderr}");
}

#[test]
fn generated_rust_is_rustfmt_clean() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create_webapp(&dir);
    run_ok(&dir, CACHE);
    run_ok(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["app", "v1beta1", "Cache"],
            &["--controller=false"],
        ),
    );
    // The --image types file is excluded: its `Available` printer column is longer than
    // rustfmt's attribute width; the file is user-owned, so `cargo fmt` rewrapping it is harmless.
    let files: Vec<_> = support::files(&dir)
        .into_keys()
        .filter(|p| p.ends_with(".rs") && p != "api/src/v1/webapp_types.rs")
        .collect();
    assert!(files.len() >= 10, "{files:?}");
    for file in &files {
        // Through stdin, so that rustfmt checks this file and does not follow its `mod`s.
        let mut rustfmt = std::process::Command::new("rustfmt")
            .args(["--edition", "2024", "--check"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("rustfmt is installed");
        let source = std::fs::read(dir.join(file)).unwrap();
        std::io::Write::write_all(&mut rustfmt.stdin.take().unwrap(), &source).unwrap();
        let output = rustfmt.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "{file}:\n{}",
            String::from_utf8_lossy(&output.stdout)
        );
    }
}

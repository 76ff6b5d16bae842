//! Commands after commands, as people run them (issue 24): `cargo fmt` between commands, `--force`
//! re-runs, imports over kinds, layout edits, dry runs. One test per defect the model-based test
//! (`tests/cli/cli_sequences.rs`) and the users' trial found, each failing before its fix.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::{gvk_command, init_webapp, project_dir, read, run_ok, tree, workspace};

/// `webop args` in-process in `dir` fails; returns its error.
fn refused(dir: &Path, args: &[&str]) -> String {
    let mut out = Vec::new();
    let argv = std::iter::once("webop").chain(args.iter().copied());
    match webop_cli::cli::run(argv, dir, &mut out) {
        Ok(()) => panic!("webop {} succeeded", args.join(" ")),
        Err(error) => format!("{error:#}"),
    }
}

/// The Rust files of the project (not webop's recorded bases).
fn rust_files(dir: &Path) -> Vec<String> {
    support::files(dir)
        .into_keys()
        .filter(|p| p.ends_with(".rs") && !p.starts_with(".webop-scaffold/"))
        .collect()
}

/// `cargo fmt`: rustfmt over the project's Rust files, as `make build` runs it. Returns whether
/// any file was not as rustfmt lays it out.
fn cargo_fmt(dir: &Path, check: bool) -> bool {
    let mut rustfmt = Command::new("rustfmt");
    rustfmt.args(["--edition", "2024"]);
    if check {
        rustfmt.arg("--check");
    }
    let output = rustfmt
        .args(rust_files(dir))
        .current_dir(dir)
        .output()
        .expect("rustfmt runs");
    if check && !output.status.success() {
        eprintln!("{}", String::from_utf8_lossy(&output.stdout));
    }
    !output.status.success()
}

fn create(dir: &Path, group: &str, version: &str, kind: &str, more: &[&str]) -> String {
    run_ok(
        dir,
        &gvk_command(&["create", "api"], [group, version, kind], more),
    )
}

/// Defect 1: every variant of the scaffold is as `cargo fmt` leaves it, and after `cargo fmt`
/// every command still runs: `delete api` takes the kinds out again.
#[test]
fn every_scaffold_variant_is_rustfmt_clean_and_survives_cargo_fmt() {
    let variants: &[(&str, &[&[&str]])] = &[
        ("plain", &[&["app", "v1", "WebApp"]]),
        (
            "image",
            &[&[
                "app",
                "v1",
                "WebApp",
                "--image",
                "nginx:1.25",
                "--port",
                "80",
            ]],
        ),
        (
            "cluster-scoped",
            &[&["infra", "v1", "Cluster", "--namespaced=false"]],
        ),
        (
            "multigroup",
            &[&["app", "v1", "WebApp"], &["ship", "v1beta1", "Frigate"]],
        ),
        (
            "conversion",
            &[
                &["app", "v1", "WebApp"],
                &["app", "v2", "WebApp", "--controller=false"],
            ],
        ),
    ];
    for (name, kinds) in variants {
        let (_temp, dir) = project_dir();
        init_webapp(&dir);
        assert!(!cargo_fmt(&dir, true), "{name}: init is not rustfmt-clean");
        if *name == "multigroup" {
            run_ok(&dir, &["edit", "--multigroup"]);
        }
        for kind in *kinds {
            create(&dir, kind[0], kind[1], kind[2], &kind[3..]);
        }
        match *name {
            "plain" => {
                run_ok(
                    &dir,
                    &gvk_command(
                        &["create", "webhook"],
                        ["app", "v1", "WebApp"],
                        &["--defaulting", "--programmatic-validation"],
                    ),
                );
            }
            "conversion" => {
                run_ok(
                    &dir,
                    &gvk_command(
                        &["create", "webhook"],
                        ["app", "v1", "WebApp"],
                        &["--conversion", "--spoke", "v2"],
                    ),
                );
            }
            _ => {}
        }
        assert!(
            !cargo_fmt(&dir, true),
            "{name}: the scaffold is not rustfmt-clean"
        );
        cargo_fmt(&dir, false);
        // Every later command runs on the formatted tree.
        if *name == "plain" {
            run_ok(
                &dir,
                &gvk_command(&["delete", "webhook"], ["app", "v1", "WebApp"], &[]),
            );
        }
        if *name == "conversion" {
            run_ok(
                &dir,
                &gvk_command(
                    &["delete", "webhook"],
                    ["app", "v1", "WebApp"],
                    &["--conversion"],
                ),
            );
        }
        for kind in kinds.iter().rev() {
            run_ok(
                &dir,
                &[
                    "delete",
                    "api",
                    "--group",
                    kind[0],
                    "--version",
                    kind[1],
                    "--kind",
                    kind[2],
                ],
            );
        }
    }
}

/// Defect 1: `cargo fmt` right after `init` (and after `import crd`) leaves the DO NOT EDIT
/// files as webop rendered them, so the next command is not refused.
#[test]
fn cargo_fmt_after_init_and_import_keeps_every_command_running() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let before = tree(&dir);
    cargo_fmt(&dir, false);
    assert_eq!(tree(&dir), before, "cargo fmt changed what init wrote");
    let crd =
        workspace().join("testdata/webapp-operator/config/crd/bases/app.example.com_webapps.yaml");
    run_ok(&dir, &["import", "crd", crd.to_str().unwrap()]);
    cargo_fmt(&dir, false);
    create(&dir, "app", "v1", "Cache", &[]);
}

/// Defect 1: a tree laid out otherwise (by an older webop, or another rustfmt run) is not
/// "edited": files equal to their render up to rustfmt's layout are updated and deleted.
#[test]
fn files_equal_to_their_render_up_to_layout_are_not_edits() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create(&dir, "app", "v1", "WebApp", &[]);
    // Laid out otherwise (two-space indents), same tokens: rustfmt gives the file back.
    let squeeze = |path: &str| {
        let text = read(&dir, path);
        let status = Command::new("rustfmt")
            .args(["--edition", "2024", "--config", "tab_spaces=2", path])
            .current_dir(&dir)
            .status()
            .unwrap();
        assert!(status.success());
        assert_ne!(read(&dir, path), text);
    };
    // rustfmt follows `mod` items: the controller is laid out otherwise too.
    let controller = read(&dir, "src/controller/webapp_controller.rs");
    squeeze("src/controller/mod.rs");
    assert_ne!(
        read(&dir, "src/controller/webapp_controller.rs"),
        controller
    );
    create(&dir, "app", "v1", "Cache", &[]);
    run_ok(
        &dir,
        &gvk_command(&["delete", "api"], ["app", "v1", "WebApp"], &[]),
    );
    assert!(!dir.join("src/controller/webapp_controller.rs").exists());
}

/// Defect 3: a second kind with the plural of another kind of its group would be the same CRD;
/// `create api` refuses it, naming the plural, and writes nothing.
#[test]
fn a_plural_another_kind_of_the_group_has_is_refused() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create(&dir, "app", "v1", "WebApp", &[]);
    let before = tree(&dir);
    let error = refused(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["app", "v1", "Bar"],
            &["--plural", "webapps", "--controller=false"],
        ),
    );
    assert!(
        error.contains("\"webapps\"") && error.contains("WebApp"),
        "{error}"
    );
    assert_eq!(tree(&dir), before);
    // The versions of a kind are one CRD, with one plural.
    let error = refused(
        &dir,
        &gvk_command(
            &["create", "api"],
            ["app", "v2", "WebApp"],
            &["--plural", "webs"],
        ),
    );
    assert!(error.contains("one plural"), "{error}");
    // Another group may have the plural.
    create(
        &dir,
        "batch",
        "v1",
        "Bar",
        &["--plural", "webapps", "--controller=false"],
    );
}

/// Defect 4: `create api --force` scaffolds the kind's own files again and keeps what the files
/// it shares with other kinds hold: the conversion's module, the other kinds' samples.
#[test]
fn create_api_force_keeps_the_shared_files_lines() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create(&dir, "app", "v1", "WebApp", &[]);
    create(&dir, "app", "v2", "WebApp", &["--controller=false"]);
    run_ok(
        &dir,
        &gvk_command(
            &["create", "webhook"],
            ["app", "v1", "WebApp"],
            &["--conversion", "--spoke", "v2"],
        ),
    );
    create(&dir, "app", "v1", "Cache", &[]);
    let modules = read(&dir, "api/src/v1/mod.rs");
    let samples = read(&dir, "config/samples/kustomization.yaml");
    create(&dir, "app", "v1", "WebApp", &["--force"]);
    create(
        &dir,
        "app",
        "v2",
        "WebApp",
        &["--controller=false", "--force"],
    );
    assert_eq!(read(&dir, "api/src/v1/mod.rs"), modules);
    assert!(modules.contains("mod webapp_conversion;"), "{modules}");
    assert_eq!(read(&dir, "config/samples/kustomization.yaml"), samples);
    for sample in [
        "app_v1_webapp.yaml",
        "app_v2_webapp.yaml",
        "app_v1_cache.yaml",
    ] {
        assert!(samples.contains(sample), "{samples}");
    }
}

/// Defect 5: `import crd --force` over a kind with a controller replaces its types and keeps its
/// controller, registered, and its `--image` options in PROJECT.
#[test]
fn import_crd_force_keeps_the_kinds_controller() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create(
        &dir,
        "app",
        "v1",
        "WebApp",
        &["--image", "nginx:1.25", "--port", "80"],
    );
    let controller = read(&dir, "src/controller/webapp_controller.rs");
    let registered = read(&dir, "src/controller/mod.rs");
    let crd =
        workspace().join("testdata/webapp-operator/config/crd/bases/app.example.com_webapps.yaml");
    run_ok(&dir, &["import", "crd", crd.to_str().unwrap(), "--force"]);
    let project = read(&dir, "PROJECT");
    assert!(project.contains("controller: true"), "{project}");
    assert!(project.contains("image: nginx:1.25"), "{project}");
    assert_eq!(
        read(&dir, "src/controller/webapp_controller.rs"),
        controller
    );
    assert_eq!(read(&dir, "src/controller/mod.rs"), registered);
}

/// Defect 6: after `edit --multigroup`, each kind's files as webop wrote them are as webop
/// writes them in the new layout, so `delete api` takes them out.
#[test]
fn delete_api_after_edit_multigroup() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create(&dir, "app", "v1", "WebApp", &[]);
    create(&dir, "app", "v1", "Cache", &["--image", "redis:7"]);
    run_ok(&dir, &["edit", "--multigroup"]);
    run_ok(
        &dir,
        &gvk_command(&["delete", "api"], ["app", "v1", "WebApp"], &[]),
    );
    run_ok(&dir, &["edit", "--multigroup=false"]);
    run_ok(
        &dir,
        &gvk_command(&["delete", "api"], ["app", "v1", "Cache"], &[]),
    );
}

/// Defect 8: `manifests --dry-run` refused (an edited DO NOT EDIT file) is refused before it
/// builds anything, and writes nothing, not even Cargo.lock.
#[test]
fn a_refused_manifests_dry_run_builds_and_writes_nothing() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create(&dir, "app", "v1", "WebApp", &[]);
    let path = dir.join("src/controller/mod.rs");
    let mut edited = read(&dir, "src/controller/mod.rs");
    edited.push_str("// mine\n");
    std::fs::write(&path, edited).unwrap();
    let before = tree(&dir);
    let error = refused(&dir, &["manifests", "--dry-run"]);
    assert!(error.contains("src/controller/mod.rs"), "{error}");
    assert_eq!(tree(&dir), before);
}

/// Found by the model-based test (seed 2): `import crd` of a CRD with several versions lists
/// each version's sample in the samples' kustomization (the second version's render of the
/// shared file replaced the first's lines).
#[test]
fn import_crd_of_several_versions_lists_every_sample() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let crd = workspace().join(
        "testdata/cronjob-operator/config/crd/bases/batch.tutorial.kubebuilder.io_cronjobs.yaml",
    );
    run_ok(&dir, &["import", "crd", crd.to_str().unwrap()]);
    let samples = read(&dir, "config/samples/kustomization.yaml");
    for sample in ["- batch_v1_cronjob.yaml\n", "- batch_v2_cronjob.yaml\n"] {
        assert!(samples.contains(sample), "{sample} in {samples}");
    }
}

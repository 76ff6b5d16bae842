//! `create api --image` with kubebuilder's deploy-image options (issue 25 item 5): the
//! container's command (`--container-command`, kubebuilder's `--image-container-command`) and
//! kubebuilder's spec (`--kubebuilder-spec`), as people run them: then `cargo fmt`, `--force`,
//! a second kind. (The scaffold builds and passes its tests in the import of
//! project-v4-with-plugins: `tests/import`.)

use crate::support;

use std::path::Path;
use std::process::Command;

use support::{gvk_command, init_webapp, project_dir, read, run_ok, tree};

const MEMCACHED: &[&str] = &[
    "--image",
    "memcached:1.6.26-alpine3.19",
    "--image-container-port",
    "11211",
    "--run-as-user",
    "1001",
    "--image-container-command",
    "memcached,--memory-limit=64,-o,modern,-v",
    "--kubebuilder-spec",
];

/// rustfmt over the project's Rust files (`cargo fmt`); with `check`, whether one was not as
/// rustfmt lays it out.
fn cargo_fmt(dir: &Path, check: bool) -> bool {
    let files = support::files(dir).into_keys();
    let files = files.filter(|p| p.ends_with(".rs") && !p.starts_with(".webop-scaffold/"));
    let mut rustfmt = Command::new("rustfmt");
    rustfmt
        .args(["--edition", "2024"])
        .args(check.then_some("--check"));
    let output = rustfmt.args(files).current_dir(dir).output().unwrap();
    !output.status.success()
}

fn create(dir: &Path, kind: [&str; 3], more: &[&str]) -> String {
    run_ok(dir, &gvk_command(&["create", "api"], kind, more))
}

#[test]
fn a_kubebuilder_deploy_image_kind_with_a_command_survives_cargo_fmt_force_and_a_second_kind() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    create(&dir, ["cache", "v1alpha1", "Memcached"], MEMCACHED);
    let project = read(&dir, "PROJECT");
    let options = "      options:\n        containerCommand: \"memcached,--memory-limit=64,-o,modern,-v\"\n        \
                   containerPort: \"11211\"\n        image: memcached:1.6.26-alpine3.19\n        \
                   kubebuilderSpec: true\n        runAsUser: \"1001\"\n";
    assert!(project.contains(options), "kubebuilder's keys:\n{project}");
    let controller = read(&dir, "src/controller/memcached_controller.rs");
    for line in [
        r#"pub const IMAGE: &str = "memcached:1.6.26-alpine3.19";"#,
        r#"pub const IMAGE_ENV: &str = "MEMCACHED_IMAGE";"#,
        r#"pub const COMMAND: &[&str] = &["memcached", "--memory-limit=64", "-o", "modern", "-v"];"#,
        "            run_as_user: Some(1001),",
        "            container_port: spec.container_port,",
        "            replicas: Some(spec.size),",
    ] {
        assert!(controller.contains(line), "{line} in:\n{controller}");
    }
    let types = read(&dir, "api/src/v1alpha1/memcached_types.rs");
    assert!(types.contains("pub size: i32,") && types.contains("pub container_port: i32,"));
    assert!(
        !types.contains("pub image"),
        "the image is the options':\n{types}"
    );
    let sample = read(&dir, "config/samples/cache_v1alpha1_memcached.yaml");
    assert!(sample.contains("  size: 1\n") && sample.contains("  containerPort: 11211\n"));
    assert!(!cargo_fmt(&dir, true), "the scaffold is rustfmt-clean");

    // After `cargo fmt`, `--force` scaffolds the kind again, to the same files.
    cargo_fmt(&dir, false);
    let before = tree(&dir);
    let forced = [MEMCACHED, &["--force"][..]].concat();
    create(&dir, ["cache", "v1alpha1", "Memcached"], &forced);
    assert_eq!(
        read(&dir, "src/controller/memcached_controller.rs"),
        controller
    );
    assert_eq!(read(&dir, "PROJECT"), project);
    assert_eq!(tree(&dir).len(), before.len());

    // A second kind: webop's deploy-image controller (spec image, replicas and port) with a
    // command, beside the first, whose options PROJECT keeps.
    let nginx = [
        "--image",
        "nginx:1.27",
        "--container-command",
        "nginx,-g,daemon off;",
    ];
    create(&dir, ["app", "v1", "WebApp"], &nginx);
    let webapp = read(&dir, "src/controller/webapp_controller.rs");
    let command = r#"pub const COMMAND: &[&str] = &["nginx", "-g", "daemon off;"];"#;
    assert!(webapp.contains(command), "{webapp}");
    assert!(
        webapp.contains("image: Some(spec.image.clone()),"),
        "{webapp}"
    );
    let test = read(&dir, "tests/webapp_controller.rs");
    assert!(test.contains("webapp_controller::COMMAND"), "{test}");
    let project = read(&dir, "PROJECT");
    assert!(project.contains("        containerCommand: \"nginx,-g,daemon off;\"\n"));
    assert!(project.contains(options), "{project}");
    assert!(!cargo_fmt(&dir, true), "the second kind is rustfmt-clean");
    assert_eq!(
        read(&dir, "src/controller/memcached_controller.rs"),
        controller
    );

    // Taken out again, with its options.
    run_ok(
        &dir,
        &gvk_command(&["delete", "api"], ["cache", "v1alpha1", "Memcached"], &[]),
    );
    assert!(!read(&dir, "PROJECT").contains("Memcached"));
    assert!(!dir.join("src/controller/memcached_controller.rs").exists());
}

#[test]
fn a_command_with_an_empty_argument_is_refused_and_writes_nothing() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let before = tree(&dir);
    let args = gvk_command(
        &["create", "api"],
        ["cache", "v1alpha1", "Memcached"],
        &[
            "--image",
            "memcached:1.6",
            "--container-command",
            "memcached,,-v",
        ],
    );
    let mut out = Vec::new();
    let argv = std::iter::once("webop").chain(args.iter().copied());
    let error = webop_cli::cli::run(argv, &dir, &mut out).unwrap_err();
    let error = format!("{error:#}");
    assert!(
        error.contains(r#""memcached,,-v": argument 2 is empty"#),
        "{error}"
    );
    assert_eq!(tree(&dir), before);
    // kubebuilder's deploy-image flags need --image.
    let args = gvk_command(
        &["create", "api"],
        ["cache", "v1", "Busybox"],
        &["--kubebuilder-spec"],
    );
    let argv = std::iter::once("webop").chain(args.iter().copied());
    assert!(webop_cli::cli::run(argv, &dir, &mut out).is_err());
    assert_eq!(tree(&dir), before);
}

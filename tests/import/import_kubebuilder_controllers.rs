//! `webop import kubebuilder` of kubebuilder's named controllers: project-v4's Captain has two
//! (`controllers: [{name: captain}, {name: captain-backup}]`), which become two webop
//! controllers, each with the RBAC markers of its own Go reconciler; its cert-manager Certificate,
//! an external kind, gets a controller with its Go reconciler's markers too. (role.yaml equal to
//! the committed one:
//! `kubebuilder_reference_projects_import_with_their_committed_manifests_and_build`.)

use crate::support;

use support::{read, run_ok, workspace};

#[test]
fn project_v4_s_named_and_external_kind_controllers_import_with_their_own_rbac() {
    let go_project = workspace().join("../shared/kubebuilder-projects/project-v4");
    if !go_project.join("PROJECT").is_file() {
        eprintln!("skipped: no {}", go_project.display());
        return;
    }
    let temp = tempfile::tempdir().unwrap();
    let out = temp.path().join("imported");
    let report = run_ok(
        temp.path(),
        &[
            "import",
            "kubebuilder",
            go_project.to_str().unwrap(),
            out.to_str().unwrap(),
            "--webop-path",
            workspace().to_str().unwrap(),
        ],
    );
    assert!(
        !report.contains("named controller"),
        "nothing listed:\n{report}"
    );
    let project = read(&out, "PROJECT");
    assert!(
        project.contains("  controllers:\n  - name: captain\n  - name: captain-backup\n"),
        "recorded as kubebuilder records it:\n{project}"
    );
    let backup = read(&out, "src/controller/captain_backup_controller.rs");
    assert!(
        backup.contains(r#"pub const NAME: &str = "captain-backup";"#),
        "{backup}"
    );
    assert!(
        backup.contains("Replaces `CaptainBackupReconciler.Reconcile` of the kubebuilder project's\n/// `internal/controller/captain_backup_controller.go`"),
        "{backup}"
    );
    let rules = |text: &str| text.lines().filter(|l| l.starts_with("#[rbac(")).count();
    assert_eq!(rules(&backup), 3, "its own three markers:\n{backup}");
    let captain = read(&out, "src/controller/captain_controller.rs");
    assert!(
        captain.contains("`CaptainReconciler.Reconcile`"),
        "{captain}"
    );
    let registry = read(&out, "src/controller/mod.rs");
    assert!(
        registry.contains("captain_backup_controller::run(manager.clone())"),
        "{registry}"
    );
    // The test of each controller creates the Go project's sample, not the scaffold's `foo`.
    let test = read(&out, "tests/captain_backup_controller.rs");
    assert!(!test.contains("foo: Some("), "{test}");
    assert_eq!(rules(&captain), 3, "its own three markers:\n{captain}");

    // cert-manager's Certificate, an external kind with a controller: its type from a CRD that
    // keeps it whole, and a controller of it with the Go reconciler's own RBAC markers.
    assert!(
        !report.contains("Certificate cert-manager/v1: an external kind: not imported"),
        "{report}"
    );
    let certificate = read(&out, "src/controller/certificate_controller.rs");
    assert!(
        certificate.contains("Replaces `CertificateReconciler.Reconcile` of the kubebuilder project's\n/// `internal/controller/certificate_controller.go`"),
        "{certificate}"
    );
    assert_eq!(
        rules(&certificate),
        3,
        "its own three markers:\n{certificate}"
    );
    assert!(
        certificate.contains(
            r#"#[rbac(groups = ["cert-manager.io"], resources = ["certificates/finalizers"], verbs = ["update"])]"#
        ),
        "{certificate}"
    );
    assert!(!captain.contains("cert-manager.io"), "{captain}");
    let types = read(&out, "api/src/v1/certificate_types.rs");
    assert!(
        types.contains("which has a controller: the Go project has no CRD of it"),
        "{types}"
    );
    assert!(
        project.contains("  external: true\n  group: cert-manager\n  kind: Certificate\n"),
        "{project}"
    );
}

//! Kinds named like the items the scaffolded code uses (`Client`, `Api`, `Manager`, `Event`,
//! `Deployment`, ...): the project builds, passes its tests and clippy. Controllers reach a
//! kind's types through the API module's alias (`appv1::Client`), and a kind's variables avoid
//! the templates' own locals.

use crate::support;

use support::{build_test_offline_and_lint, gvk_command, manifests, run_ok, workspace};

#[test]
fn kinds_named_like_the_scaffolds_own_items_build_and_pass_their_tests() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("clash-operator");
    std::fs::create_dir(&dir).unwrap();
    run_ok(&dir, &["init", "--domain", "example.com"]);
    let plain = [
        "Client",
        "Api",
        "Resource",
        "Manager",
        "Action",
        "Recorder",
        "Arc",
        "Context",
        "Error",
        "Condition",
        "Time",
    ];
    for kind in plain {
        run_ok(
            &dir,
            &gvk_command(&["create", "api"], ["app", "v1", kind], &[]),
        );
    }
    // With --image the controller also uses Event, Store, Patch, Deployment and Service.
    for kind in ["Event", "Store", "Patch", "Deployment", "Service"] {
        run_ok(
            &dir,
            &gvk_command(
                &["create", "api"],
                ["web", "v1", kind],
                &["--image", "nginx:1.25"],
            ),
        );
    }
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    manifests(&dir);
    // The names are what is tested here, not the server: the testkit suffices.
    build_test_offline_and_lint(&dir);
}

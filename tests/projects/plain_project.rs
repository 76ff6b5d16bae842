//! A project scaffolded without `--image`: several kinds across groups and versions, one of
//! them cluster-scoped, one without a controller. What the user starts from must build, pass
//! its own tests and clippy, and regenerate its manifests, before they write a line.

use crate::support;

use std::path::Path;
use std::process::Command;

use support::{build_test_and_lint, manifests, manifests_with, run_ok, workspace};

fn scaffold(dir: &Path) {
    run_ok(dir, &["init", "--domain", "example.org"]);
    for kind in [
        "--group ship --version v1beta1 --kind Frigate",
        "--group infra --version v1 --kind Cluster --namespaced=false",
        "--group ship --version v1 --kind Harbor --controller=false",
    ] {
        let args: Vec<&str> = ["create", "api"]
            .into_iter()
            .chain(kind.split(' '))
            .collect();
        run_ok(dir, &args);
    }
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
}

#[test]
fn a_plain_project_builds_passes_its_tests_and_regenerates_its_manifests() {
    let temp = tempfile::tempdir().unwrap();
    let dir = temp.path().join("fleet-operator");
    std::fs::create_dir(&dir).unwrap();
    scaffold(&dir);

    manifests(&dir);
    for crd in [
        "ship.example.org_frigates.yaml",
        "ship.example.org_harbors.yaml",
        "infra.example.org_clusters.yaml",
    ] {
        let path = dir.join("config/crd/bases").join(crd);
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{crd}: {e}"));
        let scope = if crd.starts_with("infra") {
            "scope: Cluster"
        } else {
            "scope: Namespaced"
        };
        assert!(text.contains(scope), "{crd}:\n{text}");
    }
    let frigates = dir.join("config/crd/bases/ship.example.org_frigates.yaml");
    let described = std::fs::read_to_string(&frigates).unwrap();
    assert!(described.contains("description:"), "{described}");
    manifests_with(&dir, &["--max-desc-len", "0"]);
    let bare = std::fs::read_to_string(&frigates).unwrap();
    assert!(!bare.contains("description:"), "{bare}");

    let role = std::fs::read_to_string(dir.join("config/rbac/role.yaml")).unwrap();
    assert!(role.contains("- frigates/status"), "{role}");
    assert!(role.contains("- clusters/status"), "{role}");
    assert!(
        !role.contains("harbors"),
        "Harbor has no controller:\n{role}"
    );

    build_test_and_lint(&dir);
    rbac_and_serde_in_the_api_crate(&dir);

    let kustomize = Command::new("kubectl")
        .arg("kustomize")
        .arg(dir.join("config/default"))
        .output()
        .expect("kubectl is installed");
    assert!(
        kustomize.status.success(),
        "kubectl kustomize: {}",
        String::from_utf8_lossy(&kustomize.stderr)
    );
}

/// `#[rbac]` and `#[webhook]` in the API crate count, as controller-gen reads the markers of
/// every package; and serde's own derives, which kube-rs code imports, give the same CRD as the prelude's.
fn rbac_and_serde_in_the_api_crate(dir: &Path) {
    manifests(dir);
    let harbors = dir.join("config/crd/bases/ship.example.org_harbors.yaml");
    let crd_before = std::fs::read_to_string(&harbors).unwrap();
    let types = dir.join("api/src/v1/harbor_types.rs");
    let source = std::fs::read_to_string(&types).unwrap().replacen(
        "use webop::prelude::*;\n",
        "use serde::{Deserialize, Serialize};\nuse webop::prelude::*;\n\n\
         #[rbac(groups = [\"batch\"], resources = [\"jobs\"], verbs = [\"get\", \"list\", \"watch\"])]\n\
         pub struct JobReader;\n\n\
         #[webhook(path = \"/validate-ship-example-org-v1-harbor\", mutating = false, failure_policy = \"fail\", \
         side_effects = \"None\", groups = [\"ship.example.org\"], resources = [\"harbors\"], \
         verbs = [\"create\", \"update\"], versions = [\"v1\"], name = \"vharbor-v1.kb.io\", \
         admission_review_versions = [\"v1\"])]\n\
         pub struct HarborValidator;\n",
        1,
    );
    std::fs::write(&types, source).unwrap();
    manifests(dir);
    assert_eq!(std::fs::read_to_string(&harbors).unwrap(), crd_before);
    let role = std::fs::read_to_string(dir.join("config/rbac/role.yaml")).unwrap();
    assert!(role.contains("  - jobs\n"), "{role}");
    let webhooks = std::fs::read_to_string(dir.join("config/webhook/manifests.yaml")).unwrap();
    assert!(
        webhooks.contains("kind: ValidatingWebhookConfiguration")
            && webhooks.contains("  name: vharbor-v1.kb.io\n"),
        "{webhooks}"
    );
    support::lint(dir);
}

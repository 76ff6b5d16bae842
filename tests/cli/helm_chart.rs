//! `webop edit --plugins helm`: the chart in dist/chart/, rendered with its default values by
//! `helm template`, installs the objects `kubectl kustomize config/default` builds, object by
//! object; and it follows the project when a later command changes config/.
//!
//! helm is `$WEBOP_HELM`, else `<repo>/bin/helm` (`tools/helm` builds it from its Go module). As
//! for every test against the reference tools: with `KUBEBUILDER_ASSETS` set (as `.ci/run` sets
//! it) helm is required; without it a missing helm skips the comparisons. Needs `kubectl`.

use crate::helm_support;
use crate::support;

use std::process::Command;

use helm_support::{
    assert_chart_is_the_kustomize_build, assert_chart_renders, golden_copy, helm, helm_template,
    lint,
};
use serde_json::Value;
use support::{files, gvk_command, init_webapp, project_dir, refused, run_ok, workspace};

fn find<'a>(docs: &'a [Value], kind: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind}"))
}

#[test]
fn the_webapp_chart_installs_the_kustomize_build_namespaced_or_not_and_its_values_change_it() {
    let (_temp, dir) = golden_copy("webapp-operator");
    run_ok(&dir, &["edit", "--plugins", "helm"]);
    let Some(helm) = helm() else { return };
    lint(&helm, &dir);
    assert_chart_is_the_kustomize_build(&helm, &dir, "webapp-operator");

    // A namespace-scoped manager: a Role, a RoleBinding and WATCH_NAMESPACE, in both.
    run_ok(&dir, &["edit", "--namespaced"]);
    assert_chart_is_the_kustomize_build(&helm, &dir, "webapp-operator");
    run_ok(&dir, &["edit", "--namespaced=false"]);

    // The values reach the objects.
    let docs = helm_template(
        &helm,
        &dir,
        "webapp-operator",
        &[
            "--set",
            "manager.replicas=3,manager.image.repository=example.com/webapp,manager.image.tag=v2",
            "--set",
            "manager.leaderElection=false,metrics.secure=false,metrics.port=8080",
            "--set",
            "manager.resources.limits.memory=256Mi,crd.enabled=false,rbac.helpers.enabled=false",
        ],
    );
    let deployment = find(&docs, "Deployment");
    assert_eq!(deployment["spec"]["replicas"], 3);
    let container = &deployment["spec"]["template"]["spec"]["containers"][0];
    assert_eq!(container["image"], "example.com/webapp:v2");
    assert_eq!(container["resources"]["limits"]["memory"], "256Mi");
    let args: Vec<&str> = container["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.as_str().unwrap())
        .collect();
    assert_eq!(
        args,
        [
            "--metrics-bind-address=:8080",
            "--metrics-secure=false",
            "--health-probe-bind-address=:8081",
            "--log-format=json"
        ]
    );
    let service = docs
        .iter()
        .find(|d| d["kind"] == "Service")
        .expect("the metrics Service");
    assert_eq!(service["spec"]["ports"][0]["name"], "http");
    assert_eq!(service["spec"]["ports"][0]["port"], 8080);
    assert!(
        docs.iter().all(|d| d["kind"] != "CustomResourceDefinition"),
        "a CRD rendered"
    );
    assert!(
        docs.iter().all(|d| !d["metadata"]["name"]
            .as_str()
            .unwrap()
            .ends_with("-admin-role")),
        "helper roles rendered"
    );
    assert!(
        docs.iter()
            .all(|d| d["metadata"]["name"] != "webapp-operator-leader-election-role"),
        "leader election role rendered"
    );
}

#[test]
fn the_chart_of_a_project_with_conversion_and_admission_webhooks_installs_the_kustomize_build() {
    let (_temp, dir) = golden_copy("cronjob-operator");
    run_ok(&dir, &["edit", "--plugins", "helm"]);
    let Some(helm) = helm() else { return };
    lint(&helm, &dir);
    assert_chart_is_the_kustomize_build(&helm, &dir, "cronjob-operator");

    // Without cert-manager: no Issuer or Certificate, and nothing names them.
    let docs = helm_template(
        &helm,
        &dir,
        "cronjob-operator",
        &["--set", "certManager.enabled=false"],
    );
    for doc in &docs {
        assert!(
            doc["apiVersion"] != "cert-manager.io/v1",
            "{} rendered",
            doc["kind"]
        );
        assert!(
            doc["metadata"]["annotations"]["cert-manager.io/inject-ca-from"].is_null(),
            "{} {} injects a CA",
            doc["kind"],
            doc["metadata"]["name"]
        );
    }
}

#[test]
fn a_chart_template_you_edited_is_refused_and_dry_run_writes_nothing() {
    let (_temp, dir) = golden_copy("webapp-operator");
    let before = files(&dir);
    let plan = run_ok(&dir, &["edit", "--plugins", "helm", "--dry-run"]);
    assert!(
        plan.lines()
            .any(|l| l == "created dist/chart/templates/manager/manager.yaml"),
        "{plan}"
    );
    assert_eq!(files(&dir), before, "--dry-run wrote");

    run_ok(&dir, &["edit", "--plugins", "helm"]);
    let manager = dir.join("dist/chart/templates/manager/manager.yaml");
    let edited = std::fs::read_to_string(&manager).unwrap() + "# mine\n";
    std::fs::write(&manager, &edited).unwrap();
    let message = refused(&dir, &["edit", "--plugins", "helm"]);
    assert!(
        message.contains("dist/chart/templates/manager/manager.yaml was edited"),
        "{message}"
    );
    // Every later command refuses too, rather than leave the chart behind config/.
    refused(
        &dir,
        &gvk_command(&["create", "api"], ["app", "v1", "Site"], &[]),
    );
    run_ok(&dir, &["edit", "--plugins", "helm", "--force"]);
    assert_ne!(std::fs::read_to_string(&manager).unwrap(), edited);
}

#[test]
fn unknown_plugins_are_refused() {
    let (_temp, dir) = golden_copy("webapp-operator");
    let message = refused(&dir, &["edit", "--plugins", "helm,kustomize"]);
    assert!(
        message.contains("invalid value 'kustomize' for '--plugins <PLUGIN>'"),
        "{message}"
    );
    assert!(message.contains("helm, grafana"), "{message}");
}

#[test]
fn later_commands_keep_the_chart_in_step_and_values_yaml_is_yours() {
    let (_temp, dir) = golden_copy("webapp-operator");
    run_ok(&dir, &["edit", "--plugins", "helm"]);
    let project = std::fs::read_to_string(dir.join("PROJECT")).unwrap();
    assert!(
        project.contains("\n  helm.webop.dev/v1-alpha: {}\n"),
        "{project}"
    );
    let values = dir.join("dist/chart/values.yaml");
    let mine = std::fs::read_to_string(&values)
        .unwrap()
        .replace("replicas: 1", "replicas: 2");
    std::fs::write(&values, &mine).unwrap();

    // A new kind: its admin, editor and viewer roles join the chart; `delete api` takes them out
    // again, to the byte.
    let before_kind = files(&dir);
    let report = run_ok(
        &dir,
        &gvk_command(&["create", "api"], ["ops", "v1", "Site"], &[]),
    );
    for role in ["admin", "editor", "viewer"] {
        let line = format!("created dist/chart/templates/rbac/site-{role}-role.yaml");
        assert!(report.lines().any(|l| l == line), "{line} in {report}");
    }
    assert!(!report.contains("values.yaml"), "{report}");
    run_ok(
        &dir,
        &gvk_command(&["delete", "api"], ["ops", "v1", "Site"], &[]),
    );
    assert_eq!(
        files(&dir),
        before_kind,
        "create then delete api changed the tree"
    );

    // A webhook: its Service and cert-manager's objects join the chart.
    let report = run_ok(
        &dir,
        &gvk_command(
            &["create", "webhook"],
            ["app", "v1", "WebApp"],
            &["--defaulting"],
        ),
    );
    for file in [
        "webhook/webhook-service.yaml",
        "cert-manager/serving-cert.yaml",
        "cert-manager/selfsigned-issuer.yaml",
    ] {
        let line = format!("created dist/chart/templates/{file}");
        assert!(report.lines().any(|l| l == line), "{line} in {report}");
    }
    let manager =
        std::fs::read_to_string(dir.join("dist/chart/templates/manager/manager.yaml")).unwrap();
    assert!(manager.contains("--webhook-port={{ .Values.webhook.port }}"));

    // Running the plugin again keeps values.yaml; --force writes it anew.
    let report = run_ok(&dir, &["edit", "--plugins", "helm"]);
    assert!(
        report
            .lines()
            .any(|l| l == "skipped dist/chart/values.yaml (exists; --force to overwrite)"),
        "{report}"
    );
    assert_eq!(std::fs::read_to_string(&values).unwrap(), mine);
    run_ok(&dir, &["edit", "--plugins", "helm", "--force"]);
    assert!(
        std::fs::read_to_string(&values)
            .unwrap()
            .contains("replicas: 1")
    );
}

#[test]
fn a_chart_enabled_first_follows_two_groups_three_kinds_a_webhook_and_manifests() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    run_ok(&dir, &["edit", "--plugins", "helm"]);
    for (group, kind, controller) in [
        ("app", "WebApp", "--controller=true"),
        ("ops", "Backup", "--controller=true"),
        ("app", "Site", "--controller=false"),
    ] {
        run_ok(
            &dir,
            &gvk_command(&["create", "api"], [group, "v1", kind], &[controller]),
        );
    }
    run_ok(
        &dir,
        &gvk_command(
            &["create", "webhook"],
            ["app", "v1", "Site"],
            &["--programmatic-validation"],
        ),
    );
    // `make build-installer` runs `webop manifests`, which writes the CRDs, the manager's role
    // and the webhook configuration (the chart's templates of them follow), then the bundle.
    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let image = "registry.example.com/webapp-operator:v0.1.0";
    let build = support::one_build_at_a_time(&dir);
    let output = webop_cli::cli::cargo::shell_environment(&mut Command::new("make"))
        .args(["--no-print-directory", "build-installer"])
        .arg(format!("WEBOP={}", env!("CARGO_BIN_EXE_webop")))
        .arg(format!("IMG={image}"))
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", support::target_dir())
        .env("CARGO_INCREMENTAL", "0")
        .output()
        .expect("make runs");
    drop(build);
    assert!(
        output.status.success(),
        "make build-installer failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let chart = dir.join("dist/chart/templates");
    for file in [
        "crd/webapps.app.example.com.yaml",
        "crd/backups.ops.example.com.yaml",
        "crd/sites.app.example.com.yaml",
        "webhook/validating-webhook-configuration.yaml",
    ] {
        assert!(chart.join(file).is_file(), "{file} missing");
    }
    let Some(helm) = helm() else { return };
    assert_chart_is_the_kustomize_build(&helm, &dir, "webapp-operator");
    // dist/install.yaml and the chart with the same image describe the same objects.
    let bundle = std::fs::read_to_string(dir.join("dist/install.yaml")).unwrap();
    let (repository, tag) = image.rsplit_once(':').unwrap();
    assert_chart_renders(
        &helm,
        &dir,
        "webapp-operator",
        &[
            "--set",
            &format!("manager.image.repository={repository},manager.image.tag={tag}"),
        ],
        serde_saphyr::from_str_multiple(&bundle).unwrap(),
    );
    // git keeps the chart, and ignores the rest of dist/.
    let ignore = std::fs::read_to_string(dir.join(".gitignore")).unwrap();
    assert!(ignore.contains("\n/dist/*\n!/dist/chart/\n"), "{ignore}");
}

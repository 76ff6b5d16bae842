//! What `webop create webhook` makes of the WebApp project once built: what
//! `kubectl kustomize config/default` builds (the webhooks, their service, certificate and CA
//! injection), and the generated project with webhooks built and tested by
//! `a_project_with_webhooks_builds_and_passes_its_tests` (expensive: one project build).

use crate::support;
use crate::webhook_project;

use std::path::Path;

use serde_json::Value;
use support::{
    build_test_offline_and_lint_serving, gvk_command, kustomize, manifests, read, run_ok,
    scaffold_step, workspace,
};
use webhook_project::{V2, WEBHOOK, webapp, with};

fn find<'a>(docs: &'a [Value], kind: &str) -> &'a Value {
    docs.iter()
        .find(|d| d["kind"] == kind)
        .unwrap_or_else(|| panic!("no {kind} in the build"))
}

/// What `webop manifests` writes, without compiling the project: the golden's CRD (the same
/// WebApp v1) and config/webhook/manifests.yaml from the #[webhook]s of the sources, through the
/// scaffold engine as `manifests` writes them (which lists the CRD in config/crd).
fn write_manifests(dir: &Path) {
    let crd = "config/crd/bases/app.example.com_webapps.yaml";
    let mut generated = vec![(
        crd.to_string(),
        read(&workspace().join("testdata/webapp-operator"), crd),
    )];
    let found = webop::webhook::webhooks_in_dirs(&[dir.join("src")]).unwrap();
    let file = webop::manifests::webhook_file(&found.webhooks, &found.configurations)
        .unwrap()
        .expect("the scaffold has #[webhook]s");
    generated.push((file.path.to_string_lossy().into_owned(), file.contents));
    let project = webop_cli::project::Project::load(dir).unwrap();
    let templates = webop_cli::scaffold::Templates::load().unwrap();
    scaffold_step(
        &templates,
        dir,
        Some(&project),
        &project,
        webop_cli::scaffolds::Command::Manifests(&generated),
    );
}

#[test]
fn kustomize_builds_the_webhooks_their_service_certificate_and_ca_injection() {
    let (_temp, dir) = webapp();
    run_ok(
        &dir,
        &with(WEBHOOK, &["--defaulting", "--programmatic-validation"]),
    );
    run_ok(&dir, V2);
    run_ok(&dir, &with(WEBHOOK, &["--conversion", "--spoke", "v2"]));
    write_manifests(&dir);
    let docs = kustomize(&dir.join("config/default"));

    let ca = "webapp-operator-system/webapp-operator-serving-cert";
    for (kind, path) in [
        (
            "MutatingWebhookConfiguration",
            "/mutate-app-example-com-v1-webapp",
        ),
        (
            "ValidatingWebhookConfiguration",
            "/validate-app-example-com-v1-webapp",
        ),
    ] {
        let configuration = find(&docs, kind);
        assert_eq!(
            configuration["metadata"]["annotations"]["cert-manager.io/inject-ca-from"], ca,
            "{kind}"
        );
        let service = &configuration["webhooks"][0]["clientConfig"]["service"];
        assert_eq!(service["name"], "webapp-operator-webhook-service", "{kind}");
        assert_eq!(service["namespace"], "webapp-operator-system", "{kind}");
        assert_eq!(service["path"], path, "{kind}");
    }
    let service = docs
        .iter()
        .find(|d| {
            d["kind"] == "Service" && d["metadata"]["name"] == "webapp-operator-webhook-service"
        })
        .expect("the webhook Service");
    assert_eq!(service["spec"]["ports"][0]["port"], 443);
    assert_eq!(service["spec"]["ports"][0]["targetPort"], 9443);
    let issuer = find(&docs, "Issuer");
    assert_eq!(
        issuer["metadata"]["name"],
        "webapp-operator-selfsigned-issuer"
    );
    let certificate = find(&docs, "Certificate");
    assert_eq!(
        certificate["metadata"]["name"],
        "webapp-operator-serving-cert"
    );
    assert_eq!(
        certificate["spec"]["issuerRef"]["name"],
        "webapp-operator-selfsigned-issuer"
    );
    assert_eq!(
        certificate["spec"]["dnsNames"],
        serde_json::json!([
            "webapp-operator-webhook-service.webapp-operator-system.svc",
            "webapp-operator-webhook-service.webapp-operator-system.svc.cluster.local"
        ])
    );
    let deployment = find(&docs, "Deployment");
    let container = &deployment["spec"]["template"]["spec"]["containers"][0];
    let args: Vec<&str> = container["args"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        args.contains(&"--webhook-cert-path=/tmp/k8s-webhook-server/serving-certs"),
        "{args:?}"
    );
    assert!(args.contains(&"--webhook-port=9443"), "{args:?}");
    assert!(
        container["ports"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["containerPort"] == 9443)
    );
    assert_eq!(
        deployment["spec"]["template"]["spec"]["volumes"][0]["secret"]["secretName"],
        "webhook-server-cert"
    );
    let crd = find(&docs, "CustomResourceDefinition");
    assert_eq!(
        crd["metadata"]["annotations"]["cert-manager.io/inject-ca-from"],
        ca
    );
    let conversion = &crd["spec"]["conversion"];
    assert_eq!(conversion["strategy"], "Webhook");
    let service = &conversion["webhook"]["clientConfig"]["service"];
    assert_eq!(service["name"], "webapp-operator-webhook-service");
    assert_eq!(service["namespace"], "webapp-operator-system");
    assert_eq!(service["path"], "/convert");

    let policies = kustomize(&dir.join("config/network-policy"));
    let webhook_policy = policies
        .iter()
        .find(|d| d["metadata"]["name"] == "allow-webhook-traffic")
        .expect("the webhook NetworkPolicy");
    assert_eq!(
        webhook_policy["spec"]["ingress"][0]["ports"][0]["port"],
        9443
    );
}

/// The Done-when of issue 12 on one generated project (one build): WebApp with defaulting and
/// validating webhooks; v2 (the v1 types again) and v3 (`create api`'s plain type) created with
/// --controller=false, and a conversion webhook from the hub v1 to both. webop writes the whole
/// v1<->v2 conversion (so `tests/webapp_conversion.rs` round-trips v2 for real) and a TODO for v3
/// (its test ignored until the user writes it). Webhooks of Kubernetes' own kinds beside them
/// (kubebuilder's "webhooks for core types": a Pod's defaulter, a Deployment's defaulter and
/// validator). `make manifests`, then the project builds, its tests pass (the webhook tests among
/// them, each webhook called by the API server) and clippy is clean.
#[test]
fn a_project_with_webhooks_builds_and_passes_its_tests() {
    let (_temp, dir) = webapp();
    run_ok(
        &dir,
        &with(WEBHOOK, &["--defaulting", "--programmatic-validation"]),
    );
    run_ok(&dir, V2);
    let v1_types = read(&dir, "api/src/v1/webapp_types.rs");
    let v2_types = v1_types.replace("version = \"v1\"", "version = \"v2\"");
    std::fs::write(dir.join("api/src/v2/webapp_types.rs"), v2_types).unwrap();
    run_ok(
        &dir,
        &V2.iter()
            .map(|a| if *a == "v2" { "v3" } else { a })
            .collect::<Vec<_>>(),
    );
    run_ok(&dir, &with(WEBHOOK, &["--conversion", "--spoke", "v2,v3"]));
    let v2 = read(&dir, "api/src/v2/webapp_conversion.rs");
    assert!(!v2.contains("TODO(user): convert WebApp"), "{v2}");
    assert!(
        v2.contains("super::WebAppPhase::Pending => v1::WebAppPhase::Pending"),
        "{v2}"
    );
    let v3 = read(&dir, "api/src/v3/webapp_conversion.rs");
    assert!(v3.contains("Err(ConversionError::new("), "{v3}");
    let round_trips = read(&dir, "tests/webapp_conversion.rs");
    assert!(
        round_trips.contains("#[test]\nfn v2_round_trips_through_the_hub()"),
        "{round_trips}"
    );
    assert!(
        round_trips.contains("#[test]\n#[ignore = \"TODO(user): write the conversion of WebApp v3"),
        "{round_trips}"
    );

    let pod = gvk_command(
        &["create", "webhook"],
        ["core", "v1", "Pod"],
        &["--defaulting"],
    );
    run_ok(&dir, &pod);
    let deployment = ["apps", "v1", "Deployment"];
    let both = ["--defaulting", "--programmatic-validation"];
    run_ok(
        &dir,
        &gvk_command(&["create", "webhook"], deployment, &both),
    );

    std::fs::copy(workspace().join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    manifests(&dir);
    let crd = read(&dir, "config/crd/bases/app.example.com_webapps.yaml");
    assert!(
        crd.contains("name: v2") && crd.contains("name: v3"),
        "{crd}"
    );
    let webhooks = read(&dir, "config/webhook/manifests.yaml");
    assert!(
        webhooks.contains("name: mwebapp-v1.kb.io") && webhooks.contains("name: vwebapp-v1.kb.io"),
        "{webhooks}"
    );
    // As kubebuilder's project-v4 has them in its config/webhook/manifests.yaml.
    for line in [
        "path: /mutate--v1-pod",
        "name: mpod-v1.kb.io",
        "path: /validate-apps-v1-deployment",
        "name: vdeployment-v1.kb.io",
    ] {
        assert!(webhooks.contains(line), "{line}: {webhooks}");
    }
    // The WebApp controller's tests are the golden project's, which runs them on the real
    // server; here the webhooks are what the API server must call.
    build_test_offline_and_lint_serving(
        &dir,
        &["webapp_webhook", "pod_webhook", "deployment_webhook"],
    );
}

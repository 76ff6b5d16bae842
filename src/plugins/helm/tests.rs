//! The chart's files for projects held in memory.

use super::*;

#[test]
fn git_keeps_the_chart_but_ignores_the_rest_of_dist() {
    assert_eq!(
        gitignore_keeping_the_chart("/target/\n/dist/\n/bin/\n").as_deref(),
        Some("/target/\n/dist/*\n!/dist/chart/\n/bin/\n")
    );
    assert_eq!(
        gitignore_keeping_the_chart("/dist/*\n!/dist/chart/\n"),
        None
    );
}

#[test]
fn the_deployment_has_the_webhook_server_only_with_webhooks() {
    let plain = manager("demo", false, false);
    assert!(!plain.contains("webhook-server"), "{plain}");
    assert!(plain.contains("        volumeMounts: []\n"), "{plain}");
    assert!(!plain.contains("#@"), "{plain}");
    let served = manager("demo", true, false);
    assert!(
        served.contains("        - --webhook-port={{ .Values.webhook.port }}\n"),
        "{served}"
    );
    assert!(
        served.contains("        volumeMounts: {{ if not .Values.webhook.enabled }}[]{{ end }}\n"),
        "{served}"
    );
    assert!(!served.contains("volumeMounts: []"), "{served}");
}

#[test]
fn a_namespaced_manager_watches_its_namespace() {
    let cluster = manager("demo", false, false);
    assert!(cluster.contains("{{- if or .Values.manager.env false }}"));
    assert!(!cluster.contains("WATCH_NAMESPACE"));
    let namespaced = manager("demo", false, true);
    assert!(namespaced.contains("{{- if or .Values.manager.env true }}"));
    assert!(namespaced.contains("        - name: WATCH_NAMESPACE\n"));
}

#[test]
fn every_chart_template_starts_with_the_header_and_names_its_project() {
    let project: Project = serde_saphyr::from_str(
        "domain: example.com\nlayout:\n- webop.dev/v1\nprojectName: demo\nresources:\n\
         - api:\n    crdVersion: v1\n    namespaced: true\n  controller: true\n  \
         domain: example.com\n  group: app\n  kind: Site\n  path: demo_api::v1\n  \
         version: v1\n  webhooks:\n    validation: true\n    webhookVersion: v1\nversion: \"3\"\n",
    )
    .unwrap();
    let files = templates(&Templates::load().unwrap(), &project, &|_| Ok(None)).unwrap();
    let paths: Vec<&str> = files.iter().map(|(p, _)| p.as_str()).collect();
    for wanted in [
        "dist/chart/templates/rbac/site-admin-role.yaml",
        "dist/chart/templates/rbac/manager-role.yaml",
        "dist/chart/templates/webhook/webhook-service.yaml",
        "dist/chart/templates/cert-manager/serving-cert.yaml",
    ] {
        assert!(paths.contains(&wanted), "{wanted} in {paths:?}");
    }
    // No CRD or webhook configuration before `webop manifests` writes them.
    assert!(!paths.iter().any(|p| p.contains("/crd/")), "{paths:?}");
    for (path, contents) in &files {
        assert!(contents.starts_with(HEADER), "{path}");
        assert!(!contents.contains("@PROJECT@"), "{path}");
        assert!(!contents.contains("webophelm"), "{path}");
    }
}

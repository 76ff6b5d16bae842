//! `webop edit --plugins grafana`: grafana/ holds the dashboards of the manager's metrics
//! (`tests/manager/manager_metrics.rs` checks that every metric they query is served), recorded in
//! PROJECT, tool-owned dashboards refused when edited, the custom metrics' config the user's.

use crate::support;

use support::{files, init_webapp, project_dir, refused, run_ok};

#[test]
fn dashboards_are_written_recorded_and_guarded() {
    let (_temp, dir) = project_dir();
    init_webapp(&dir);
    let before = files(&dir);
    let plan = run_ok(&dir, &["edit", "--plugins", "grafana", "--dry-run"]);
    assert!(
        plan.lines()
            .any(|l| l == "created grafana/controller-runtime-metrics.json"),
        "{plan}"
    );
    assert_eq!(files(&dir), before, "--dry-run wrote");

    let report = run_ok(&dir, &["edit", "--plugins", "grafana"]);
    for file in [
        "grafana/controller-runtime-metrics.json",
        "grafana/controller-resources-metrics.json",
        "grafana/custom-metrics/config.yaml",
    ] {
        assert!(
            report.lines().any(|l| l == format!("created {file}")),
            "{file} in {report}"
        );
    }
    let project = std::fs::read_to_string(dir.join("PROJECT")).unwrap();
    assert!(
        project.contains("plugins:\n  grafana.webop.dev/v1-alpha: {}\n"),
        "{project}"
    );
    for file in [
        "controller-runtime-metrics.json",
        "controller-resources-metrics.json",
    ] {
        let text = std::fs::read_to_string(dir.join("grafana").join(file)).unwrap();
        let dashboard: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(dashboard["panels"].as_array().unwrap().len() > 3, "{file}");
    }

    // The custom metrics' config is yours: a metric listed there gets a dashboard panel.
    let config = dir.join("grafana/custom-metrics/config.yaml");
    let mine = "customMetrics:\n  - metric: mine_total\n    type: counter\n";
    std::fs::write(&config, mine).unwrap();
    let report = run_ok(&dir, &["edit", "--plugins", "grafana"]);
    let custom_path = "grafana/custom-metrics/custom-metrics-dashboard.json";
    assert!(
        report
            .lines()
            .any(|l| l == format!("created {custom_path}")),
        "{report}"
    );
    let custom = std::fs::read_to_string(dir.join(custom_path)).unwrap();
    let query =
        r#"sum(rate(mine_total{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, pod)"#;
    assert!(custom.contains(query), "{custom}");
    std::fs::write(&config, mine.replace("counter", "summary")).unwrap();
    let message = refused(&dir, &["edit", "--plugins", "grafana"]);
    assert!(
        message.contains(
            "grafana/custom-metrics/config.yaml: metric mine_total: type \"summary\" is not"
        ),
        "{message}"
    );
    std::fs::write(&config, mine).unwrap();

    // A dashboard is webop's.
    let dashboard = dir.join("grafana/controller-runtime-metrics.json");
    let original = std::fs::read_to_string(&dashboard).unwrap();
    std::fs::write(
        &dashboard,
        original.replace("Controller-Runtime-Metrics", "Mine"),
    )
    .unwrap();
    let message = refused(&dir, &["edit", "--plugins", "grafana"]);
    assert!(
        message.contains("grafana/controller-runtime-metrics.json was edited"),
        "{message}"
    );
    run_ok(&dir, &["edit", "--plugins", "grafana", "--force"]);
    assert_eq!(std::fs::read_to_string(&dashboard).unwrap(), original);
    // --force overwrites the config as well, as every user-owned file.
    let config_text = std::fs::read_to_string(&config).unwrap();
    assert!(config_text.contains("customMetrics: []"), "{config_text}");
}

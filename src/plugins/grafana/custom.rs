//! `grafana/custom-metrics/config.yaml` (the user's) to `custom-metrics-dashboard.json`
//! (webop's), as kubebuilder's grafana plugin renders it: one panel per metric, its query the
//! given `expr`, else a rate for a counter, the value for a gauge, the P90 for a histogram.

use serde::Deserialize;

use super::dashboards::{Dashboard, Panel};

/// The user's config, relative to the project root.
pub const CONFIG: &str = "grafana/custom-metrics/config.yaml";

/// A `config.yaml` that cannot be read; nothing was written.
#[derive(Debug, thiserror::Error)]
#[error("{CONFIG}: {message}; fix it and run the command again")]
pub struct BadConfig {
    pub message: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Config {
    #[serde(default)]
    custom_metrics: Option<Vec<CustomMetric>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CustomMetric {
    metric: String,
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    expr: Option<String>,
    #[serde(default)]
    unit: Option<String>,
}

const SELECTOR: &str = "job=\"$job\", namespace=\"$namespace\"";

/// The dashboard of the metrics `config` lists; `None` when it lists none.
pub fn dashboard(config: &str) -> Result<Option<Dashboard>, BadConfig> {
    let config: Config = serde_saphyr::from_str(config).map_err(|e| BadConfig {
        message: e.to_string(),
    })?;
    let metrics = config.custom_metrics.unwrap_or_default();
    if metrics.is_empty() {
        return Ok(None);
    }
    let mut panels = Vec::new();
    for metric in metrics {
        let name = metric.metric.trim();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            || name.starts_with(|c: char| c.is_ascii_digit())
        {
            return Err(BadConfig {
                message: format!(
                    "metric {name:?} is not a Prometheus metric name ([a-zA-Z_:][a-zA-Z0-9_:]*)"
                ),
            });
        }
        let default = match metric.kind.as_str() {
            "counter" => format!("sum(rate({name}{{{SELECTOR}}}[5m])) by (instance, pod)"),
            "gauge" => format!("{name}{{{SELECTOR}}}"),
            "histogram" => format!(
                "histogram_quantile(0.90, sum by(instance, le) (rate({name}{{{SELECTOR}}}[5m])))"
            ),
            other => {
                return Err(BadConfig {
                    message: format!(
                        "metric {name}: type {other:?} is not counter, gauge or histogram"
                    ),
                });
            }
        };
        panels.push(Panel {
            title: name.to_owned(),
            unit: metric.unit.unwrap_or_else(|| "none".to_owned()),
            queries: vec![(metric.expr.unwrap_or(default), "{{instance}} {{pod}}")],
        });
    }
    Ok(Some(Dashboard {
        file: "custom-metrics/custom-metrics-dashboard.json",
        title: "Custom-Metrics",
        uid: "webop-custom-metrics",
        per_pod: false,
        rows: vec![("Custom Metrics", panels)],
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_has_its_default_query() {
        let config = "customMetrics:\n  - metric: jobs_total\n    type: counter\n  \
                      - metric: queue_size\n    type: gauge\n    unit: none\n  \
                      - metric: step_seconds\n    type: histogram\n    unit: s\n";
        let dashboard = dashboard(config).unwrap().unwrap();
        assert_eq!(
            dashboard.exprs(),
            [
                "sum(rate(jobs_total{job=\"$job\", namespace=\"$namespace\"}[5m])) by (instance, pod)",
                "queue_size{job=\"$job\", namespace=\"$namespace\"}",
                "histogram_quantile(0.90, sum by(instance, le) (rate(step_seconds{job=\"$job\", namespace=\"$namespace\"}[5m])))",
            ]
        );
    }

    #[test]
    fn an_empty_list_has_no_dashboard_and_bad_entries_are_named() {
        assert!(dashboard("customMetrics: []\n").unwrap().is_none());
        let bad = dashboard("customMetrics:\n  - metric: x\n    type: summary\n").unwrap_err();
        assert!(bad.to_string().contains("type \"summary\""), "{bad}");
        let bad = dashboard("customMetrics:\n  - metric: 'a b'\n    type: gauge\n").unwrap_err();
        assert!(bad.to_string().contains("\"a b\""), "{bad}");
    }
}

//! The dashboards, built from a list of panels: each panel's title, unit, and PromQL queries
//! with their legends. Every query is filtered by the `job` and `namespace` variables (and
//! `pod` on the resources dashboard), as kubebuilder's dashboards are.

use serde_json::{Value, json};

/// One dashboard file.
#[derive(Debug)]
pub struct Dashboard {
    /// The file's path in `grafana/`.
    pub file: &'static str,
    pub title: &'static str,
    pub uid: &'static str,
    /// Rows, each a title and its panels.
    pub rows: Vec<(&'static str, Vec<Panel>)>,
    /// Whether the dashboard has the `pod` variable.
    pub per_pod: bool,
}

/// One time-series panel.
#[derive(Debug)]
pub struct Panel {
    pub title: String,
    pub unit: String,
    /// `(PromQL, legend)`.
    pub queries: Vec<(String, &'static str)>,
}

/// The series selector of the dashboard's variables.
const SELECTOR: &str = "job=\"$job\", namespace=\"$namespace\"";
const POD_SELECTOR: &str = "job=\"$job\", namespace=\"$namespace\", pod=\"$pod\"";

fn panel(title: &str, unit: &str, queries: Vec<(String, &'static str)>) -> Panel {
    Panel {
        title: title.to_owned(),
        unit: unit.to_owned(),
        queries,
    }
}

/// P50, P90 and P99 of a histogram, per `by`.
fn quantiles(histogram: &str, by: &str) -> Vec<(String, &'static str)> {
    [("0.50", "P50"), ("0.90", "P90"), ("0.99", "P99")]
        .into_iter()
        .map(|(q, legend)| {
            (
                format!(
                    "histogram_quantile({q}, sum(rate({histogram}_bucket{{{SELECTOR}}}[5m])) by ({by}, le))"
                ),
                legend,
            )
        })
        .collect()
}

fn rate_by(counter: &str, by: &str) -> String {
    format!("sum(rate({counter}{{{SELECTOR}}}[5m])) by ({by})")
}

/// The two dashboards `edit --plugins grafana` writes.
pub fn dashboards() -> Vec<Dashboard> {
    vec![runtime(), resources()]
}

fn runtime() -> Dashboard {
    Dashboard {
        file: "controller-runtime-metrics.json",
        title: "Controller-Runtime-Metrics",
        uid: "webop-controller-runtime",
        per_pod: false,
        rows: vec![
            (
                "Reconciliation Metrics",
                vec![
                    panel(
                        "Number of workers in use",
                        "none",
                        vec![(
                            format!("controller_runtime_active_workers{{{SELECTOR}}}"),
                            "{{controller}} {{pod}}",
                        )],
                    ),
                    panel(
                        "Total Reconciliation Count Per Controller",
                        "ops",
                        vec![(
                            rate_by("controller_runtime_reconcile_total", "controller, result"),
                            "{{controller}} {{result}}",
                        )],
                    ),
                    panel(
                        "Reconciliation Error Count Per Controller",
                        "ops",
                        vec![(
                            rate_by("controller_runtime_reconcile_errors_total", "controller"),
                            "{{controller}}",
                        )],
                    ),
                    panel(
                        "Reconciliation Time (P50, P90, P99)",
                        "s",
                        quantiles("controller_runtime_reconcile_time_seconds", "controller"),
                    ),
                ],
            ),
            (
                "Work Queue Metrics",
                vec![
                    panel(
                        "WorkQueue Depth",
                        "none",
                        vec![(format!("workqueue_depth{{{SELECTOR}}}"), "{{name}}")],
                    ),
                    panel(
                        "Seconds For Items Stay In Queue (before being requested) (P50, P90, P99)",
                        "s",
                        quantiles("workqueue_queue_duration_seconds", "name"),
                    ),
                    panel(
                        "Work Queue Add Rate",
                        "ops",
                        vec![(rate_by("workqueue_adds_total", "name"), "{{name}}")],
                    ),
                    panel(
                        "Unfinished Seconds",
                        "s",
                        vec![(
                            format!("workqueue_unfinished_work_seconds{{{SELECTOR}}}"),
                            "{{name}}",
                        )],
                    ),
                    panel(
                        "Seconds Processing Items From WorkQueue (P50, P90, P99)",
                        "s",
                        quantiles("workqueue_work_duration_seconds", "name"),
                    ),
                    panel(
                        "Work Queue Retries Rate",
                        "ops",
                        vec![(rate_by("workqueue_retries_total", "name"), "{{name}}")],
                    ),
                ],
            ),
            (
                "API Server Requests",
                vec![
                    panel(
                        "Requests Per Second By Code",
                        "reqps",
                        vec![(
                            rate_by("rest_client_requests_total", "code, method"),
                            "{{method}} {{code}}",
                        )],
                    ),
                    panel(
                        "Request Latency (P50, P90, P99)",
                        "s",
                        quantiles("rest_client_request_duration_seconds", "verb"),
                    ),
                ],
            ),
        ],
    }
}

fn resources() -> Dashboard {
    Dashboard {
        file: "controller-resources-metrics.json",
        title: "Controller-Resources-Metrics",
        uid: "webop-controller-resources",
        per_pod: true,
        rows: vec![(
            "Resources",
            vec![
                panel(
                    "Controller CPU Usage",
                    "percent",
                    vec![(
                        format!("rate(process_cpu_seconds_total{{{POD_SELECTOR}}}[5m]) * 100"),
                        "{{pod}}",
                    )],
                ),
                panel(
                    "Controller Memory Usage",
                    "bytes",
                    vec![(
                        format!("process_resident_memory_bytes{{{POD_SELECTOR}}}"),
                        "{{pod}}",
                    )],
                ),
                panel(
                    "Open File Descriptors",
                    "none",
                    vec![
                        (format!("process_open_fds{{{POD_SELECTOR}}}"), "open"),
                        (format!("process_max_fds{{{POD_SELECTOR}}}"), "max"),
                    ],
                ),
            ],
        )],
    }
}

/// A query variable of the dashboard, from the label values of `metric`.
fn variable(name: &str, query: &str) -> Value {
    json!({
        "datasource": "${DS_PROMETHEUS}",
        "definition": query,
        "hide": 0,
        "includeAll": false,
        "multi": false,
        "name": name,
        "query": {"query": query, "refId": "StandardVariableQuery"},
        "refresh": 2,
        "sort": 0,
        "type": "query"
    })
}

impl Dashboard {
    /// Every PromQL query of the dashboard.
    pub fn exprs(&self) -> Vec<&str> {
        self.rows
            .iter()
            .flat_map(|(_, panels)| panels)
            .flat_map(|p| p.queries.iter().map(|(q, _)| q.as_str()))
            .collect()
    }

    /// The dashboard as Grafana imports it (JSON, two-space indented, ending in a newline).
    pub fn json(&self) -> String {
        let mut panels = Vec::new();
        let mut y = 0;
        let mut id = 1;
        for (title, row) in &self.rows {
            panels.push(json!({
                "collapsed": false,
                "gridPos": {"h": 1, "w": 24, "x": 0, "y": y},
                "id": id,
                "panels": [],
                "title": title,
                "type": "row"
            }));
            id += 1;
            y += 1;
            for (i, panel) in row.iter().enumerate() {
                let targets: Vec<Value> = panel
                    .queries
                    .iter()
                    .zip('A'..)
                    .map(|((expr, legend), ref_id)| {
                        json!({
                            "datasource": "${DS_PROMETHEUS}",
                            "expr": expr,
                            "legendFormat": legend,
                            "refId": ref_id.to_string()
                        })
                    })
                    .collect();
                panels.push(json!({
                    "datasource": "${DS_PROMETHEUS}",
                    "fieldConfig": {"defaults": {"unit": panel.unit}, "overrides": []},
                    "gridPos": {"h": 8, "w": 12, "x": (i % 2) * 12, "y": y + (i / 2) * 8},
                    "id": id,
                    "options": {"legend": {"displayMode": "list", "placement": "bottom"}},
                    "targets": targets,
                    "title": panel.title,
                    "type": "timeseries"
                }));
                id += 1;
            }
            y += row.len().div_ceil(2) * 8;
        }
        let mut variables = vec![
            json!({
                "name": "DS_PROMETHEUS",
                "label": "Data Source",
                "query": "prometheus",
                "type": "datasource",
                "hide": 0
            }),
            variable(
                "job",
                "label_values(controller_runtime_reconcile_total, job)",
            ),
            variable(
                "namespace",
                "label_values(controller_runtime_reconcile_total{job=\"$job\"}, namespace)",
            ),
        ];
        if self.per_pod {
            variables.push(variable(
                "pod",
                "label_values(process_resident_memory_bytes{job=\"$job\", namespace=\"$namespace\"}, pod)",
            ));
        }
        let dashboard = json!({
            "__inputs": [{
                "name": "DS_PROMETHEUS",
                "label": "Prometheus",
                "type": "datasource",
                "pluginId": "prometheus",
                "pluginName": "Prometheus"
            }],
            "editable": true,
            "panels": panels,
            "refresh": "",
            "schemaVersion": 39,
            "tags": ["webop", "controller-runtime"],
            "templating": {"list": variables},
            "time": {"from": "now-15m", "to": "now"},
            "title": self.title,
            "uid": self.uid,
            "version": 1
        });
        let mut text = serde_json::to_string_pretty(&dashboard).expect("a JSON value");
        text.push('\n');
        text
    }
}

//! The dashboards `webop edit --plugins grafana` writes, against a manager's exposition.

use std::collections::{BTreeMap, BTreeSet};

/// The label names of each sample name of an exposition, one sorted list per series.
type Series<'a> = BTreeMap<&'a str, BTreeSet<Vec<&'a str>>>;

/// The metrics a PromQL query reads (names followed by a selector), and the labels it groups by.
pub fn queried(expr: &str) -> (Vec<&str>, Vec<&str>) {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == ':';
    let mut metrics = Vec::new();
    for (at, _) in expr.match_indices('{') {
        let start = expr[..at].rfind(|c| !is_name(c)).map_or(0, |i| i + 1);
        metrics.push(&expr[start..at]);
    }
    let mut labels = Vec::new();
    for (at, _) in expr.match_indices("by (") {
        let rest = &expr[at + 4..];
        labels.extend(rest[..rest.find(')').unwrap()].split(',').map(str::trim));
    }
    (metrics, labels)
}

/// Every metric a dashboard of `webop edit --plugins grafana` queries is in the manager's
/// exposition, with each label the query groups by (besides the target labels Prometheus adds).
pub fn webop_dashboards_read_served_series(series: &Series, text: &str) {
    const ADDED_BY_PROMETHEUS: [&str; 4] = ["instance", "job", "namespace", "pod"];
    let mut checked = 0;
    for dashboard in webop_cli::plugins::grafana::dashboards() {
        for expr in dashboard.exprs() {
            let (metrics, labels) = queried(expr);
            assert!(!metrics.is_empty(), "{expr}: reads no metric");
            for metric in metrics {
                let found = series.get(metric).unwrap_or_else(|| {
                    panic!("{}: {expr} reads {metric}, not in\n{text}", dashboard.file)
                });
                for label in labels.iter().filter(|l| !ADDED_BY_PROMETHEUS.contains(l)) {
                    assert!(
                        found.iter().any(|set| set.contains(label)),
                        "{}: {expr} groups {metric} by {label}, which its series {found:?} lack",
                        dashboard.file
                    );
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 15, "only {checked} queries checked");
}

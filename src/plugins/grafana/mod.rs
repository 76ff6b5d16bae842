//! `webop edit --plugins grafana`: `grafana/`, Grafana dashboards of the metrics the manager
//! exports (`webop::manager::metrics`: controller-runtime's `controller_runtime_*`, client-go's
//! `workqueue_*` and `rest_client_*`, and `process_*`), laid out as kubebuilder's grafana/v1-alpha
//! plugin lays them out: `controller-runtime-metrics.json` and `controller-resources-metrics.json`
//! (tool-owned: every command re-renders them once PROJECT records the plugin), and
//! `custom-metrics/config.yaml` for the user's own metrics (user-owned), rendered into
//! `custom-metrics/custom-metrics-dashboard.json` (tool-owned) when it lists any.

pub mod custom;
mod dashboards;

pub use custom::BadConfig;
pub use dashboards::{Dashboard, dashboards};

use crate::project::Project;
use crate::scaffold::plan::Planner;
use crate::scaffold::{Error, Scaffold, Step};

/// The dashboards' directory.
pub const GRAFANA_DIR: &str = "grafana";

const CUSTOM_METRICS: &str = "\
# The metrics of your own that a dashboard should show, one entry each (kubebuilder's
# grafana/v1-alpha format):
#
#   - metric: the metric's name (required)
#     type: counter, gauge or histogram (required)
#     expr: the PromQL query (optional; a rate, the value or the P90 by type)
#     unit: s, none, bytes, percent, ... (optional)
#
# Example:
#
# customMetrics:
#   - metric: webapp_deployments_created_total
#     type: counter
#     unit: none
customMetrics: []
";

/// The files of `grafana/`, `(path, contents, tool-owned)`.
pub fn files() -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> = dashboards()
        .iter()
        .map(|d| (format!("{GRAFANA_DIR}/{}", d.file), d.json(), true))
        .collect();
    out.push((
        format!("{GRAFANA_DIR}/custom-metrics/config.yaml"),
        CUSTOM_METRICS.to_owned(),
        false,
    ));
    out
}

impl From<BadConfig> for Error {
    fn from(bad: BadConfig) -> Self {
        Error::Refused(Box::new(bad))
    }
}

/// The plugin: the dashboards, once PROJECT records it.
pub struct Plugin {
    /// `edit --plugins`: the custom metrics' config is written too (kept if it exists).
    pub user_files: bool,
}

impl Scaffold for Plugin {
    fn plan(&self, planner: &mut Planner, step: &Step) -> Result<(), Error> {
        plan(planner, step.before, step.after, self.user_files)
    }
}

/// Plans `grafana/` when `after` records the plugin: the dashboards as tool-owned files (a
/// dashboard the user changed is a conflict unless `--force`), and with `user_files_too` the
/// custom metrics' config (kept if it exists).
pub fn plan(
    planner: &mut Planner,
    before: Option<&Project>,
    after: &Project,
    user_files_too: bool,
) -> Result<(), Error> {
    if after.plugins.grafana.is_none() {
        return Ok(());
    }
    let recorded = before.is_some_and(|b| b.plugins.grafana.is_some());
    for (path, contents, tool_owned) in files() {
        if tool_owned {
            let previous = recorded.then(|| contents.clone());
            planner.tool_owned(&path, contents, previous.as_deref())?;
        } else if user_files_too {
            planner.user_owned(&path, contents)?;
        }
    }
    // The custom metrics' dashboard, from the config as it was and as the command leaves it.
    let custom = |config: Option<Vec<u8>>| -> Result<Option<String>, Error> {
        let Some(config) = config else {
            return Ok(None);
        };
        let dashboard = custom::dashboard(&String::from_utf8_lossy(&config))?;
        Ok(dashboard.map(|d| d.json()))
    };
    let path = format!("{GRAFANA_DIR}/custom-metrics/custom-metrics-dashboard.json");
    let previous = if recorded {
        // A config broken before the command is judged by what the command leaves.
        custom(planner.before(custom::CONFIG)?).unwrap_or(None)
    } else {
        None
    };
    match custom(planner.after(custom::CONFIG)?)? {
        Some(current) => planner.tool_owned(&path, current, previous.as_deref())?,
        // Taken out only as webop wrote it: a file there that webop did not render stays.
        None => {
            if let Some(previous) = previous {
                planner.remove(&path, Some(&previous))?;
            }
        }
    }
    Ok(())
}

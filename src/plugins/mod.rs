//! The optional plugins PROJECT records (`edit --plugins`, `docs/plugins.md`), as kubebuilder
//! keeps them in `pkg/plugins/optional`: `helm` (the chart of `dist/chart/`), `grafana` (the
//! dashboards of `grafana/`) and `autoupdate` (a workflow that runs `webop upgrade`). Each is a
//! [`crate::scaffold::Scaffold`] that the commands (`crate::scaffolds::plan`) hand the engine
//! after their own part, so the chart and the dashboards follow the files as every command
//! leaves them.

pub mod autoupdate;
pub mod grafana;
pub mod helm;

//! The optional plugins PROJECT records (`edit --plugins`, `docs/plugins.md`), as kubebuilder
//! keeps them in `pkg/plugins/optional`: `helm` (the chart of `dist/chart/`) and `grafana` (the
//! dashboards of `grafana/`). Each is a [`crate::scaffold::Scaffold`] that the commands
//! (`crate::scaffolds::plan`) hand the engine after their own part, so the chart and the
//! dashboards follow the files as every command leaves them.

pub mod grafana;
pub mod helm;

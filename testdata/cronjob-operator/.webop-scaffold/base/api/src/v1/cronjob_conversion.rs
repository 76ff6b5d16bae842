//! CronJob v1 is the hub of its conversion webhook (kubebuilder's
//! api/v1/cronjob_conversion.go): every other version of CronJob converts to
//! and from it (api/src/<spoke>/cronjob_conversion.rs), and the API server stores it
//! (`#[storage_version]`).

impl webop::webhook::Hub for super::CronJob {}

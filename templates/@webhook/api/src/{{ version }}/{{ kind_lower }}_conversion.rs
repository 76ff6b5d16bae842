//! {{ kind }} {{ version }} is the hub of its conversion webhook (kubebuilder's
//! api/{{ version }}/{{ kind_lower }}_conversion.go): every other version of {{ kind }} converts to
//! and from it (api/src/<spoke>/{{ kind_lower }}_conversion.rs), and the API server stores it
//! (`#[storage_version]`).

impl webop::webhook::Hub for super::{{ kind }} {}

//! The AdmissionReview request a webhook is answering, for the code that needs more than the
//! object (controller-runtime's `admission.RequestFromContext`): whether it is a dry run (a
//! webhook with side effects must not make them then), who asked, which operation.

use serde::Deserialize;

/// The request behind the current `default` / `validate_*` call.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub struct AdmissionInfo {
    /// The review's uid.
    pub uid: String,
    /// `CREATE`, `UPDATE`, `DELETE` or `CONNECT`.
    pub operation: String,
    /// The object's name (empty on a create with `generateName`).
    #[serde(default)]
    pub name: String,
    /// The object's namespace (none for a cluster-scoped kind).
    #[serde(default)]
    pub namespace: Option<String>,
    /// A dry run (`kubectl --dry-run=server`): nothing is stored, so a webhook must not act
    /// outside its answer either.
    #[serde(default)]
    pub dry_run: bool,
    /// Who made the request.
    #[serde(default)]
    pub user_info: UserInfo,
}

/// The requesting user (`authentication/v1` `UserInfo`, the parts webhooks read).
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[non_exhaustive]
pub struct UserInfo {
    /// e.g. `system:serviceaccount:team-a:deployer`.
    #[serde(default)]
    pub username: String,
    /// e.g. `system:authenticated`.
    #[serde(default)]
    pub groups: Vec<String>,
}

tokio::task_local! {
    static CURRENT: AdmissionInfo;
}

/// The request the running webhook answers; `None` outside a webhook call (in a unit test
/// that calls `default` directly, say).
pub fn admission_request() -> Option<AdmissionInfo> {
    CURRENT.try_with(Clone::clone).ok()
}

/// Runs `answer` with `info` as the current request.
pub(crate) async fn scoped<T>(info: AdmissionInfo, answer: impl Future<Output = T>) -> T {
    CURRENT.scope(info, answer).await
}

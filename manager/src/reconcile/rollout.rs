//! What a Deployment's status says of its rollout, read as kstatus reads it.

use k8s_openapi::api::apps::v1::Deployment;
use serde_json::Value;

/// The state of a Deployment's rollout. kstatus: `status.Compute` (`InProgress`, `Current`,
/// `Failed`) for a Deployment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RolloutState {
    /// The Deployment controller has not seen the current spec yet, or replicas are still
    /// being replaced, started or made available.
    InProgress,
    /// Every replica runs the current Pod template and is available; none of an older one is
    /// left (during a rollout the old ones still count as available).
    Complete,
    /// The rollout cannot make progress: the Deployment controller says why.
    Failed { reason: String, message: String },
}

/// A Deployment's rollout, read from its status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rollout {
    /// The replicas its spec asks for.
    pub desired: i32,
    /// Replicas available (of any Pod template).
    pub available: i32,
    pub state: RolloutState,
}

impl Rollout {
    /// Reads `deployment`'s status. Its conditions and counts describe the spec only once
    /// `status.observedGeneration` has reached `metadata.generation`: before that the rollout is
    /// in progress, whatever older conditions say, so a failure of an older spec is never
    /// reported for the current one.
    ///
    /// Read through its JSON form, so that it means the same with every k8s-openapi version.
    pub fn of(deployment: &Deployment) -> Self {
        let json = serde_json::to_value(deployment).unwrap_or_default();
        let int = |pointer: &str| json.pointer(pointer).and_then(Value::as_i64);
        let count = |pointer: &str| int(pointer).map_or(0, |n| n as i32);
        let desired = int("/spec/replicas").map_or(1, |n| n as i32);
        let available = count("/status/availableReplicas");
        let observed = match (
            int("/metadata/generation"),
            int("/status/observedGeneration"),
        ) {
            (Some(generation), Some(observed)) => observed >= generation,
            (Some(_), None) => false,
            (None, _) => true,
        };
        let text = |c: &Value, field: &str| {
            c.get(field)
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_owned()
        };
        let conditions = json.pointer("/status/conditions").and_then(Value::as_array);
        let failure = conditions.into_iter().flatten().find_map(|c| {
            let (type_, status) = (text(c, "type"), text(c, "status"));
            let stuck = type_ == "Progressing" && status == "False";
            let failing = type_ == "ReplicaFailure" && status == "True";
            let reason = Some(text(c, "reason"))
                .filter(|r| !r.is_empty())
                .unwrap_or(type_);
            (stuck || failing).then(|| RolloutState::Failed {
                reason,
                message: text(c, "message"),
            })
        });
        let (updated, total) = (count("/status/updatedReplicas"), count("/status/replicas"));
        let state = match failure {
            _ if !observed => RolloutState::InProgress,
            Some(failed) => failed,
            None if updated >= desired && total <= updated && available >= desired => {
                RolloutState::Complete
            }
            None => RolloutState::InProgress,
        };
        Rollout {
            desired,
            available,
            state,
        }
    }

    /// `2/3 replicas available`.
    pub fn summary(&self) -> String {
        format!("{}/{} replicas available", self.available, self.desired)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn deployment(generation: i64, status: serde_json::Value) -> Deployment {
        serde_json::from_value(json!({
            "metadata": {"name": "d", "generation": generation},
            "spec": {"replicas": 2, "selector": {}, "template": {}},
            "status": status,
        }))
        .unwrap()
    }

    #[test]
    fn conditions_count_only_once_the_current_generation_is_observed() {
        let stuck = json!({"observedGeneration": 1, "replicas": 2, "updatedReplicas": 2,
            "availableReplicas": 1, "conditions": [{"type": "Progressing", "status": "False",
            "reason": "ProgressDeadlineExceeded", "message": "it broke"}]});
        let failed = Rollout::of(&deployment(1, stuck.clone()));
        assert_eq!(
            failed.state,
            RolloutState::Failed {
                reason: "ProgressDeadlineExceeded".into(),
                message: "it broke".into()
            }
        );
        // A new spec the Deployment controller has not seen: its old failure says nothing.
        assert_eq!(
            Rollout::of(&deployment(2, stuck)).state,
            RolloutState::InProgress
        );
        let done = json!({"observedGeneration": 2, "replicas": 2, "updatedReplicas": 2,
            "availableReplicas": 2});
        let rollout = Rollout::of(&deployment(2, done));
        assert_eq!(rollout.state, RolloutState::Complete);
        assert_eq!(rollout.summary(), "2/2 replicas available");
        let old_left = json!({"observedGeneration": 2, "replicas": 3, "updatedReplicas": 2,
            "availableReplicas": 3});
        assert_eq!(
            Rollout::of(&deployment(2, old_left)).state,
            RolloutState::InProgress
        );
    }
}

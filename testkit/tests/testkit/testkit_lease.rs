//! kube-lease-manager leader election: it locks leases with server-side apply (a losing
//! contender gets a 409 conflict on `spec.holderIdentity`) and releases them with a strategic
//! merge patch of nulls, which must also drop the holder's field ownership. A `scenario!`: the
//! same body runs on the testkit and on a real kube-apiserver (request counts are checked on the
//! testkit only).

use crate::testkit_common;

use k8s_openapi::api::coordination::v1::Lease;
use kube::ResourceExt;
use kube::api::Api;
use kube_lease_manager::{LeaseManager, LeaseManagerBuilder};
use testkit_common::{eventually, plain};
use webop_testkit::Verb;

async fn contender(client: &kube::Client, identity: &str) -> LeaseManager {
    LeaseManagerBuilder::new(client.clone(), "leader")
        .with_namespace("default")
        .with_identity(identity)
        .with_duration(1)
        .with_grace(0)
        .build()
        .await
        .expect("the lease manager starts")
}

scenario!(
    one_contender_wins_and_the_other_takes_over_after_release,
    async |backend| {
        let env = plain(backend).await;
        let a = contender(&env.client(), "a").await;
        let b = contender(&env.client(), "b").await;

        let winner = eventually("a leader", async {
            tokio::select! {
                acquired = a.changed() => { assert!(acquired.unwrap()); "a" }
                acquired = b.changed() => { assert!(acquired.unwrap()); "b" }
            }
        })
        .await;
        let leases: Api<Lease> = Api::namespaced(env.client(), "default");
        let lease = leases.get("leader").await.unwrap();
        let spec = lease.spec.clone().unwrap();
        assert_eq!(spec.holder_identity.as_deref(), Some(winner));
        let appliers: Vec<_> = lease
            .managed_fields()
            .iter()
            .filter(|m| m.operation.as_deref() == Some("Apply"))
            .collect();
        assert_eq!(appliers.len(), 1, "only the winner's apply went through");
        let owned = &appliers[0].fields_v1.as_ref().unwrap().0;
        assert!(owned["f:spec"].get("f:holderIdentity").is_some(), "{owned}");

        let (leader, follower) = if winner == "a" { (a, b) } else { (b, a) };
        leader.release().await.unwrap();
        let released = leases.get("leader").await.unwrap();
        assert!(released.spec.as_ref().unwrap().holder_identity.is_none());
        assert!(
            released
                .managed_fields()
                .iter()
                .all(|m| m.operation.as_deref() != Some("Apply")),
            "releasing dropped the holder's ownership"
        );

        assert!(
            eventually("the follower to lead", follower.changed())
                .await
                .unwrap()
        );
        let lease = leases.get("leader").await.unwrap();
        assert_ne!(lease.spec.unwrap().holder_identity.as_deref(), Some(winner));
        if let Some(server) = env.testkit() {
            assert!(server.counters().get(Verb::Patch, "leases") >= 3);
        }
    }
);

//! Replicas of the operator, each under a supervisor that starts it again when it stops (as the
//! kubelet restarts a container), each with a user of its own so that the audit log tells them
//! apart.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::task::{AbortHandle, JoinHandle};
use webop::manager::{Manager, Options};

/// One replica: the manager running now, and its supervisor.
pub struct Replica {
    pub index: usize,
    running: Arc<Mutex<Option<(Manager, AbortHandle)>>>,
    supervisor: JoinHandle<()>,
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.supervisor.abort();
        self.kill();
    }
}

/// Leader election quick enough for a test, and a client and concurrency enough for a
/// thousand WebApps (one reconcile at a time, controller-runtime's default, takes minutes).
pub fn options(lease: &str) -> Options {
    Options {
        leader_elect: true,
        leader_election_id: Some(lease.to_owned()),
        leader_election_namespace: Some("default".to_owned()),
        leader_election_lease_duration: Duration::from_secs(6),
        leader_election_renew_deadline: Duration::from_secs(4),
        leader_election_retry_period: Duration::from_secs(1),
        graceful_shutdown_timeout: Duration::from_secs(5),
        kube_api_qps: 100.0,
        kube_api_burst: 200,
        max_concurrent_reconciles: 8,
        ..Options::default()
    }
}

impl Replica {
    /// Runs `controllers` on `config` with `options`, again and again.
    pub fn start<F, Fut>(
        index: usize,
        config: kube::Config,
        options: Options,
        controllers: F,
    ) -> Self
    where
        F: Fn(Manager) -> Fut + Send + Sync + Copy + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let running: Arc<Mutex<Option<(Manager, AbortHandle)>>> = Arc::default();
        let supervisor = tokio::spawn({
            let running = running.clone();
            async move {
                loop {
                    let manager = Manager::from_config(config.clone(), options.clone(), "unused")
                        .expect("the replica's manager");
                    let run = tokio::spawn(manager.clone().run(controllers));
                    *running.lock().unwrap() = Some((manager, run.abort_handle()));
                    let outcome = run.await;
                    eprintln!("chaos: replica {index} stopped: {outcome:?}");
                    running.lock().unwrap().take();
                    tokio::time::sleep(Duration::from_secs(1)).await;
                }
            }
        });
        Replica {
            index,
            running,
            supervisor,
        }
    }

    /// Whether this replica leads now (its `leader_election_master_status`).
    pub fn leads(&self) -> bool {
        let running = self.running.lock().unwrap();
        running.as_ref().is_some_and(|(manager, _)| {
            manager.metrics().encode().lines().any(|line| {
                line.starts_with("leader_election_master_status{") && line.ends_with(" 1")
            })
        })
    }

    /// Stops the running manager at once, releasing nothing, as SIGKILL would; the supervisor
    /// starts a new one a second later.
    pub fn kill(&self) {
        if let Some((_, run)) = self.running.lock().unwrap().take() {
            run.abort();
        }
    }
}

//! One computation per key at a time, whatever the number of callers asking for it while it
//! runs (Kubernetes' token cache coalesces its lookups so): each joins the one running. It runs
//! on a task of its own, so that it finishes, and its answer is cached, even if every caller
//! gives up; and it is forgotten once answered, so that nothing of it stays behind.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use tokio::sync::watch;

use super::digest_cache::Digest;

/// The computations running, by key. Cheap to clone.
#[derive(Debug)]
pub struct Coalesced<T> {
    running: Arc<Mutex<HashMap<Digest, watch::Receiver<Option<T>>>>>,
}

impl<T> Clone for Coalesced<T> {
    fn clone(&self) -> Self {
        Coalesced {
            running: self.running.clone(),
        }
    }
}

impl<T> Default for Coalesced<T> {
    fn default() -> Self {
        Coalesced {
            running: Arc::default(),
        }
    }
}

impl<T: Clone + Send + Sync + 'static> Coalesced<T> {
    /// The answer for `key`: that of the computation running for it, else of the one `start`
    /// makes (unless `start` refuses to).
    pub async fn answer<F, E>(
        &self,
        key: Digest,
        start: impl FnOnce() -> Result<F, E>,
    ) -> Result<T, E>
    where
        F: Future<Output = T> + Send + 'static,
    {
        let mut answer = self.join_or_start(key, start)?;
        let answered = answer.wait_for(Option::is_some).await;
        let Ok(answered) = answered else {
            unreachable!("the computation sends its answer before it ends")
        };
        Ok(answered
            .clone()
            .unwrap_or_else(|| unreachable!("waited for Some")))
    }

    fn join_or_start<F, E>(
        &self,
        key: Digest,
        start: impl FnOnce() -> Result<F, E>,
    ) -> Result<watch::Receiver<Option<T>>, E>
    where
        F: Future<Output = T> + Send + 'static,
    {
        let mut running = self.running.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(answer) = running.get(&key) {
            return Ok(answer.clone());
        }
        let computation = start()?;
        let (sender, answer) = watch::channel(None);
        running.insert(key, answer.clone());
        let this = self.clone();
        tokio::spawn(async move {
            let value = computation.await;
            let mut running = this.running.lock().unwrap_or_else(|e| e.into_inner());
            running.remove(&key);
            drop(running);
            let _ = sender.send(Some(value));
        });
        Ok(answer)
    }

    /// How many computations are running.
    #[cfg(test)]
    pub fn running(&self) -> usize {
        self.running.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use std::convert::Infallible;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[tokio::test(start_paused = true)]
    async fn callers_asking_at_once_share_one_computation_which_outlives_them() {
        let coalesced = Coalesced::<usize>::default();
        let started = Arc::new(AtomicUsize::new(0));
        let ask = || {
            let started = started.clone();
            coalesced.answer([1; 32], move || {
                let n = started.fetch_add(1, Ordering::SeqCst);
                Ok::<_, Infallible>(async move {
                    tokio::time::sleep(Duration::from_secs(1)).await;
                    n + 10
                })
            })
        };
        let answers = futures::future::join_all((0..5).map(|_| ask())).await;
        assert!(answers.iter().all(|a| *a == Ok(10)), "{answers:?}");
        assert_eq!(started.load(Ordering::SeqCst), 1);
        assert_eq!(coalesced.running(), 0, "forgotten once answered");

        // A caller that gives up leaves the computation running to its end.
        let gave_up = tokio::time::timeout(Duration::from_millis(10), ask()).await;
        assert!(gave_up.is_err());
        assert_eq!(coalesced.running(), 1);
        tokio::time::sleep(Duration::from_secs(2)).await;
        assert_eq!(coalesced.running(), 0);
        assert_eq!(started.load(Ordering::SeqCst), 2);
    }

    #[tokio::test]
    async fn a_refused_start_is_the_callers_error() {
        let coalesced = Coalesced::<()>::default();
        let refused = coalesced
            .answer([2; 32], || Err::<std::future::Ready<()>, _>("busy"))
            .await;
        assert_eq!(refused, Err("busy"));
        assert_eq!(coalesced.running(), 0);
    }
}

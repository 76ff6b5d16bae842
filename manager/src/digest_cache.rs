//! A cache of the API server's answers about secrets (bearer tokens) and what callers chose
//! (paths, users), as Kubernetes' token cache keeps them: keyed by a SHA-256 digest, so that
//! no token is held and a key costs 32 bytes whatever the caller sent; bounded in bytes, the
//! entries that expire first going first when it is full; every entry expiring.

use std::collections::{BTreeMap, HashMap};
use std::sync::Mutex;
use std::time::Duration;

use sha2::{Digest as _, Sha256};
use tokio::time::Instant;

/// A SHA-256 digest, the key of a cache entry.
pub type Digest = [u8; 32];

/// The digest of `parts`, each length-prefixed so that `("ab", "c")` and `("a", "bc")` differ.
pub fn digest(parts: &[&[u8]]) -> Digest {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher.finalize().into()
}

/// What an entry costs beside its value: the key, the expiry, the maps' own slots.
const ENTRY_OVERHEAD: usize = 128;

/// Expiring entries keyed by digest, at most `max_bytes` of them as [`DigestCache::insert`]
/// counts them.
#[derive(Debug)]
pub struct DigestCache<V> {
    max_bytes: usize,
    inner: Mutex<Entries<V>>,
}

#[derive(Debug)]
struct Entries<V> {
    by_key: HashMap<Digest, Entry<V>>,
    /// The keys by when they expire (and an insertion number, for ties): the first goes first.
    by_expiry: BTreeMap<(Instant, u64), Digest>,
    bytes: usize,
    inserted: u64,
}

#[derive(Debug)]
struct Entry<V> {
    value: V,
    expires: (Instant, u64),
    bytes: usize,
}

impl<V: Clone> DigestCache<V> {
    /// An empty cache of at most `max_bytes`.
    pub fn new(max_bytes: usize) -> Self {
        DigestCache {
            max_bytes,
            inner: Mutex::new(Entries {
                by_key: HashMap::new(),
                by_expiry: BTreeMap::new(),
                bytes: 0,
                inserted: 0,
            }),
        }
    }

    fn entries(&self) -> std::sync::MutexGuard<'_, Entries<V>> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The value of `key`, unless it has expired.
    pub fn get(&self, key: &Digest) -> Option<V> {
        let mut entries = self.entries();
        let entry = entries.by_key.get(key)?;
        if entry.expires.0 > Instant::now() {
            return Some(entry.value.clone());
        }
        entries.remove(key);
        None
    }

    /// Keeps `value` for `ttl`, counted as `value_bytes` (what it holds on the heap) and the
    /// entry's overhead; the entries that expire first make room.
    pub fn insert(&self, key: Digest, value: V, value_bytes: usize, ttl: Duration) {
        let bytes = value_bytes.saturating_add(ENTRY_OVERHEAD);
        if bytes > self.max_bytes {
            return;
        }
        let mut entries = self.entries();
        entries.remove(&key);
        while entries.bytes + bytes > self.max_bytes {
            let Some((_, first)) = entries.by_expiry.pop_first() else {
                break;
            };
            entries.remove(&first);
        }
        entries.inserted += 1;
        let expires = (Instant::now() + ttl, entries.inserted);
        entries.by_expiry.insert(expires, key);
        entries.bytes += bytes;
        let entry = Entry {
            value,
            expires,
            bytes,
        };
        entries.by_key.insert(key, entry);
    }

    /// Forgets `key`.
    pub fn remove(&self, key: &Digest) {
        self.entries().remove(key);
    }

    /// The bytes held, as counted.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.entries().bytes
    }

    /// How many entries are held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.entries().by_key.len()
    }
}

impl<V> Entries<V> {
    fn remove(&mut self, key: &Digest) {
        if let Some(entry) = self.by_key.remove(key) {
            self.by_expiry.remove(&entry.expires);
            self.bytes -= entry.bytes;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u32) -> Digest {
        digest(&[&n.to_le_bytes()])
    }

    #[test]
    fn digests_separate_their_parts() {
        assert_ne!(digest(&[b"ab", b"c"]), digest(&[b"a", b"bc"]));
        assert_eq!(digest(&[b"token"]), digest(&[b"token"]));
    }

    #[tokio::test(start_paused = true)]
    async fn entries_expire_and_the_first_to_expire_make_room() {
        let cache = DigestCache::new(3 * (ENTRY_OVERHEAD + 10));
        cache.insert(key(1), "a", 10, Duration::from_secs(60));
        cache.insert(key(2), "b", 10, Duration::from_secs(10));
        cache.insert(key(3), "c", 10, Duration::from_secs(60));
        assert_eq!(cache.len(), 3);
        // Full: the entry that expires first goes.
        cache.insert(key(4), "d", 10, Duration::from_secs(60));
        assert_eq!(cache.get(&key(2)), None);
        assert_eq!(cache.get(&key(1)), Some("a"));
        assert_eq!(cache.bytes(), 3 * (ENTRY_OVERHEAD + 10));

        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(cache.get(&key(1)), None, "expired");
        assert_eq!(cache.len(), 2, "an expired entry read is dropped");
        // Replacing an entry counts it once.
        cache.insert(key(3), "c2", 10, Duration::from_secs(60));
        cache.insert(key(3), "c3", 10, Duration::from_secs(60));
        assert_eq!(cache.get(&key(3)), Some("c3"));
        assert!(cache.bytes() <= 3 * (ENTRY_OVERHEAD + 10));
    }

    #[test]
    fn a_value_larger_than_the_cache_is_not_kept_and_evicts_nothing() {
        let cache = DigestCache::new(1024);
        cache.insert(key(1), 1, 10, Duration::from_secs(60));
        cache.insert(key(2), 2, 4096, Duration::from_secs(60));
        assert_eq!(cache.get(&key(2)), None);
        assert_eq!(cache.get(&key(1)), Some(1));
    }
}

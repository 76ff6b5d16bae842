//! The order in which queued objects are reconciled: controller-runtime's two priorities, with a
//! guaranteed share for the low one so that no item waits without bound.
//!
//! controller-runtime (v0.22 on) queues what an initial list or a resync brings at priority
//! −100 and every real change at 0, and always serves the higher priority first: under a steady
//! stream of changes the low items never run (controller-runtime#3496). Here a change still goes
//! before every low item, except that one pick in [`PICKS_PER_LOW_TURN`] goes to the
//! longest-waiting low item while any waits. A change therefore waits behind at most one low
//! item, and a low item's wait is bounded by the low items ahead of it, whatever the rate of
//! changes.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, VecDeque};
use std::hash::Hash;

/// Of this many consecutive picks while both priorities wait, one goes to a low item.
pub const PICKS_PER_LOW_TURN: u32 = 4;

/// Why an item was queued, as controller-runtime ranks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Priority {
    /// From the initial list of a watch (or a relist), or a `--sync-period` resync.
    Low,
    /// A change: an object created, updated or deleted, or one of its children.
    Normal,
}

impl Priority {
    /// controller-runtime's value, the `priority` label of `workqueue_depth`.
    pub fn label(self) -> &'static str {
        match self {
            Priority::Low => "-100",
            Priority::Normal => "0",
        }
    }
}

/// A set of items in pick order. An item is queued once: adding it again keeps its place, and
/// raises its priority if the new add is higher (controller-runtime's rule).
#[derive(Debug)]
pub struct PriorityQueue<T> {
    /// Each queued item's priority and the ticket of its live place in a line.
    queued: HashMap<T, (Priority, u64)>,
    /// The lines in arrival order; an entry whose ticket is not the item's live one is stale
    /// (the item was raised, removed or picked) and skipped.
    low: VecDeque<(u64, T)>,
    normal: VecDeque<(u64, T)>,
    next_ticket: u64,
    /// Picks of normal items since the last low one.
    normal_streak: u32,
}

impl<T> Default for PriorityQueue<T> {
    fn default() -> Self {
        PriorityQueue {
            queued: HashMap::new(),
            low: VecDeque::new(),
            normal: VecDeque::new(),
            next_ticket: 0,
            normal_streak: 0,
        }
    }
}

impl<T: Clone + Eq + Hash> PriorityQueue<T> {
    /// Queues `item` at `priority`; returns the priority it was queued at before, if it was.
    pub fn add(&mut self, item: T, priority: Priority) -> Option<Priority> {
        let ticket = self.next_ticket;
        match self.queued.entry(item.clone()) {
            Entry::Occupied(mut queued) => {
                let (before, _) = *queued.get();
                if priority > before {
                    queued.insert((priority, ticket));
                    self.next_ticket += 1;
                    self.line(priority).push_back((ticket, item));
                }
                Some(before)
            }
            Entry::Vacant(slot) => {
                slot.insert((priority, ticket));
                self.next_ticket += 1;
                self.line(priority).push_back((ticket, item));
                None
            }
        }
    }

    /// Takes `item` out of the queue; returns its priority if it was queued.
    pub fn remove(&mut self, item: &T) -> Option<Priority> {
        let (priority, _) = self.queued.remove(item)?;
        self.compact();
        Some(priority)
    }

    /// The next item to reconcile, and its priority.
    pub fn pop(&mut self) -> Option<(T, Priority)> {
        let low_turn = self.normal_streak + 1 >= PICKS_PER_LOW_TURN;
        let order = if low_turn {
            [Priority::Low, Priority::Normal]
        } else {
            [Priority::Normal, Priority::Low]
        };
        for priority in order {
            if let Some(item) = self.pop_line(priority) {
                self.normal_streak = match priority {
                    Priority::Low => 0,
                    Priority::Normal => self.normal_streak + 1,
                };
                return Some((item, priority));
            }
        }
        None
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.queued.len()
    }

    #[cfg(test)]
    fn is_empty(&self) -> bool {
        self.queued.is_empty()
    }

    fn line(&mut self, priority: Priority) -> &mut VecDeque<(u64, T)> {
        match priority {
            Priority::Low => &mut self.low,
            Priority::Normal => &mut self.normal,
        }
    }

    /// The first live item of a line, taken out of the queue.
    fn pop_line(&mut self, priority: Priority) -> Option<T> {
        while let Some((ticket, item)) = self.line(priority).pop_front() {
            if self.queued.get(&item) == Some(&(priority, ticket)) {
                self.queued.remove(&item);
                return Some(item);
            }
        }
        None
    }

    /// Drops stale entries once they outnumber the live ones, so that the lines stay within
    /// twice the queue's size however often items are raised or removed.
    fn compact(&mut self) {
        if self.low.len() + self.normal.len() <= 2 * self.queued.len() + 16 {
            return;
        }
        let queued = &self.queued;
        for (priority, line) in [
            (Priority::Low, &mut self.low),
            (Priority::Normal, &mut self.normal),
        ] {
            line.retain(|(ticket, item)| queued.get(item) == Some(&(priority, *ticket)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn drain(queue: &mut PriorityQueue<u32>) -> Vec<u32> {
        std::iter::from_fn(|| queue.pop().map(|(item, _)| item)).collect()
    }

    #[test]
    fn changes_go_before_listed_items_but_every_fourth_pick_is_a_listed_one() {
        let mut queue = PriorityQueue::default();
        for listed in 0..6 {
            queue.add(listed, Priority::Low);
        }
        for changed in 100..106 {
            queue.add(changed, Priority::Normal);
        }
        assert_eq!(
            drain(&mut queue),
            [100, 101, 102, 0, 103, 104, 105, 1, 2, 3, 4, 5]
        );
    }

    #[test]
    fn an_item_is_queued_once_and_a_change_raises_a_listed_item() {
        let mut queue = PriorityQueue::default();
        assert_eq!(queue.add(1, Priority::Low), None);
        assert_eq!(queue.add(2, Priority::Low), None);
        assert_eq!(queue.add(2, Priority::Normal), Some(Priority::Low));
        assert_eq!(queue.add(2, Priority::Low), Some(Priority::Normal));
        assert_eq!(queue.add(1, Priority::Low), Some(Priority::Low));
        assert_eq!(queue.len(), 2);
        assert_eq!(queue.pop(), Some((2, Priority::Normal)));
        assert_eq!(queue.pop(), Some((1, Priority::Low)));
        assert_eq!(queue.pop(), None);
    }

    #[test]
    fn a_removed_item_is_not_picked_and_its_stale_places_are_dropped() {
        let mut queue = PriorityQueue::default();
        for round in 0..1_000 {
            queue.add(7, Priority::Low);
            queue.add(7, Priority::Normal);
            queue.remove(&7);
            queue.add(round % 3, Priority::Low);
        }
        assert!(queue.low.len() + queue.normal.len() <= 2 * queue.len() + 17);
        assert_eq!(drain(&mut queue), [0, 1, 2]);
        assert!(queue.is_empty());
    }

    /// controller-runtime#3496: a hot stream of changes, one new change for every pick. The
    /// listed items are all reconciled, in every fourth pick, and the changes wait only for
    /// those turns: one pick behind for each listed item reconciled meanwhile.
    #[test]
    fn a_hot_stream_of_changes_does_not_starve_the_listed_items() {
        let mut queue = PriorityQueue::default();
        for listed in 0..100 {
            queue.add(listed, Priority::Low);
        }
        let mut next_change = 1_000;
        queue.add(next_change, Priority::Normal);
        let mut picks_until_listed_done = None;
        let mut longest_change_wait = 0;
        let mut waiting_since = HashMap::from([(next_change, 0)]);
        for pick in 1..=1_000 {
            next_change += 1;
            queue.add(next_change, Priority::Normal);
            waiting_since.insert(next_change, pick);
            let (item, priority) = queue.pop().expect("never empty");
            if priority == Priority::Normal {
                longest_change_wait = longest_change_wait.max(pick - waiting_since[&item]);
            }
            if item == 99 {
                picks_until_listed_done = Some(pick);
            }
        }
        assert_eq!(picks_until_listed_done, Some(400));
        assert_eq!(longest_change_wait, 101);
    }
}

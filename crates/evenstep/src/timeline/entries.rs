//! The timers and the heap entries that order them: a timer lives in a
//! slot, and the heap holds an entry for each due time, so a cancelled timer
//! leaves a stale entry that is skipped or compacted away.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use evenstep_core::Nanos;

use crate::timeline::fire::Fire;
use crate::timeline::{Timeline, TimerHandle};

/// A timer callback: the game state, and the firing (repeats, and a handle on
/// the timeline to schedule or cancel from inside).
pub(super) type Callback<S> = Box<dyn FnMut(&mut S, &mut Fire<'_, S>)>;

/// A heap entry: ordered by due time, then registration sequence.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Entry {
    pub(super) due: Nanos,
    pub(super) seq: u64,
    pub(super) slot: u32,
    pub(super) generation: u32,
}

/// An armed timer.
pub(super) struct Timer<S> {
    /// `None` for a one-shot.
    pub(super) period: Option<Nanos>,
    pub(super) seq: u64,
    pub(super) due: Nanos,
    /// Taken out while the callback runs.
    pub(super) callback: Option<Callback<S>>,
}

/// Where a timer lives. Its generation goes up each time a timer leaves it,
/// so a handle to an earlier timer names no later one.
pub(super) struct Slot<S> {
    pub(super) generation: u32,
    pub(super) timer: Option<Timer<S>>,
}

impl<S> Timeline<S> {
    pub(super) fn arm(
        &mut self,
        period: Option<Nanos>,
        delay: Nanos,
        callback: Callback<S>,
    ) -> TimerHandle {
        let due = self.now + delay;
        let seq = self.next_seq;
        self.next_seq += 1;
        let timer = Timer {
            period,
            seq,
            due,
            callback: Some(callback),
        };
        let slot = if let Some(index) = self.free.pop() {
            self.slots[index as usize].timer = Some(timer);
            index
        } else {
            self.slots.push(Slot {
                generation: 0,
                timer: Some(timer),
            });
            (self.slots.len() - 1) as u32
        };
        let generation = self.slots[slot as usize].generation;
        let entry = Entry {
            due,
            seq,
            slot,
            generation,
        };
        if self.advancing {
            self.incoming.push(entry);
        } else {
            self.heap.push(Reverse(entry));
        }
        self.armed += 1;
        TimerHandle {
            timeline: self.id,
            slot,
            generation,
        }
    }

    pub(super) fn is_current(&self, entry: &Entry) -> bool {
        self.slots.get(entry.slot as usize).is_some_and(|slot| {
            slot.generation == entry.generation
                && slot
                    .timer
                    .as_ref()
                    .is_some_and(|t| t.due == entry.due && t.seq == entry.seq)
        })
    }

    /// Drops cancelled entries from the heap once they outnumber live ones,
    /// so cancel-heavy use does not grow the heap without bound.
    pub(super) fn compact_if_stale(&mut self) {
        if self.advancing || self.stale <= 64 || self.stale <= self.armed {
            return;
        }
        let mut entries = std::mem::take(&mut self.heap).into_vec();
        entries.retain(|Reverse(e)| self.is_current(e));
        self.heap = BinaryHeap::from(entries);
        self.stale = 0;
    }
}

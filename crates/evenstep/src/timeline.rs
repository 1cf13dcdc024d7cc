//! Timelines: timers on one clock. A [`Timeline`] holds one-shot (`after`) and
//! repeating (`every`) timers and fires them as its time is advanced. The loop
//! owns two (`real`, advanced once per pump by unclamped elapsed time, and
//! `sim`, advanced once per fixed step); a game can own more and advance them
//! itself.
//!
//! The rules, identical on every timeline:
//!
//! - **Coalescing.** A timer runs at most once per advance, however much time
//!   the advance covers, and is told how many of its periods that call stands
//!   for ([`Fire::repeats`]). An hour of one advance gives `every(1 s)` one
//!   call with `repeats == 3600`.
//! - **Order.** Timers due in the same advance fire in due-time order, then
//!   in registration order. A repeating timer keeps its registration place.
//! - **Re-entrancy.** A callback may schedule and cancel timers. Cancelling
//!   takes effect at once (a cancelled timer due later in the same advance
//!   does not fire); a timer scheduled from a callback is first eligible at
//!   the next advance, so a callback can never keep an advance going forever.
//! - **Scale.** Timers sit in a binary heap keyed by due time: an advance in
//!   which nothing is due costs one comparison, however many are armed.

mod advance;
mod entries;
mod fire;

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use evenstep_core::Nanos;

use crate::timeline::entries::{Entry, Slot};

pub use crate::timeline::fire::Fire;

/// Names one armed timer, to cancel it. Dropping a handle does not cancel its
/// timer. A handle only ever acts on the timeline that made it: given to
/// another timeline, it names no timer there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TimerHandle {
    timeline: u64,
    slot: u32,
    generation: u32,
}

/// Numbers every timeline the process creates, so that a handle from one
/// timeline can never match a slot of another (the loop's `real` and `sim`
/// hand out identical slot numbers).
static NEXT_TIMELINE_ID: AtomicU64 = AtomicU64::new(0);

/// A set of timers on one clock, advanced by its owner.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use evenstep::Timeline;
///
/// let mut timeline = Timeline::<Vec<u64>>::new();
/// timeline.every(Duration::from_secs(1), |log: &mut Vec<u64>, fire| log.push(fire.repeats()))?;
///
/// let mut log = Vec::new();
/// timeline.advance(&mut log, Duration::from_millis(2_500)); // covers 1 s and 2 s
/// timeline.advance(&mut log, Duration::from_millis(500));   // 3 s
/// assert_eq!(log, [2, 1]);
/// # Ok::<(), evenstep::TimerError>(())
/// ```
pub struct Timeline<S> {
    /// Stamped into every handle this timeline makes.
    id: u64,
    now: Nanos,
    heap: BinaryHeap<Reverse<Entry>>,
    slots: Vec<Slot<S>>,
    free: Vec<u32>,
    /// Entries scheduled while advancing; they join the heap afterwards.
    incoming: Vec<Entry>,
    advancing: bool,
    next_seq: u64,
    armed: usize,
    /// Heap entries whose timer was cancelled; rebuilt away when they
    /// outnumber live ones.
    stale: usize,
}

impl<S> Timeline<S> {
    /// An empty timeline at time zero.
    pub fn new() -> Timeline<S> {
        Timeline {
            // Only uniqueness matters; a counter of 2^64 never wraps.
            id: NEXT_TIMELINE_ID.fetch_add(1, Ordering::Relaxed),
            now: Nanos::ZERO,
            heap: BinaryHeap::new(),
            slots: Vec::new(),
            free: Vec::new(),
            incoming: Vec::new(),
            advancing: false,
            next_seq: 0,
            armed: 0,
            stale: 0,
        }
    }

    /// The timeline's time: the sum of every advance.
    pub fn now(&self) -> Nanos {
        self.now
    }

    /// Armed timers.
    pub fn len(&self) -> usize {
        self.armed
    }

    /// Whether no timer is armed.
    pub fn is_empty(&self) -> bool {
        self.armed == 0
    }

    /// When the earliest armed timer is due, if any: how long a headless
    /// runner may sleep.
    pub fn next_due(&self) -> Option<Nanos> {
        // The heap's top is almost always live; scan only when it is not.
        let in_heap = match self.heap.peek() {
            Some(Reverse(top)) if self.is_current(top) => Some(top.due),
            _ => self
                .heap
                .iter()
                .filter(|Reverse(e)| self.is_current(e))
                .map(|Reverse(e)| e.due)
                .min(),
        };
        let incoming = self
            .incoming
            .iter()
            .filter(|e| self.is_current(e))
            .map(|e| e.due)
            .min();
        in_heap.into_iter().chain(incoming).min()
    }

    /// Calls `callback` once, `delay` from now.
    ///
    /// # Errors
    ///
    /// [`TimerError::ZeroDuration`] if `delay` is zero (for work that should
    /// run at the next pump, use a coalesced job).
    pub fn after<F>(&mut self, delay: Duration, callback: F) -> Result<TimerHandle, TimerError>
    where
        F: FnMut(&mut S, &mut Fire<'_, S>) + 'static,
    {
        let delay = positive(delay, "after")?;
        Ok(self.arm(None, delay, Box::new(callback)))
    }

    /// Calls `callback` every `period`, the first time `period` from now.
    ///
    /// # Errors
    ///
    /// [`TimerError::ZeroDuration`] if `period` is zero.
    pub fn every<F>(&mut self, period: Duration, callback: F) -> Result<TimerHandle, TimerError>
    where
        F: FnMut(&mut S, &mut Fire<'_, S>) + 'static,
    {
        let period = positive(period, "every")?;
        Ok(self.arm(Some(period), period, Box::new(callback)))
    }

    /// Disarms a timer. Returns whether it was armed (false for a one-shot
    /// that already fired, or a handle cancelled before).
    pub fn cancel(&mut self, handle: TimerHandle) -> bool {
        if handle.timeline != self.id {
            return false;
        }
        let Some(slot) = self.slots.get_mut(handle.slot as usize) else {
            return false;
        };
        if slot.generation != handle.generation || slot.timer.is_none() {
            return false;
        }
        slot.timer = None;
        slot.generation = slot.generation.wrapping_add(1);
        self.free.push(handle.slot);
        self.armed -= 1;
        self.stale += 1;
        self.compact_if_stale();
        true
    }

    /// Disarms every timer.
    pub fn clear(&mut self) {
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if slot.timer.take().is_some() {
                slot.generation = slot.generation.wrapping_add(1);
                self.free.push(index as u32);
            }
        }
        self.heap.clear();
        self.incoming.clear();
        self.armed = 0;
        self.stale = 0;
    }

    /// Whether `handle` names an armed timer.
    pub fn is_armed(&self, handle: TimerHandle) -> bool {
        handle.timeline == self.id
            && self
                .slots
                .get(handle.slot as usize)
                .is_some_and(|s| s.generation == handle.generation && s.timer.is_some())
    }

    /// Moves an empty timeline's time forward to `to` without advancing it:
    /// with no timer armed an advance fires nothing, so the loop skips the
    /// sim timeline's per-step advances while it is empty and brings its
    /// time up to the planner's this way before handing it out. Does
    /// nothing if a timer is armed or `to` is not later.
    pub(crate) fn bring_empty_to(&mut self, to: Nanos) {
        if self.armed == 0 && !self.advancing && to > self.now {
            self.now = to;
        }
    }

    /// Advances the timeline by `by` and fires what fell due.
    pub fn advance(&mut self, state: &mut S, by: Duration) {
        let to = self.now + Nanos::from_duration(by);
        self.advance_to(state, to);
    }

    /// Advances the timeline to `to` and fires what fell due, each timer at
    /// most once. A `to` at or before the timeline's time fires nothing.
    ///
    /// A timeline's time is how long it has run since it began (a span, so
    /// a [`Nanos`]), as [`Loop::real_time`](crate::Loop::real_time) and
    /// [`Loop::sim_time`](crate::Loop::sim_time) are: `to` is the span the
    /// timeline has run once advanced, never a clock reading. To move it
    /// on by a length, [`advance`](Timeline::advance) takes a `Duration`.
    ///
    /// # Panics
    ///
    /// Only if a callback panics; the panic passes through. The timeline is
    /// repaired as the panic leaves: the timer whose callback panicked is
    /// disarmed (a repeating one too: [`is_armed`](Timeline::is_armed),
    /// [`len`](Timeline::len) and [`next_due`](Timeline::next_due) say so at
    /// once), the timers not yet reached stay due, and timers armed
    /// meanwhile are kept. The next advance goes on from there.
    #[inline]
    pub fn advance_to(&mut self, state: &mut S, to: Nanos) {
        if to <= self.now {
            return;
        }
        self.now = to;
        if self.advancing {
            self.recover();
        }
        // The common case: nothing is due, decided by one comparison.
        if let Some(Reverse(top)) = self.heap.peek()
            && top.due <= to
        {
            self.fire_due(state, to);
        }
    }
}

impl<S> Default for Timeline<S> {
    fn default() -> Timeline<S> {
        Timeline::new()
    }
}

impl<S> fmt::Debug for Timeline<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Timeline")
            .field("now", &self.now)
            .field("armed", &self.armed)
            .finish_non_exhaustive()
    }
}

fn positive(duration: Duration, what: &'static str) -> Result<Nanos, TimerError> {
    if duration.is_zero() {
        Err(TimerError::ZeroDuration { what })
    } else {
        Ok(Nanos::from_duration(duration))
    }
}

/// Why a timer could not be scheduled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimerError {
    /// A zero delay or period. A zero period would fire without end, and a
    /// zero delay is next-pump work, which is what coalesced jobs are for.
    ZeroDuration {
        /// `"after"` or `"every"`.
        what: &'static str,
    },
}

impl fmt::Display for TimerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimerError::ZeroDuration { what } => write!(
                f,
                "`{what}` needs a duration of at least 1 ns, got 0 \
                 (for work at the next pump, use a coalesced job)"
            ),
        }
    }
}

impl std::error::Error for TimerError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timers_cancelled_from_inside_callbacks_leave_no_heap_entries_behind() {
        // Cancel and re-arm a day-long one-shot every 10 ms: two timers are
        // armed throughout, so the heap must stay near two entries.
        let mut timeline = Timeline::<Option<TimerHandle>>::new();
        timeline
            .every(Duration::from_millis(10), |pending, fire| {
                if let Some(handle) = pending.take() {
                    fire.cancel(handle);
                }
                *pending = Some(fire.after(Duration::from_secs(86_400), |_, _| {}).unwrap());
            })
            .unwrap();
        let mut pending = None;
        for _ in 0..10_000 {
            timeline.advance(&mut pending, Duration::from_millis(10));
        }
        assert_eq!(timeline.len(), 2);
        assert!(
            timeline.heap.len() <= 2 * 64 + 2,
            "{} heap entries for 2 armed timers",
            timeline.heap.len()
        );
    }
}

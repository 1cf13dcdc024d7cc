//! Advancing: firing the timers that fell due, in order, each at most once,
//! and repairing the timeline when a callback panics.

use std::cmp::Reverse;

use evenstep_core::Nanos;

use crate::timeline::entries::Entry;
use crate::timeline::fire::Fire;
use crate::timeline::{Timeline, TimerHandle};

impl<S> Timeline<S> {
    /// Fires every timer due at or before `to`, in order.
    pub(super) fn fire_due(&mut self, state: &mut S, to: Nanos) {
        self.advancing = true;
        // Repairs the timeline if a callback panics, as the panic leaves.
        let timeline = RepairOnUnwind(self);
        while let Some(&Reverse(entry)) = timeline.0.heap.peek() {
            if entry.due > to {
                break;
            }
            timeline.0.heap.pop();
            if !timeline.0.is_current(&entry) {
                timeline.0.stale = timeline.0.stale.saturating_sub(1);
                continue;
            }
            timeline.0.fire(state, entry);
        }
        // Finished: the guard's repair, run on drop, finds nothing to do.
        timeline.0.advancing = false;
        timeline
            .0
            .heap
            .extend(timeline.0.incoming.drain(..).map(Reverse));
        // Callbacks may have cancelled timers while compaction had to wait.
        timeline.0.compact_if_stale();
    }

    /// Repairs the timeline after a timer's callback panicked: timers armed
    /// during that advance join the heap, and the timer whose callback was
    /// lost with the panic is disarmed. A no-op unless an advance was cut
    /// short. Run as the panic unwinds out of the advance, so the timeline
    /// never reads as it was mid-advance; the loop calls it again when it
    /// recovers from a panicking pump, which finds nothing left to do.
    pub(crate) fn recover(&mut self) {
        if !std::mem::take(&mut self.advancing) {
            return;
        }
        self.heap.extend(self.incoming.drain(..).map(Reverse));
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if slot.timer.as_ref().is_some_and(|t| t.callback.is_none()) {
                slot.timer = None;
                slot.generation = slot.generation.wrapping_add(1);
                // Slots are numbered in u32 when armed.
                self.free.push(index as u32);
                self.armed -= 1;
                // A repeating timer was re-armed before its call.
                self.stale += 1;
            }
        }
        self.compact_if_stale();
    }

    /// Runs one due timer: re-arms it first (so its callback can cancel it),
    /// then calls it with the number of periods it covers.
    fn fire(&mut self, state: &mut S, entry: Entry) {
        let now = self.now;
        let slot = &mut self.slots[entry.slot as usize];
        let Some(timer) = slot.timer.as_mut() else {
            return;
        };
        let Some(mut callback) = timer.callback.take() else {
            return;
        };
        let repeats;
        let next_due = timer.period.map(|period| {
            // Every period boundary in (due - period, now] is covered.
            let covered = (now - entry.due).as_nanos() / period.as_nanos();
            (covered + 1, entry.due + period.saturating_mul(covered + 1))
        });
        if let Some((covered, due)) = next_due
            && due > now
        {
            repeats = covered;
            timer.due = due;
            self.heap.push(Reverse(Entry { due, ..entry }));
        } else {
            // A one-shot, or a repeating timer whose next due time would be
            // past the end of time (it saturated): this is its last call.
            repeats = next_due.map_or(1, |(covered, _)| covered);
            slot.timer = None;
            slot.generation = slot.generation.wrapping_add(1);
            self.free.push(entry.slot);
            self.armed -= 1;
        }
        let handle = TimerHandle {
            timeline: self.id,
            slot: entry.slot,
            generation: entry.generation,
        };
        let mut fire = Fire {
            timeline: self,
            repeats,
            due: entry.due,
            handle,
        };
        callback(state, &mut fire);
        // Put the callback back unless the timer was cancelled (or was a
        // one-shot) meanwhile.
        if let Some(slot) = self.slots.get_mut(entry.slot as usize)
            && slot.generation == entry.generation
            && let Some(timer) = slot.timer.as_mut()
        {
            timer.callback = Some(callback);
        }
    }
}

/// Repairs a timeline whose advance a panicking callback cut short, when
/// the panic unwinds through [`Timeline::fire_due`]; on an advance that
/// finished, [`Timeline::recover`] is a no-op.
struct RepairOnUnwind<'a, S>(&'a mut Timeline<S>);

impl<S> Drop for RepairOnUnwind<'_, S> {
    fn drop(&mut self) {
        self.0.recover();
    }
}

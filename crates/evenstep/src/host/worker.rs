//! A worker: the rooms on one thread. It keeps them in a heap by the
//! instant each is next due, pumps the ones that are due, and says when it
//! must wake next; how it sleeps is its driver's (a [`Sleep`] on a thread
//! of its own, or tokio's timers).

use std::any::Any;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, VecDeque};
use std::ops::ControlFlow;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::Ordering;

use evenstep_core::{Nanos, Timestamp};

use crate::clock::Clock;
use crate::host::handle::{Command, HostHandle, HostShared, RoomId};
use crate::host::room::{Factory, Room, RoomEnd, RoomReport, RoomSetup, SharedClock};
use crate::host::stats::{Batch, RoomTally};
use crate::runner::{Sleep, StopHandle};

/// When a worker wakes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Wakes {
    /// The longest it sleeps with nothing due.
    pub(crate) idle: Nanos,
    /// How long after the earliest room's deadline it wakes.
    pub(crate) slack: Nanos,
}

/// A room on its worker.
struct Slot {
    id: RoomId,
    room: Room,
    tally: RoomTally,
}

/// The rooms of one worker, and what it has not yet told the host.
pub(crate) struct Worker {
    index: usize,
    shared: Arc<HostShared>,
    clock: SharedClock,
    idle_wake: Nanos,
    slack: Nanos,
    slots: Vec<Option<Slot>>,
    free: Vec<usize>,
    ids: BTreeMap<RoomId, usize>,
    /// Each room's next deadline, earliest first (then the lowest slot). A
    /// room has one entry; an entry whose room has gone is skipped.
    due: BinaryHeap<Reverse<(Timestamp, usize, RoomId)>>,
    /// Commands taken from the handle and not yet carried out: rooms are
    /// built only until one already running is due.
    pending: VecDeque<Command>,
    draining: bool,
    batch: Batch,
}

impl Worker {
    pub(crate) fn new(index: usize, shared: Arc<HostShared>, wakes: Wakes) -> Worker {
        let clock = Arc::clone(&shared.clock);
        Worker {
            index,
            shared,
            clock,
            idle_wake: wakes.idle,
            slack: wakes.slack,
            slots: Vec::new(),
            free: Vec::new(),
            ids: BTreeMap::new(),
            due: BinaryHeap::new(),
            pending: VecDeque::new(),
            draining: false,
            batch: Batch::default(),
        }
    }

    pub(crate) fn clock(&self) -> &dyn Clock {
        &*self.clock
    }

    /// The handle's signal that wakes this worker.
    pub(crate) fn signal(&self) -> &StopHandle {
        &self.shared.workers[self.index].signal
    }

    #[cfg(feature = "tokio")]
    pub(crate) fn shared(&self) -> &crate::host::handle::WorkerShared {
        &self.shared.workers[self.index]
    }

    /// Takes the handle's commands, in order. Building a room can take a
    /// while, so after each one built the worker stops if a running room
    /// has fallen due, and leaves the rest for after its pump: a burst of
    /// new rooms delays the running ones by one room's build at most, where
    /// building them all first could leave them past their budget. After a
    /// stop, every command is carried out. Breaks when the worker is done:
    /// stopped, or drained with no room left.
    pub(crate) fn take_commands(&mut self) -> ControlFlow<()> {
        self.pending
            .extend(self.shared.workers[self.index].take_commands());
        let mut stop = false;
        while let Some(command) = self.pending.pop_front() {
            let builds = matches!(command, Command::Add(..));
            match command {
                Command::Add(id, factory) => self.add(id, factory),
                Command::Remove(id) => self.end_by_id(id, RoomEnd::Removed),
                Command::Drain => self.draining = true,
                Command::Stop => stop = true,
            }
            if builds && !stop && self.is_due() {
                break;
            }
        }
        if stop {
            let ids: Vec<RoomId> = self.ids.keys().copied().collect();
            for id in ids {
                self.end_by_id(id, RoomEnd::Stopped);
            }
        }
        if stop || (self.draining && self.ids.is_empty() && self.pending.is_empty()) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// Whether the earliest room is due.
    fn is_due(&self) -> bool {
        self.due
            .peek()
            .is_some_and(|Reverse((due, _, _))| *due <= self.clock.now())
    }

    /// When the worker must wake next: now with commands left over, else the
    /// earliest room's deadline and the slack after it, or `idle_wake` from
    /// now with no room.
    pub(crate) fn next_wake(&self) -> Timestamp {
        if !self.pending.is_empty() {
            return self.clock.now();
        }
        match self.due.peek() {
            Some(Reverse((due, _, _))) => due.saturating_add(self.slack),
            None => self.clock.now().saturating_add(self.idle_wake),
        }
    }

    /// Pumps every room that is due, earliest first: one round. A room that
    /// falls due meanwhile waits for the next round, so that a worker that
    /// has fallen behind still takes its commands (a stop, a new room)
    /// between rounds, and each round ends.
    pub(crate) fn pump_due(&mut self) {
        let now = self.clock.now();
        while let Some(&Reverse((due, slot, id))) = self.due.peek() {
            if due > now {
                break;
            }
            self.due.pop();
            if self.is_live(slot, id) {
                self.pump(slot);
            }
        }
    }

    /// Whether `slot` still holds room `id` (a heap entry outlives its room
    /// when the room ends; the slot may hold a newer room since).
    fn is_live(&self, slot: usize, id: RoomId) -> bool {
        self.slots[slot]
            .as_ref()
            .is_some_and(|entry| entry.id == id)
    }

    /// Pumps the room in `slot`.
    fn pump(&mut self, slot: usize) {
        let entry = self.slots[slot].as_mut().expect("a live slot");
        let pumped = panic::catch_unwind(AssertUnwindSafe(|| entry.room.tick()));
        let end = self.clock.now();
        match pumped {
            Err(payload) => self.end(slot, RoomEnd::Panicked(message(&*payload))),
            Ok(None) => self.end(slot, RoomEnd::Finished),
            Ok(Some(pump)) => {
                let busy = end.saturating_since(pump.report.now);
                entry.tally.count(&pump, busy, &mut self.batch);
                if entry.room.is_running() {
                    let next = entry.room.deadline(self.idle_wake);
                    self.due.push(Reverse((next, slot, entry.id)));
                } else {
                    self.end(slot, RoomEnd::Finished);
                }
            }
        }
    }

    /// Builds a room from its factory, here, and starts it.
    fn add(&mut self, id: RoomId, factory: Factory) {
        let setup = RoomSetup {
            id,
            clock: Arc::clone(&self.clock),
            handle: HostHandle {
                shared: Arc::clone(&self.shared),
            },
        };
        let built = match panic::catch_unwind(AssertUnwindSafe(|| factory(setup))) {
            Ok(built) => built,
            Err(payload) => Err(message(&*payload)),
        };
        let mut room = match built {
            Ok(room) => room,
            Err(refusal) => {
                self.batch.refused += 1;
                self.ended(id, RoomEnd::Refused(refusal), &RoomTally::new());
                return;
            }
        };
        room.start();
        let deadline = room.deadline(self.idle_wake);
        let slot = self.free.pop().unwrap_or(self.slots.len());
        let entry = Slot {
            id,
            room,
            tally: RoomTally::new(),
        };
        if slot == self.slots.len() {
            self.slots.push(Some(entry));
        } else {
            self.slots[slot] = Some(entry);
        }
        self.ids.insert(id, slot);
        self.due.push(Reverse((deadline, slot, id)));
        self.batch.started += 1;
    }

    fn end_by_id(&mut self, id: RoomId, end: RoomEnd) {
        if let Some(&slot) = self.ids.get(&id) {
            self.end(slot, end);
        }
    }

    /// Ends the room in `slot`; its heap entry is skipped when it comes up.
    fn end(&mut self, slot: usize, end: RoomEnd) {
        let entry = self.slots[slot].take().expect("a live slot");
        self.ids.remove(&entry.id);
        self.free.push(slot);
        if matches!(end, RoomEnd::Panicked(_)) {
            self.batch.panicked += 1;
        }
        self.ended(entry.id, end, &entry.tally);
    }

    /// Counts a room that ended, and tells the host's hook.
    fn ended(&mut self, id: RoomId, end: RoomEnd, tally: &RoomTally) {
        self.batch.ended += 1;
        self.shared.workers[self.index]
            .rooms
            .fetch_sub(1, Ordering::SeqCst);
        if let Some(hook) = &self.shared.on_end {
            hook(&RoomReport {
                id,
                end,
                stats: tally.stats(),
            });
        }
    }

    /// Tells the host what this worker did since it last did: once a
    /// wake-up, under one lock.
    pub(crate) fn report(&mut self) {
        self.shared.tally().absorb(&mut self.batch);
    }

    /// Marks the worker running in the host's figures.
    pub(crate) fn begin(&self) {
        self.shared.tally().worker_starts(self.clock.now());
    }

    /// Tells the host the last of what the worker did, and that it
    /// returned.
    pub(crate) fn finish(&mut self) {
        self.report();
        self.shared.tally().worker_ends(self.clock.now());
    }
}

/// A panic's message, when it is a string.
fn message(payload: &(dyn Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic with no message".to_owned())
}

/// Runs a worker on this thread, sleeping with `sleeper`, until it is
/// stopped or drained.
pub(crate) fn run_on_thread<Z: Sleep>(mut worker: Worker, mut sleeper: Z) {
    let signal = worker.signal().clone();
    signal.set_sleeper(Some(std::thread::current()));
    worker.begin();
    loop {
        signal.take_wake();
        if worker.take_commands().is_break() {
            break;
        }
        let wake = worker.next_wake();
        sleeper.sleep_until(worker.clock(), wake, &signal);
        worker.pump_due();
        worker.report();
    }
    signal.set_sleeper(None);
    worker.finish();
}

//! Stopping and waking a runner (or a host's worker) from another thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::Thread;

#[cfg(doc)]
use crate::game_loop::Loop;
#[cfg(doc)]
use crate::runner::Runner;

/// Stops a [`Runner`] from any thread: `Send`, `Sync`, and cheap to clone.
///
/// Each stop ends one run: the run in progress (after its current pump,
/// waking it if it sleeps), or else the next run, at once. The run it ends
/// stops the loop, which a later run (or [`Loop::start`]) restarts.
#[derive(Clone, Debug, Default)]
pub struct StopHandle {
    shared: Arc<StopShared>,
}

#[derive(Debug, Default)]
struct StopShared {
    stopped: AtomicBool,
    /// A host has new work for its worker (a room to add or remove).
    woken: AtomicBool,
    /// The thread of the run in progress, to wake from its sleep.
    sleeper: Mutex<Option<Thread>>,
}

impl StopHandle {
    /// Asks the runner to stop, and wakes it if it sleeps.
    pub fn stop(&self) {
        self.shared.stopped.store(true, Ordering::SeqCst);
        self.unpark();
    }

    /// Whether a stop was asked for and has not yet ended a run.
    pub fn is_stopped(&self) -> bool {
        self.shared.stopped.load(Ordering::SeqCst)
    }

    /// Whether a sleeper should return now: a stop was asked for, or a
    /// host woke its worker to take new work (a room added or removed).
    /// What a [`Sleep`](crate::runner::Sleep) checks.
    pub fn should_wake(&self) -> bool {
        self.is_stopped() || self.shared.woken.load(Ordering::SeqCst)
    }

    /// Wakes the sleeper without stopping it: a host's handle has queued
    /// work for the worker.
    pub(crate) fn wake(&self) {
        self.shared.woken.store(true, Ordering::SeqCst);
        self.unpark();
    }

    /// Whether a wake was asked for since the last call; clears it.
    pub(crate) fn take_wake(&self) -> bool {
        self.shared.woken.swap(false, Ordering::SeqCst)
    }

    fn unpark(&self) {
        let sleeper = self
            .shared
            .sleeper
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(thread) = sleeper.as_ref() {
            thread.unpark();
        }
    }

    /// Whether a stop was asked for; clears it (the stop ends one run).
    pub(crate) fn take(&self) -> bool {
        self.shared.stopped.swap(false, Ordering::SeqCst)
    }

    /// Sets the thread a stop or a wake unparks.
    pub(crate) fn set_sleeper(&self, thread: Option<Thread>) {
        *self
            .shared
            .sleeper
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = thread;
    }
}

//! How callbacks steer the loop. The contexts every update and render gets
//! carry a [`Control`] so a callback can pause, resume, stop or re-speed the
//! loop: those requests take effect at the next pump boundary (pausing
//! inside an update does not cut short the pump it came from), except
//! `stop`, which takes effect at once.

use std::cell::Cell;

#[cfg(doc)]
use evenstep_core::FrameLoop;
use evenstep_core::{Speed, Timestep};

/// Requests made to the loop, applied at the next pump boundary (`stop` at
/// once). Cells, because callbacks receive shared references.
#[derive(Debug, Default)]
pub struct Control {
    /// Any request other than `stop` is waiting: lets a pump skip the rest.
    pending: Cell<bool>,
    pause: Cell<Option<bool>>,
    speed: Cell<Option<Speed>>,
    timestep: Cell<Option<Timestep>>,
    queue: Cell<u32>,
    stop: Cell<bool>,
}

impl Control {
    /// Pauses from the next pump: sim time, steps and sim timers stop; real
    /// time, real timers and jobs go on; renders keep the alpha they had.
    pub fn pause(&self) {
        self.pending.set(true);
        self.pause.set(Some(true));
    }

    /// Resumes from the next pump, which starts with a zero delta (no burst
    /// of steps for the time spent paused).
    pub fn resume(&self) {
        self.pending.set(true);
        self.pause.set(Some(false));
    }

    /// Sets the time scale from the next pump. [`Speed::PAUSED`] freezes sim
    /// time like a pause does, but the loop does not count as paused.
    pub fn set_speed(&self, speed: Speed) {
        self.pending.set(true);
        self.speed.set(Some(speed));
    }

    /// Changes the fixed step from the next pump (see
    /// [`FrameLoop::set_timestep`]): the banked time is kept as time, the
    /// tick carries on and simulation time goes on exactly from where it
    /// stood. A budget given as a span of time is counted again in the new
    /// steps.
    pub fn set_timestep(&self, timestep: Timestep) {
        self.pending.set(true);
        self.timestep.set(Some(timestep));
    }

    /// Runs `count` extra steps at the next pump, outside the budget and even
    /// while paused: frame-by-frame stepping.
    pub fn queue_steps(&self, count: u32) {
        self.pending.set(true);
        self.queue.set(self.queue.get().saturating_add(count));
    }

    /// Stops the loop at once: no further update runs in this pump, nothing
    /// renders, and pumps are no-ops until `start`.
    pub fn stop(&self) {
        self.stop.set(true);
    }

    pub(crate) fn stop_requested(&self) -> bool {
        self.stop.get()
    }

    pub(crate) fn clear_stop(&self) {
        self.stop.set(false);
    }

    /// Whether any request other than `stop` waits for the next pump.
    pub(crate) fn is_pending(&self) -> bool {
        self.pending.get()
    }

    /// Whether any request other than `stop` is waiting, clearing the flag.
    pub(crate) fn take_pending(&self) -> bool {
        self.pending.replace(false)
    }

    pub(crate) fn take_pause(&self) -> Option<bool> {
        self.pause.take()
    }

    pub(crate) fn take_speed(&self) -> Option<Speed> {
        self.speed.take()
    }

    pub(crate) fn take_timestep(&self) -> Option<Timestep> {
        self.timestep.take()
    }

    pub(crate) fn take_queue(&self) -> u32 {
        self.queue.take()
    }
}

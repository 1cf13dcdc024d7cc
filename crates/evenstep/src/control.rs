//! How callbacks steer the loop. The contexts every update and render gets
//! carry a [`Control`] so a callback can pause, resume, stop or re-speed the
//! loop: those requests take effect at the next pump boundary (pausing
//! inside an update does not cut short the pump it came from), except
//! `stop`, and giving back the rest of the pump's steps
//! ([`Control::refund_rest`], [`Control::skip_rest`]), which take effect at
//! once.

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
    /// The steps left of the pump in progress are given back.
    give_back: Cell<Option<GiveBack>>,
}

/// How an update gives back the rest of its pump's steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GiveBack {
    /// Their time stays banked, to run on a later pump.
    Refund,
    /// Their time is dropped and reported.
    Skip,
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

    /// Gives back this step and the rest of the pump's steps, to run on a
    /// later pump: for lockstep netcode that has no input to advance with
    /// yet. Call it from the first update of the step, leaving the state
    /// as the step before left it (a rollback session may load and re-run
    /// earlier frames first, as long as it ends where it began): the
    /// step's other updates do not run, its tick is not
    /// counted (the next step run takes it, with the input this one was
    /// given), and the time of the steps goes back into the planner's bank
    /// ([`FrameLoop::refund_steps`]), bounded by the budget: what the
    /// budget does not let the bank hold is dropped and reported in
    /// [`LoopStats::dropped_steps`](crate::LoopStats::dropped_steps). The pump's hooks after the steps
    /// and its render run as usual. Ignored outside an update.
    pub fn refund_rest(&self) {
        self.give_back.set(Some(GiveBack::Refund));
    }

    /// Gives back this step and the rest of the pump's steps, never to run:
    /// a frame skipped to let a peer catch up. As
    /// [`refund_rest`](Control::refund_rest), except that their time is
    /// dropped and reported ([`FrameLoop::skip_steps`]).
    pub fn skip_rest(&self) {
        self.give_back.set(Some(GiveBack::Skip));
    }

    pub(crate) fn give_back_requested(&self) -> bool {
        self.give_back.get().is_some()
    }

    pub(crate) fn take_give_back(&self) -> Option<GiveBack> {
        self.give_back.take()
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

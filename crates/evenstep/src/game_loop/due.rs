//! Due times: when the next thing is due ([`Loop::next_due`]) and when the
//! next fixed step is ([`Loop::next_step_due`]), so a host sleeps exactly
//! that long between pumps.

#[cfg(doc)]
use evenstep_core::Pacing;
use evenstep_core::{Nanos, Timestamp};

use crate::game_loop::Loop;

impl<S> Loop<S> {
    /// The instant the next thing is due, in the loop's time base: when a
    /// host that has nothing else to do should pump next (sleep, or wait
    /// for a timer, until then). `None` when nothing is ever due: the loop
    /// is not started, or stopped.
    ///
    /// The earliest of:
    ///
    /// - **the next fixed step**: the instant the bank reaches one whole
    ///   step at the current speed, measured from the previous pump and
    ///   rounded up to the nanosecond, so a pump at that instant runs it.
    ///   None while paused (or at speed zero). Sim timers fire inside
    ///   steps, so the next step covers them too;
    /// - **the next real timer**, at its due time;
    /// - **a pending request**: a requested job, queued steps, or a pause,
    ///   resume or speed change waiting for a pump, are due at once, and
    ///   give the previous pump's time (already past).
    ///
    /// Paint pumps come from the display; this is for the wake-ups in
    /// between. Two things it does not foresee: the render cap (its next
    /// slot is the planner's own state; a capped render lands on a paint
    /// pump, which the display sends anyway), and snapping (a paint pump
    /// under [`Pacing::LOCKED`] or [`Pacing::snapped`] may bank whole
    /// refreshes of the display instead of its delta, so its step can come
    /// earlier or later; tick pumps are never snapped). At a fractional speed the planner carries
    /// a fraction of a unit between pumps that this does not see, so the
    /// step may come slightly earlier than said, never later.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep::{Loop, ManualClock, Pacing, PumpKind, Timestamp};
    ///
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<u64>::builder()
    ///     .clock(clock.clone())
    ///     .pacing(Pacing::OFF) // the bank starts empty
    ///     .build()?;
    /// game_loop.on_update(|steps, _| *steps += 1);
    /// assert_eq!(game_loop.next_due(), None); // not started
    ///
    /// game_loop.start();
    /// // One 60 Hz step is 16,666,666⅔ ns: due at the next whole nanosecond.
    /// let due = game_loop.next_due().unwrap();
    /// assert_eq!(due, Timestamp::from_nanos(16_666_667));
    ///
    /// let mut steps = 0;
    /// clock.set(due);
    /// let _ = game_loop.pump(&mut steps, PumpKind::Tick);
    /// assert_eq!(steps, 1);
    /// assert_eq!(game_loop.next_due(), Some(Timestamp::from_nanos(33_333_334)));
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn next_due(&self) -> Option<Timestamp> {
        if !self.is_running() {
            return None;
        }
        // Queued steps reach the planner through a control request, so a
        // pending request covers them.
        if self.steering.control.is_pending() || self.jobs.any_requested() {
            return Some(self.time.last_pump());
        }
        let timer = self.real.next_due().map(|due| {
            self.time
                .last_pump()
                .saturating_add(due.saturating_sub(self.real.now()))
        });
        match (self.next_step_due(), timer) {
            (Some(step), Some(timer)) => Some(step.min(timer)),
            (step, timer) => step.or(timer),
        }
    }

    /// The instant the next fixed step is due: when the bank reaches one
    /// whole step at the current speed, measured from the previous pump and
    /// rounded up to the nanosecond, so a pump at that instant runs it.
    /// `None` while paused (or at speed zero), and when the loop is not
    /// running. [`next_due`](Loop::next_due) is the earliest of this and
    /// everything else that is due.
    pub fn next_step_due(&self) -> Option<Timestamp> {
        if !self.is_running() {
            return None;
        }
        let speed = self.frames.speed();
        if speed.is_paused() || self.frames.tick() == u64::MAX {
            return None;
        }
        let timestep = self.frames.timestep();
        // The bank is under one step between frames, so at least one unit
        // is missing; right after a change to a shorter step it may hold
        // whole steps, which are due at once.
        let missing =
            u128::from(timestep.units_per_step()).saturating_sub(self.frames.remainder_units());
        // `wait` ns bank `wait · Q · num / den` units: the smallest whole
        // `wait` that brings the missing units.
        let per_nano = u128::from(timestep.units_per_nanosecond()) * u128::from(speed.numerator());
        let wait = (missing * u128::from(speed.denominator())).div_ceil(per_nano);
        let wait = Nanos::from_nanos(u64::try_from(wait).unwrap_or(u64::MAX));
        Some(self.frames.last_frame().saturating_add(wait))
    }
}

//! How a planner is made, what a game sets on it (the pacing it starts with,
//! and between frames the speed, the pacing, the budget, the render cap,
//! queued steps, the step rate, the anchor and the tick) and what it reads
//! back. Every change takes effect from the next frame.

use super::FrameLoop;
use super::bank::Bank;
use crate::pacing::{Pacer, PacingEvent, Placing};
use crate::rate::Rate;
use crate::sim_epoch::SimEpoch;
use crate::{Alpha, Nanos, Pacing, Speed, StepBudget, Timestamp, Timestep};

impl FrameLoop {
    /// A planner anchored at `start`, running at normal speed with locked
    /// pacing: the bank starts empty, and frames snap to the display once
    /// it keeps a steady rhythm (see [`Pacing`]).
    pub const fn new(timestep: Timestep, budget: StepBudget, start: Timestamp) -> FrameLoop {
        FrameLoop {
            timestep,
            budget,
            speed: Speed::NORMAL,
            last: start,
            bank: Bank::holding(0),
            carry: 0,
            tick: 0,
            epoch: SimEpoch::START,
            queued: 0,
            pacer: Pacer::new(Pacing::LOCKED),
        }
    }

    /// The same planner with `pacing` from the start: the bank starts empty
    /// for [`Pacing::OFF`] and at half a step otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{FrameLoop, Pacing, StepBudget, Timestamp, Timestep};
    ///
    /// let plain = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
    ///     .with_pacing(Pacing::OFF);
    /// assert_eq!(plain.remainder_units(), 0);
    /// ```
    #[must_use = "`with_pacing` returns the configured planner"]
    pub fn with_pacing(mut self, pacing: Pacing) -> FrameLoop {
        self.pacer.event(PacingEvent::Pacing(pacing));
        self.bank = Bank::holding(self.start_bank());
        self
    }

    /// The bank a fresh planner starts with under its pacing.
    fn start_bank(&self) -> u128 {
        let per_step = self.timestep.units_per_step();
        u128::from(self.pacer.place_bank(Placing::Start, per_step).unwrap_or(0))
    }

    /// Forgets the time since the previous frame: the next frame's delta is
    /// measured from `now`. The bank, the tick and queued steps are kept.
    ///
    /// Call it after a gap that was not real play time (a pause, a
    /// breakpoint, a level load) so the gap is not replayed as a burst of
    /// steps or reported as dropped.
    ///
    /// Frames in flight can still be reported shown (their showing was
    /// real); the next frame starts the count of refreshes display feedback
    /// plans by again.
    pub fn resync(&mut self, now: Timestamp) {
        self.last = now;
        self.pacer.event(PacingEvent::Resync);
    }

    /// Starts over at `now`: empties the bank, the speed carry and the queue,
    /// forgets what pacing learned of the display (display feedback's
    /// frames in flight and what the reports taught included: a report of
    /// a frame from before the reset is refused), restarts the render cap,
    /// and sets the tick back to 0. Configuration (timestep, budget, speed,
    /// pacing, render cap) is kept, and frame numbers go on counting.
    pub fn reset(&mut self, now: Timestamp) {
        self.last = now;
        self.bank = Bank::holding(self.start_bank());
        self.carry = 0;
        self.tick = 0;
        self.epoch = SimEpoch::START;
        self.queued = 0;
        self.pacer.event(PacingEvent::Reset);
    }

    /// Sets the pacing from the next frame on. Turning centring on moves the
    /// bank to mid-step; the move is reported as the next plan's phase shift.
    /// Turning snapping off forgets what it learned of the display.
    pub fn set_pacing(&mut self, pacing: Pacing) {
        let per_step = self.timestep.units_per_step();
        if let Some(part) = self.pacer.place_bank(Placing::Change(pacing), per_step) {
            // Only the part under a step moves: whole steps a change of
            // step left in the bank are still due.
            self.bank.move_part(part, per_step);
        }
        self.pacer.event(PacingEvent::Pacing(pacing));
    }

    /// The pacing.
    pub const fn pacing(&self) -> Pacing {
        self.pacer.mode()
    }

    /// Every plan's phase shift so far, summed (see
    /// [`FramePlan::phase_shift_units`](crate::FramePlan::phase_shift_units)).
    pub const fn phase_shift_units(&self) -> i128 {
        self.bank.shift_total()
    }

    /// Phase shift made since the last plan by a pacing change, which the
    /// next plan will report.
    pub const fn pending_phase_shift_units(&self) -> i128 {
        self.bank.pending()
    }

    /// Caps renders at `rate` a second of real time, a rate that need not
    /// be whole (`None`: every frame renders). The plan's
    /// [`render`](crate::FramePlan::render) says whether to draw; steps run
    /// either way. Setting a different rate restarts the cap's pacing;
    /// setting the one in force changes nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{FrameLoop, Rate, StepBudget, Timestamp, Timestep};
    ///
    /// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    /// frames.set_render_cap(Some(Rate::ratio(30_000, 1_001)?)); // 29.97 fps
    /// // 1,001 s of a 60 Hz display: exactly 30,000 renders.
    /// let mut renders = 0;
    /// for k in 1..=60_060_u64 {
    ///     let plan = frames.begin_frame(Timestamp::from_nanos(k * 1_001_000_000_000 / 60_060));
    ///     renders += u32::from(plan.render());
    /// }
    /// assert_eq!(renders, 30_000);
    /// # Ok::<(), evenstep_core::RateError>(())
    /// ```
    pub fn set_render_cap(&mut self, rate: Option<Rate>) {
        self.pacer.set_render_cap(rate);
    }

    /// The render cap's rate, in lowest terms.
    pub fn render_cap(&self) -> Option<Rate> {
        self.pacer.render_cap()
    }

    /// The refresh period the display model has learned, while it follows
    /// a steady lattice of refreshes (always `None` unless the pacing is
    /// locked or snapped: pacing off and centred do not learn the display).
    pub fn refresh_period(&self) -> Option<Nanos> {
        self.pacer.refresh_period()
    }

    /// Sets the time scale from the next frame on. [`Speed::PAUSED`] stops
    /// simulation time: frames run no steps (except queued ones) and the
    /// remainder, and so the alpha, stays where it was.
    pub fn set_speed(&mut self, speed: Speed) {
        if speed != self.speed {
            // The carry is a fraction of 1/den; it means nothing in another
            // denominator. It is less than one accumulator unit (at most 1 ns).
            self.carry = 0;
            self.speed = speed;
        }
    }

    /// Sets the step budget from the next frame on.
    pub fn set_budget(&mut self, budget: StepBudget) {
        self.budget = budget;
    }

    /// Adds `count` steps to the next frame, on top of what its elapsed time
    /// pays for. Queued steps run even while paused, do not count against the
    /// budget and leave the bank alone: frame-by-frame stepping for a
    /// debugger. Saturates; `reset` drops them.
    pub fn queue_steps(&mut self, count: u32) {
        self.queued = self.queued.saturating_add(u64::from(count));
    }

    /// Steps queued for the next frame.
    pub const fn queued_steps(&self) -> u64 {
        self.queued
    }

    /// The index of the next step to run: the number of steps run since
    /// construction or [`reset`](FrameLoop::reset). It saturates at
    /// `u64::MAX`, after which no step runs and due time is dropped.
    pub const fn tick(&self) -> u64 {
        self.tick
    }

    /// Numbers the next step `tick`, keeping the bank and everything else:
    /// for a game loaded from a save at that tick, or a driver whose planned
    /// steps were cut short (by a stop or a panic) and never ran.
    pub fn set_tick(&mut self, tick: u64) {
        self.tick = tick;
    }

    /// Simulation time: `tick · dt` for a planner whose step never changed,
    /// and in general the simulation time at the last change of step plus
    /// the steps since at the current step. Exact, rounded down to the
    /// nanosecond.
    pub const fn simulated(&self) -> Nanos {
        self.epoch.sim_time(self.tick, self.timestep)
    }

    /// Simulation time when the step of `tick` begins (see
    /// [`simulated`](FrameLoop::simulated)), for any tick, past or future.
    pub const fn sim_time_at(&self, tick: u64) -> Nanos {
        self.epoch.sim_time(tick, self.timestep)
    }

    /// Simulation time at the current blend factor: what a render now
    /// shows, between the last step and the next. Exact, rounded down to
    /// the nanosecond.
    pub const fn sim_time_drawn(&self) -> Nanos {
        self.epoch
            .sim_time_within(self.tick, saturate(self.bank.units()), self.timestep)
    }

    /// Changes the fixed step from the next frame on, as a game's settings
    /// or a server's tick rate do at run time. Between changes every step is
    /// the same; the planner never changes it on its own.
    ///
    /// - **The banked time is kept as time**, re-expressed in the new
    ///   step's accumulator units and rounded down to a whole unit (it
    ///   loses under one unit, which is under a nanosecond, and nothing at
    ///   all when the old and new units agree, as for 60 and 30 Hz). If the
    ///   new step is shorter than the time banked, the bank holds whole
    ///   steps until the next frame, which runs them under its budget and
    ///   reports the rest as dropped, however many there are.
    /// - **The tick carries on**, and **simulation time stays exact**: it
    ///   goes on from where it stood at the change, one new step per step
    ///   ([`simulated`](FrameLoop::simulated)), never jumping to `tick ·
    ///   new dt`.
    /// - **The conservation law still holds**, in the old step's units up
    ///   to the change and in the new step's after it. A phase shift made
    ///   by a pacing change since the last frame is added to
    ///   [`phase_shift_units`](FrameLoop::phase_shift_units) now, in the old
    ///   units, instead of being reported by the next plan.
    /// - The budget stays the same number of steps (a driver that holds the
    ///   budget as a span of time re-counts it), the speed's carry of a
    ///   fraction of a unit is dropped, and snapping forgets what it learned
    ///   of the display, whose lattice it measured in the old step's units.
    ///   What display feedback taught is kept (it is measured in time, not
    ///   steps), and frames in flight can still be reported.
    /// - **A change to the rate in force changes nothing**, in any terms
    ///   (`from_hz(60)` for [`Timestep::HZ_60`]): the display model is kept,
    ///   and a pending phase shift stays pending, for the next plan to
    ///   report. A settings screen that applies the rate it shows costs
    ///   nothing.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{FrameLoop, Nanos, Pacing, StepBudget, Timestamp, Timestep};
    ///
    /// let mut frames = FrameLoop::new(Timestep::HZ_20, StepBudget::DEFAULT, Timestamp::ZERO)
    ///     .with_pacing(Pacing::OFF);
    /// let plan = frames.begin_frame(Timestamp::from_nanos(130_000_000));
    /// assert_eq!((plan.steps_run(), frames.remainder()), (2, Nanos::from_millis(30)));
    ///
    /// frames.set_timestep(Timestep::HZ_60);
    /// assert_eq!(frames.tick(), 2); // the tick carries on
    /// assert_eq!(frames.simulated(), Nanos::from_millis(100)); // so does sim time
    /// assert_eq!(frames.remainder(), Nanos::from_millis(30)); // the bank is kept as time
    ///
    /// // 30 ms banked (1.8 steps of 60 Hz) and 20 ms more: exactly three.
    /// let plan = frames.begin_frame(Timestamp::from_nanos(150_000_000));
    /// assert_eq!(plan.steps_run(), 3);
    /// assert_eq!(frames.simulated(), Nanos::from_millis(150));
    /// ```
    pub fn set_timestep(&mut self, timestep: Timestep) {
        let old = self.timestep;
        if timestep == old {
            return;
        }
        self.epoch = self.epoch.rebased(self.tick, old, timestep);
        self.bank
            .rescale(old.units_per_nanosecond(), timestep.units_per_nanosecond());
        self.carry = 0;
        self.pacer.event(PacingEvent::Timestep);
        self.timestep = timestep;
    }

    /// Banked time, rounded down to the nanosecond: under one step, except
    /// between a change to a shorter step (see
    /// [`set_timestep`](FrameLoop::set_timestep)) or a refund of steps (see
    /// [`refund_steps`](FrameLoop::refund_steps)) and the next frame.
    pub const fn remainder(&self) -> Nanos {
        self.timestep.units_to_nanos(self.bank.units())
    }

    /// Banked time in accumulator units (exact; see
    /// [`remainder`](FrameLoop::remainder)). A `u128`, where
    /// [`FramePlan::remainder_units`](crate::FramePlan::remainder_units) is a
    /// `u64`: a plan leaves less than a step banked, but between plans a
    /// refund or a change to a far shorter step can bank more than a `u64`
    /// of the new units.
    pub const fn remainder_units(&self) -> u128 {
        self.bank.units()
    }

    /// The current blend factor (the one the last plan reported).
    pub const fn alpha(&self) -> Alpha {
        Alpha::new(saturate(self.bank.units()), self.timestep)
    }

    /// The fixed step.
    pub const fn timestep(&self) -> Timestep {
        self.timestep
    }

    /// The step budget.
    pub const fn budget(&self) -> StepBudget {
        self.budget
    }

    /// The time scale.
    pub const fn speed(&self) -> Speed {
        self.speed
    }

    /// The previous frame's timestamp (the anchor the next delta is measured
    /// from).
    pub const fn last_frame(&self) -> Timestamp {
        self.last
    }

    /// Tells the planner the period the display says it refreshes at (a
    /// monitor's reported rate; `None`: nothing said). The render cap spaces
    /// frames by it until the display model has measured a period of its
    /// own (see [`DisplayModel::set_period_hint`](crate::DisplayModel::set_period_hint)).
    /// Kept across [`reset`](FrameLoop::reset) and pacing changes. A period
    /// of zero says nothing, as `None` does: [`refresh_hint`](FrameLoop::refresh_hint)
    /// then reads `None`.
    pub fn set_refresh_hint(&mut self, period: Option<Nanos>) {
        self.pacer.set_refresh_hint(period);
    }

    /// The refresh period hint (see
    /// [`set_refresh_hint`](FrameLoop::set_refresh_hint)).
    pub const fn refresh_hint(&self) -> Option<Nanos> {
        self.pacer.refresh_hint()
    }
}

/// A bank in 64 bits, for the views that clamp it below a step anyway.
const fn saturate(bank: u128) -> u64 {
    if bank > u64::MAX as u128 {
        u64::MAX
    } else {
        bank as u64
    }
}

//! The planner: [`FrameLoop`] turns a sequence of frame timestamps into
//! [`FramePlan`]s. It is a passive integer state machine: it reads no clock,
//! allocates nothing, cannot fail, and is a pure function of its configuration
//! and the timestamps it is given.
//!
//! Every frame is planned the same way: scale the time since the previous
//! frame by the speed, let pacing snap it to whole display refreshes, bank
//! it, take whole steps from the bank under the budget (plus any queued
//! steps), drop the rest of the whole steps, and put the bank where pacing
//! wants it. What pacing knows lives in one `Pacer` (`pacing/pacer.rs`);
//! this file keeps the books and asks it, through a handful of calls: a
//! frame's number and snap, where the bank goes, whether the frame renders,
//! what the frame ran, reports of frames shown, and the events between
//! frames.

mod bank;
mod controls;
mod give_back;

use bank::Bank;

pub use give_back::GivenBack;

use crate::frame_id::{FeedbackError, FrameId};
use crate::pacing::{Books, FrameKind, Pacer, ShownDisplay, Snap};
use crate::sim_epoch::SimEpoch;
use crate::{FramePlan, Nanos, Speed, StepBudget, Timestamp, Timestep};

/// What pacing weighs a frame against, gathered only if it asks (see
/// `Pacer::begin`): a closure over the fields themselves, so that it
/// borrows them beside the pacer.
macro_rules! books {
    ($frames:ident) => {
        || Books {
            bank: $frames.bank.units(),
            timestep: $frames.timestep,
            speed: $frames.speed,
            budget: $frames.budget,
        }
    };
}

/// The fixed-step planner.
///
/// Each frame the caller reads its clock once and passes the reading to
/// [`begin_frame`](FrameLoop::begin_frame); the returned plan says which
/// steps to run and where between steps to render.
///
/// The rules:
///
/// - **The anchor is frame zero.** `start` (and the `now` given to
///   [`resync`](FrameLoop::resync) or [`reset`](FrameLoop::reset)) is the
///   previous frame's timestamp, so a frame at the anchor has a zero delta,
///   runs no step and renders. Anchor after bring-up, so that loading is not
///   billed as the first frame.
/// - **A backwards timestamp is a zero delta**, and becomes the new anchor.
/// - **Time beyond the budget is dropped, never banked**; the plan reports
///   it. The sub-step remainder is kept.
/// - **Every submitted nanosecond is accounted for.** In accumulator units,
///   the scaled time submitted plus the pacing's phase shift equals the time
///   executed by steps, plus the time dropped, plus the change in the bank,
///   exactly.
/// - **Simulated time follows the speed.** Over any run of frames, under
///   every pacing, and across changes of speed, pauses and queued steps,
///   the simulated time is the speed times the time accounted for, plus
///   the queued steps, less the dropped time, within one step. The time
///   accounted for is the wall time the frames span plus the plans'
///   [phase shifts](FramePlan::phase_shift_units): zero with pacing off.
///   Snapped and locked pacing let game time follow the display, so the
///   two part by at most `e` of the time (scaled by the speed), plus one
///   step each time the speed changes, snapping starts or stands down, or
///   the budget clamps, and three steps besides. Locked pacing's hysteresis
///   rule moves a frame's delta by at most half a step and owes the move to
///   the next frame, so what it holds back is under a step at any time, and
///   counts as one of those moves when a snap settles it. `e` is the display's rate
///   error against the step: how far its period is from the refresh
///   snapping counts (at most 2.5% for a whole multiple or divisor of the
///   step: a lattice is taken within 2% and kept while the period stays
///   within 0.5% of where it was taken; 0.75% for another fraction; 0.1%
///   for a 59.94 Hz display on 60 Hz steps), or, for snapped pacing on a period that fits no fraction of
///   the step and for locked pacing following the stamps' own pace off a
///   whole lattice, the display model's error in the period (under 0.01%
///   on steady displays); for frames planned from display feedback, the
///   same with the period the reports measured. `tests/time_scale.rs`
///   checks the law and its bound, with and without feedback.
/// - **Feedback moves where refreshes are counted, never the books.** A
///   report ([`frame_shown`](FrameLoop::frame_shown)) only teaches; a
///   frame planned from it is snapped like any other, so every rule above
///   holds whatever reports come, late, missing, out of order or absurd.
///
/// The planner owns the tick, the number of the next step to run; a driver
/// reads it with [`tick`](FrameLoop::tick).
///
/// # Examples
///
/// ```
/// use evenstep_core::{FrameLoop, Nanos, StepBudget, Timestamp, Timestep};
///
/// let start = Timestamp::from_nanos(5_000_000_000); // after bring-up
/// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start);
///
/// let mut now = start;
/// for _ in 0..60 {
///     now += Nanos::from_nanos(16_666_667);
///     let plan = frames.begin_frame(now);
///     for step in plan.steps() {
///         // world.update(step.dt_secs_f64());
///         let _ = step;
///     }
///     // renderer.draw(plan.alpha().as_f32());
/// }
/// assert_eq!(frames.tick(), 60);
/// assert_eq!(frames.simulated(), Nanos::from_secs(1));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FrameLoop {
    timestep: Timestep,
    budget: StepBudget,
    speed: Speed,
    /// The previous frame's timestamp.
    last: Timestamp,
    /// Banked time, and the phase shifts made to it.
    bank: Bank,
    /// Scaled time below one accumulator unit, in 1/`speed.den` units, so a
    /// fractional speed loses nothing between frames.
    carry: u64,
    /// The number of the next step to run.
    tick: u64,
    /// Where simulation time stood when the step last changed.
    epoch: SimEpoch,
    /// Steps queued for the next frame.
    queued: u64,
    /// Everything pacing holds: the mode, the display, feedback, the
    /// render cap.
    pacer: Pacer,
}

/// What a frame brings to the bank.
struct Deposit {
    /// The time since the previous frame, as measured.
    raw: Nanos,
    /// `raw` scaled by the speed, in accumulator units.
    scaled_units: u128,
    /// What snapping added (positive) or took away, scaled by the speed.
    snap_units: i128,
    /// The snapped frame's lattice: where the bank is centred afterwards.
    snap: Option<Snap>,
}

impl FrameLoop {
    /// Plans the frame at `now`: banks the time since the previous frame,
    /// scaled by the speed, and takes as many whole steps from the bank as the
    /// budget allows, plus any queued steps. Steps beyond the budget are
    /// dropped and reported; the sub-step remainder stays banked.
    ///
    /// Total over every input: it never panics and never fails.
    #[allow(clippy::inline_always, reason = "see `plan_common_frame`")]
    #[inline(always)]
    pub fn begin_frame(&mut self, now: Timestamp) -> FramePlan {
        let raw = self.advance_to(now);
        let (frame, snap) = self.pacer.begin(now, raw, FrameKind::Drawn, books!(self));
        let plan = match self.plan_common_frame(raw, snap) {
            Some(plan) => plan,
            None => self.plan_any_frame(raw, snap, true),
        };
        self.pacer
            .ran(FrameKind::Drawn, raw, plan.steps_due(), self.speed);
        FramePlan { frame, ..plan }
    }

    /// Plans a frame that will not be drawn: a wake-up while the window is
    /// hidden or minimized. The same as [`begin_frame`](FrameLoop::begin_frame)
    /// (the steps, the budget, centring), except that the plan's
    /// [`render`](FramePlan::render) is false, the render cap lets the
    /// frame's time pass without spending a render on it, snapped pacing
    /// neither learns the delta as a display refresh nor snaps it, and the
    /// frame cannot be reported shown.
    pub fn begin_hidden_frame(&mut self, now: Timestamp) -> FramePlan {
        let raw = self.advance_to(now);
        let (frame, snap) = self.pacer.begin(now, raw, FrameKind::Hidden, books!(self));
        let plan = match self.plan_common_frame(raw, snap) {
            Some(plan) => FramePlan {
                render: false,
                ..plan
            },
            None => self.plan_any_frame(raw, snap, false),
        };
        self.pacer
            .ran(FrameKind::Hidden, raw, plan.steps_due(), self.speed);
        FramePlan { frame, ..plan }
    }

    /// Tells the planner that `frame` reached the screen at `at`, on the
    /// planner's clock: display feedback. Reports may come late (a few
    /// frames, as platforms deliver them), may never come, and frames
    /// replaced by newer ones before a refresh are never reported; none of
    /// that breaks a plan. From the reports the planner learns where the
    /// display's refreshes fall and how long a frame takes from its
    /// timestamp to its refresh; once they agree, and feedback has been
    /// right on enough of the frames shown where the timestamps were
    /// wrong, since it last was wrong where they were right, snapped and
    /// locked pacing bank each frame the refreshes from the
    /// previous frame's predicted showing to its own (see [`Pacing`](crate::Pacing)).
    ///
    /// The planner remembers the latest [`FRAMES_IN_FLIGHT`](crate::FRAMES_IN_FLIGHT)
    /// frames. Reports name later frames at later times, in order.
    ///
    /// # Errors
    ///
    /// A report is refused, and changes nothing, if the frame
    ///
    /// - is not one of the frames remembered (too old, planned before a
    ///   [`reset`](FrameLoop::reset), or not planned yet);
    /// - was a hidden frame or a catch-up, which drew nothing;
    /// - is said to be shown before its timestamp, or more than 2³² ns
    ///   (about 4.3 s) after it;
    /// - or does not come after the previous report, while that one is
    ///   fresh: the same frame reported again, an earlier frame, or a time
    ///   not later than the previous showing.
    ///
    /// A frame drawn at any timestamp, [`Timestamp::MAX`] included, can be
    /// reported. See [`FeedbackError`] for each refusal's fields.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{FrameLoop, Nanos, StepBudget, Timestamp, Timestep};
    ///
    /// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    /// let plan = frames.begin_frame(Timestamp::from_nanos(16_000_000));
    /// // ... the platform says the frame was shown 20 ms later:
    /// frames.frame_shown(plan.frame(), Timestamp::from_nanos(36_000_000))?;
    /// // A frame cannot be shown before it was planned.
    /// let next = frames.begin_frame(Timestamp::from_nanos(33_000_000));
    /// assert!(frames.frame_shown(next.frame(), Timestamp::from_nanos(30_000_000)).is_err());
    /// # Ok::<(), evenstep_core::FeedbackError>(())
    /// ```
    pub fn frame_shown(&mut self, frame: FrameId, at: Timestamp) -> Result<(), FeedbackError> {
        self.pacer.frame_shown(frame, at, self.timestep)
    }

    /// The number the next plan will take (see [`FramePlan::frame`]).
    pub const fn next_frame(&self) -> FrameId {
        self.pacer.next_frame()
    }

    /// What display feedback has taught of the display: its period, where
    /// its refreshes fall, the pipeline's latency, and whether frames are
    /// planned from it. `None` until two reports have given a period.
    pub fn shown_display(&self) -> Option<ShownDisplay> {
        self.pacer.shown_display()
    }

    /// Moves the anchor to `now`, and returns the time since the previous
    /// frame (zero for a backwards timestamp).
    #[inline]
    fn advance_to(&mut self, now: Timestamp) -> Nanos {
        let raw = now.saturating_since(self.last);
        self.last = now;
        raw
    }

    /// Plans any frame: scale the delta and the `snap` by the speed, settle
    /// them in the bank, and ask the render cap whether to draw.
    fn plan_any_frame(&mut self, raw: Nanos, snap: Option<Snap>, shown: bool) -> FramePlan {
        let units = self.timestep.nanos_to_units(raw);
        let deposit = Deposit {
            raw,
            scaled_units: self.scale(units),
            snap_units: snap.map_or(0, |snap| self.snap_units(units, snap)),
            snap,
        };
        let limit = u128::from(self.budget.get()) * u128::from(self.speed.budget_factor());
        let mut plan = self.settle(&deposit, limit, true);
        plan.render = self.admit_render(&plan, shown);
        plan
    }

    /// The frame almost every game sees, planned in 64 bits: normal speed,
    /// no render cap, nothing queued or pending, and a delta (or its `snap`)
    /// that fits a `u64` with the bank. It plans exactly what
    /// [`settle`](FrameLoop::settle) would (`tests/one_path.rs` holds the two
    /// to that, and `tests/reference_model.rs` both to the model) at a
    /// fraction of the cost: a frame with pacing off costs about 14 ns with
    /// this function planned in place in `begin_frame`, and `begin_frame` in
    /// its caller, and about 34 ns without (`bench/README.md`, "How the
    /// planner gets there"). That is 1.85× the fastest peer's frame against
    /// 4.5×; the bound the benchmarks set, 1.5×, is not met either way.
    /// `None` for every other frame, having changed nothing.
    #[allow(clippy::inline_always, reason = "the fast path's measured gain")]
    #[inline(always)]
    fn plan_common_frame(&mut self, raw: Nanos, snap: Option<Snap>) -> Option<FramePlan> {
        let common = self.speed == Speed::NORMAL
            && self.pacer.renders_every_frame()
            && self.queued == 0
            && self.bank.pending() == 0;
        if !common {
            return None;
        }
        let per_step = self.timestep.units_per_step();
        let units = raw
            .as_nanos()
            .checked_mul(self.timestep.units_per_nanosecond())?;
        // A snapped frame banks whole refreshes in place of its delta.
        let deposit = match snap {
            Some(snap) => u64::try_from(snap.units).ok()?,
            None => units,
        };
        let before = self.bank.units_64()?;
        let banked = deposit.checked_add(before)?;
        let (due, left) = whole_steps_64(banked, per_step);
        let run = due
            .min(u64::from(self.budget.get()))
            .min(u64::MAX - self.tick);
        let clamped = due > run;
        let bank = self.centre(left, clamped, snap);
        let phase_shift =
            i128::from(deposit) - i128::from(units) + i128::from(bank) - i128::from(left);
        self.bank.settle(bank, phase_shift);
        let first_tick = self.tick;
        self.tick += run;
        Some(FramePlan {
            timestep: self.timestep,
            speed: self.speed,
            raw,
            scaled_units: u128::from(units),
            dropped_units: u128::from(due - run) * u128::from(per_step),
            dropped: due - run,
            due,
            run,
            queued: 0,
            first_tick,
            epoch: self.epoch,
            bank_before: u128::from(before),
            remainder: bank,
            clamped,
            phase_shift,
            snapped: Snap::snapped(snap),
            render: true,
            frame: FrameId::FIRST,
        })
    }

    /// Where pacing puts the bank once `left` is what the steps left of it
    /// (see [`Pacer::bank_after_frame`]).
    #[inline]
    fn centre(&self, left: u64, clamped: bool, snap: Option<Snap>) -> u64 {
        let per_step = self.timestep.units_per_step();
        self.pacer
            .bank_after_frame(left, clamped, snap, per_step, self.speed)
    }

    /// Runs `span` of simulation time now, as whole fixed steps with no
    /// budget, and banks the sub-step remainder: an explicit, offline
    /// catch-up (a headless tool simulating the hour the player was away).
    ///
    /// `span` is simulation time, so the speed does not scale it and a paused
    /// loop catches up too. The anchor is untouched, so the next frame's delta
    /// is still measured from the previous frame. Queued steps wait for the
    /// next frame. The loop never calls this on its own: absent time is
    /// credited only when the caller says so.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{FrameLoop, Nanos, StepBudget, Timestamp, Timestep};
    ///
    /// let mut frames = FrameLoop::new(Timestep::HZ_50, StepBudget::DEFAULT, Timestamp::ZERO);
    /// assert_eq!(frames.remainder(), Nanos::ZERO);
    /// let plan = frames.catch_up(Nanos::from_millis(3_605)); // 3.605 s at 20 ms a step
    /// assert_eq!(plan.steps_run(), 180);
    /// assert!(!plan.clamped());
    /// assert_eq!(frames.remainder(), Nanos::from_millis(5)); // banked, not run
    /// ```
    pub fn catch_up(&mut self, span: Nanos) -> FramePlan {
        let deposit = Deposit {
            raw: span,
            scaled_units: self.timestep.nanos_to_units(span),
            snap_units: 0,
            snap: None,
        };
        let (frame, _) = self
            .pacer
            .begin(self.last, span, FrameKind::CatchUp, books!(self));
        let plan = self.settle(&deposit, u128::MAX, false);
        self.pacer
            .ran(FrameKind::CatchUp, span, plan.steps_due(), self.speed);
        FramePlan {
            render: false,
            frame,
            ..plan
        }
    }

    /// Banks `deposit`, takes up to `limit` whole steps (and the queue, if
    /// `take_queue`), drops the rest of the whole steps, puts the bank where
    /// pacing wants it, and says so in a plan that renders.
    fn settle(&mut self, deposit: &Deposit, limit: u128, take_queue: bool) -> FramePlan {
        let per_step = self.timestep.units_per_step();
        // A snap never takes more than the bank and the frame hold (it
        // rounds to at least one refresh, and the hysteresis rule hands the
        // bank at least an eighth of the frame), so the sum never goes
        // below zero. Under
        // 2¹¹⁰: the bank is under an hour of the shortest step's units.
        let before = self.bank.units();
        let banked = (before + deposit.scaled_units).saturating_add_signed(deposit.snap_units);
        let (due, left) = whole_steps(banked, per_step);

        // The tick cannot pass u64::MAX: steps that cannot be numbered are
        // refused like steps over the budget.
        let room = u64::MAX - self.tick;
        let run = due.min(limit).min(u128::from(room)) as u64;
        let clamped = due > u128::from(run);
        let (queued, refused) = if take_queue {
            let asked = core::mem::take(&mut self.queued);
            let queued = asked.min(room - run);
            (queued, asked - queued)
        } else {
            (0, 0)
        };
        let first_tick = self.tick;
        self.tick += run + queued;

        let bank = self.centre(left, clamped, deposit.snap);
        // What was given back or moved between plans is this plan's phase
        // shift: the bank before the frame is what it held without it.
        let pending = self.bank.take_pending();
        let phase_shift = deposit.snap_units + i128::from(bank) - i128::from(left) + pending;
        self.bank.settle(bank, phase_shift);

        FramePlan {
            timestep: self.timestep,
            speed: self.speed,
            raw: deposit.raw,
            scaled_units: deposit.scaled_units,
            dropped_units: (due - u128::from(run)) * u128::from(per_step),
            due: u64::try_from(due).unwrap_or(u64::MAX),
            dropped: u64::try_from(due - u128::from(run))
                .unwrap_or(u64::MAX)
                .saturating_add(refused),
            run,
            queued,
            first_tick,
            epoch: self.epoch,
            bank_before: before.saturating_add_signed(-pending),
            remainder: bank,
            clamped,
            phase_shift,
            snapped: Snap::snapped(deposit.snap),
            render: true,
            frame: FrameId::FIRST,
        }
    }

    /// `units` scaled by the speed. The fraction of a unit that a
    /// fractional speed leaves over is carried to the next frame.
    fn scale(&mut self, units: u128) -> u128 {
        if self.speed == Speed::NORMAL {
            return units;
        }
        let (num, den) = (self.speed.numerator(), self.speed.denominator());
        // units < 2⁹⁶ and num < 2¹⁶: the product and the carry fit in u128.
        let exact = units * u128::from(num) + u128::from(self.carry);
        let den = u128::from(den);
        self.carry = (exact % den) as u64;
        exact / den
    }

    /// What a snap adds to the bank: the snapped delta less the measured
    /// one (`units`), scaled by the speed and truncated toward zero. The
    /// plan reports the exact integer applied, so the conservation law
    /// stays exact; what truncation leaves (under a unit) centring on the
    /// snap's lattice puts back.
    fn snap_units(&self, units: u128, snap: Snap) -> i128 {
        let unscaled = i128::from(snap.units) - signed(units);
        if self.speed == Speed::NORMAL {
            return unscaled;
        }
        let (num, den) = (self.speed.numerator(), self.speed.denominator());
        // Both terms are under 2⁹⁸ and num under 2¹⁶: the product fits.
        unscaled * i128::from(num) / i128::from(den)
    }

    /// Whether the render cap lets this frame render (see
    /// [`Pacer::admit_render`]).
    fn admit_render(&mut self, plan: &FramePlan, shown: bool) -> bool {
        self.pacer
            .admit_render(plan.raw_delta(), shown, plan.steps_queued())
    }
}

/// `banked` as whole steps and the sub-step rest.
fn whole_steps(banked: u128, per_step: u64) -> (u128, u64) {
    if let Ok(banked) = u64::try_from(banked) {
        let (due, left) = whole_steps_64(banked, per_step);
        return (u128::from(due), left);
    }
    let per_step = u128::from(per_step);
    (banked / per_step, (banked % per_step) as u64)
}

/// [`whole_steps`] of a bank that fits 64 bits.
fn whole_steps_64(banked: u64, per_step: u64) -> (u64, u64) {
    // A display at or above the step rate banks under two steps a frame:
    // those frames need no division.
    if banked < per_step {
        (0, banked)
    } else if banked - per_step < per_step {
        (1, banked - per_step)
    } else {
        (banked / per_step, banked % per_step)
    }
}

/// Accumulator units as a signed count: every count of them is under 2¹¹⁰.
fn signed(units: u128) -> i128 {
    i128::try_from(units).unwrap_or(i128::MAX)
}

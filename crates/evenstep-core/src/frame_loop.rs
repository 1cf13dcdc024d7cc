//! The planner: [`FrameLoop`] turns a sequence of frame timestamps into
//! [`FramePlan`]s. It is a passive integer state machine: it reads no clock,
//! allocates nothing, cannot fail, and is a pure function of its configuration
//! and the timestamps it is given.

use crate::pacing::Lattice;
use crate::{
    FramePlan, Nanos, Pacing, RefreshEstimator, RenderCap, Speed, StepBudget, Timestamp, Timestep,
};

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
///   the scaled time submitted equals the time executed by steps, plus the
///   time dropped, plus the change in the banked remainder, exactly.
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
// Laid out by hand: everything the common frame reads or writes sits in the
// first 72 bytes.
#[repr(C)]
pub struct FrameLoop {
    /// The previous frame's timestamp.
    last: Timestamp,
    /// Banked time in accumulator units; always under one step between frames.
    remainder: u64,
    /// Index of the next step to run.
    tick: u64,
    /// `limit` while the next frame may take the 64-bit path (normal speed,
    /// nothing queued), else 0. A limit is never 0, so one load decides.
    fast_limit: u64,
    /// Frame deltas under this many nanoseconds may take the 64-bit path:
    /// 0 when it is closed (`fast_limit` is 0), else the bound under which a
    /// delta in units plus any bank fits a `u64`, so the path needs no
    /// overflow test.
    fast_raw_bound: u64,
    timestep: Timestep,
    /// `1 / units_per_step` as `f64` bits, so a plan's alpha is a
    /// multiplication.
    recip_bits: u64,
    /// `budget · ceil(speed)`, kept up to date by the setters so a frame
    /// does no division to find it.
    limit: u64,
    /// Steps queued for the next frame.
    queued: u64,
    /// Scaled time below one accumulator unit, in 1/`speed.den` units; kept so
    /// that a fractional speed loses nothing between frames.
    carry: u64,
    budget: StepBudget,
    speed: Speed,
    pacing: Pacing,
    /// Phase shift made outside a frame (a pacing change), reported by the
    /// next plan.
    pending_shift: i128,
    /// Every plan's phase shift, summed (wrapping: 2¹²⁷ units is never
    /// reached, and a wrap cannot panic).
    shift_total: i128,
    /// `limit` while the snapped 64-bit path may run (snapped pacing, normal
    /// speed, nothing queued or pending, no render cap), else 0.
    snap_limit: u64,
    render_cap: Option<RenderCap>,
    /// Set by `begin_hidden_frame` for the frame it plans.
    hidden: bool,
    estimator: RefreshEstimator,
    /// The period band `[lo, hi]`, in nanoseconds, that `lattice` was found
    /// for, so a period that wanders inside the band is not re-examined every
    /// frame. `(1, 0)` (an empty band): nothing cached.
    lattice_band: (u64, u64),
    /// The lattice of the cached band (`None`: the band has none).
    lattice: Option<Lattice>,
    /// The period the snapped 64-bit path may snap to, or 0: the
    /// estimator's reference, when the display is steady, the deltas wander
    /// within the tolerance, the reference lies in the cached band and the
    /// band has a lattice, it is at least four tolerances, and the path's
    /// arithmetic has room. A function of the estimator's state (but for
    /// the period), the tolerance and the cache, refreshed whenever one of
    /// them changes (the reference moves only when a block of samples
    /// closes), so the path does not test them every frame.
    snap_gate: u64,
    /// The cached lattice while the gate is open (the gate opens only with
    /// one), so the path need not unwrap it; a lattice worth nothing while
    /// it is closed.
    gate_lattice: Lattice,
    /// Where the gate's lattice centres the bank when that is the same
    /// place every frame (a refresh of whole steps: mid-step), else
    /// `BY_PARTS`.
    gate_centre: u64,
    /// Where the general path leaves its plan for `begin_frame` to return.
    other: PlanSlot,
}

/// Scratch space, not state: the general path's last plan. It takes no part
/// in a planner's equality or hash, so two planners that will plan alike
/// compare equal whatever they planned last.
#[derive(Clone, Copy)]
struct PlanSlot(FramePlan);

impl PartialEq for PlanSlot {
    fn eq(&self, _: &PlanSlot) -> bool {
        true
    }
}

impl Eq for PlanSlot {}

impl core::hash::Hash for PlanSlot {
    fn hash<H: core::hash::Hasher>(&self, _: &mut H) {}
}

impl core::fmt::Debug for PlanSlot {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("PlanSlot")
    }
}

/// A frame delta fitted to whole refreshes by the snapped 64-bit path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct SnapFit {
    /// The delta snapped to whole refreshes, in accumulator units.
    snapped_units: u64,
    /// The delta as measured, in accumulator units.
    raw_units: u64,
    lattice: Lattice,
}

/// What the open snap gate made of a frame's delta.
enum InRhythm {
    /// One or two refreshes: the estimator took the sample.
    Fit(SnapFit),
    /// One or two refreshes, and the sample closed the estimator's block.
    Closed,
    /// No refresh the gate fits: nothing changed.
    Miss,
}

/// The step count with which the snapped 64-bit path declines a frame; it
/// never runs that many.
const NOT_SNAPPED: u64 = u64::MAX;

/// The gate's lattice while the gate is closed.
const CLOSED_GATE_LATTICE: Lattice = Lattice {
    per_refresh: 0,
    divisions: 1,
};

/// `gate_centre` when the bank's centre depends on the frame.
const BY_PARTS: u64 = u64::MAX;

/// The lattice cache's empty band: no period is in it.
const NO_BAND: (u64, u64) = (1, 0);

impl FrameLoop {
    /// A planner anchored at `start`, running at normal speed with centred
    /// pacing: the bank starts at half a step (see [`Pacing`]).
    pub const fn new(timestep: Timestep, budget: StepBudget, start: Timestamp) -> FrameLoop {
        FrameLoop {
            last: start,
            remainder: timestep.units_per_step() / 2,
            tick: 0,
            fast_limit: budget.get() as u64,
            fast_raw_bound: fast_raw_bound(timestep),
            timestep,
            recip_bits: timestep.step_recip().to_bits(),
            limit: budget.get() as u64,
            queued: 0,
            carry: 0,
            budget,
            speed: Speed::NORMAL,
            pacing: Pacing::CENTRED,
            pending_shift: 0,
            shift_total: 0,
            snap_limit: 0,
            render_cap: None,
            hidden: false,
            estimator: RefreshEstimator::new(),
            lattice_band: NO_BAND,
            lattice: None,
            snap_gate: 0,
            gate_lattice: CLOSED_GATE_LATTICE,
            // As `refresh_snap_gate` leaves a closed gate, so that a setter
            // that changes nothing leaves the planner equal to a new one.
            gate_centre: timestep.units_per_step() / 2,
            other: PlanSlot(FramePlan {
                timestep,
                speed: Speed::NORMAL,
                raw: Nanos::ZERO,
                scaled_units: 0,
                dropped_units: 0,
                due: 0,
                run: 0,
                queued: 0,
                first_tick: 0,
                remainder: 0,
                clamped: false,
                recip_bits: 0,
                phase_shift: 0,
                snapped: false,
                render: false,
            }),
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
        if !pacing.is_snapped() {
            // As `set_pacing`: nothing learned under snapping outlives it.
            self.estimator.reset();
            self.lattice_band = NO_BAND;
            self.lattice = None;
        }
        self.pacing = pacing;
        self.remainder = self.start_bank();
        self.refresh_fast_limit();
        self
    }

    /// The bank a fresh planner starts with under its pacing.
    fn start_bank(&self) -> u64 {
        if self.pacing.is_centred() {
            self.timestep.units_per_step() / 2
        } else {
            0
        }
    }

    /// Plans the frame at `now`: banks the time since the previous frame,
    /// scaled by the speed, and takes as many whole steps from the bank as the
    /// budget allows, plus any queued steps. Steps beyond the budget are
    /// dropped and reported; the sub-step remainder stays banked.
    ///
    /// Total over every input: it never panics and never fails.
    // Always inlined: the common frame is a few dozen instructions, and once
    // inlined, the plan's unused fields are never written at all. The rest
    // is one out-of-line call.
    #[allow(
        clippy::inline_always,
        reason = "measured: outlined, the plan is written to memory"
    )]
    #[inline(always)]
    pub fn begin_frame(&mut self, now: Timestamp) -> FramePlan {
        self.frame(now, false)
    }

    /// [`begin_frame`](FrameLoop::begin_frame), or
    /// [`begin_hidden_frame`](FrameLoop::begin_hidden_frame) when `hidden`
    /// (a constant wherever this is inlined).
    #[allow(
        clippy::inline_always,
        reason = "measured: outlined, the plan is written to memory"
    )]
    #[inline(always)]
    fn frame(&mut self, now: Timestamp, hidden: bool) -> FramePlan {
        let raw = now.saturating_since(self.last);
        self.last = now;
        // The frame almost every game sees: normal speed, nothing queued,
        // and a bank that fits in a `u64`.
        if raw.as_nanos() < self.fast_raw_bound {
            // Under the bound: neither the product nor the sum can overflow
            // (the bank is always under one step).
            debug_assert!(self.remainder < self.timestep.units_per_step());
            let units = raw.as_nanos() * self.timestep.units_per_nanosecond();
            let banked = units + self.remainder;
            return self.plan_common_frame(raw, units, banked);
        }
        // Everything else is one out-of-line call that returns two words in
        // registers: a snapped frame's steps and phase shift, from which the
        // plan is built here out of the planner's own fields, or
        // `NOT_SNAPPED`, with the general path's plan left in `self.other`.
        // Either way the caller reads only the fields it uses, and no plan
        // is merged through memory with the common frame's.
        let (run, phase_shift) = if hidden {
            // Not a refresh: nothing to learn or snap (the general path
            // knows it by `self.hidden`).
            self.plan_general(raw, false)
        } else {
            self.plan_other_frame(raw)
        };
        if run == NOT_SNAPPED {
            return self.other.0;
        }
        self.snapped_plan(raw, run, phase_shift)
    }

    /// Every shown frame the common path does not take: snapped pacing's
    /// own 64-bit path, or the general one.
    #[inline(never)]
    fn plan_other_frame(&mut self, raw: Nanos) -> (u64, i64) {
        // An open gate implies snapped pacing: one test for the usual frame,
        // and every call below is the last thing done, so the usual frame
        // saves no register.
        if self.snap_gate != 0 {
            match self.fit_in_rhythm(raw) {
                InRhythm::Fit(fit) => {
                    if let Some(snapped) = self.take_snapped(fit) {
                        return snapped;
                    }
                    // The estimator has the delta already.
                    return self.plan_general(raw, true);
                }
                InRhythm::Closed => return self.plan_after_block(raw),
                InRhythm::Miss => {}
            }
        }
        if self.snap_limit != 0 {
            return self.plan_snapped_learning(raw);
        }
        self.plan_general(raw, false)
    }

    /// A frame whose sample closed the estimator's block: the reference
    /// moved, so the gate is found again before the fit.
    #[cold]
    #[inline(never)]
    fn plan_after_block(&mut self, raw: Nanos) -> (u64, i64) {
        self.refresh_snap_gate();
        self.plan_observed(raw)
    }

    /// Any other snapped frame: the display is still being learned, or the
    /// delta fits no refresh through the gate. The estimator learns it the
    /// long way, and it is snapped by the 64-bit path if it now fits, or
    /// planned by the general one.
    #[cold]
    #[inline(never)]
    fn plan_snapped_learning(&mut self, raw: Nanos) -> (u64, i64) {
        self.observe(raw);
        self.plan_observed(raw)
    }

    /// A snapped frame whose delta the estimator has taken, with the gate up
    /// to date: the 64-bit path if the delta fits through the gate, else the
    /// general one.
    #[allow(
        clippy::inline_always,
        reason = "the body of the two cold paths above; see `plan_other_frame`"
    )]
    #[inline(always)]
    fn plan_observed(&mut self, raw: Nanos) -> (u64, i64) {
        if let Some(fit) = self.snap_fit(raw)
            && let Some(snapped) = self.take_snapped(fit)
        {
            return snapped;
        }
        self.plan_general(raw, true)
    }

    /// The general path, its plan left in `self.other`; returns
    /// `(NOT_SNAPPED, 0)`.
    #[inline(never)]
    fn plan_general(&mut self, raw: Nanos, observed: bool) -> (u64, i64) {
        self.other.0 = self.plan_any_frame(raw, observed);
        (NOT_SNAPPED, 0)
    }

    /// Plans a snapped frame (snapped pacing at normal speed with nothing
    /// queued and no render cap) whose delta `fit` fitted to one or two
    /// refreshes of a display whose period fits the step, in 64-bit
    /// arithmetic, if the budget takes every step due. Returns the steps
    /// run and the phase shift, or `None` having changed nothing, for the
    /// general path to plan. Gives the general path's plan
    /// (`tests/pacing.rs` checks both).
    #[allow(
        clippy::inline_always,
        reason = "measured: outlined, its answer goes through memory"
    )]
    #[inline(always)]
    fn take_snapped(&mut self, fit: SnapFit) -> Option<(u64, i64)> {
        let per_step = self.timestep.units_per_step();
        // The gate keeps a step under 2⁶¹ units and a refresh under 2⁶⁰, so
        // a bank under one step plus two refreshes fits.
        let banked = self.remainder + fit.snapped_units;
        let (due, left) = whole_steps(banked, per_step);
        // A budget overrun re-centres the bank the general way; so does a
        // tick near its end. Neither is a steady display's frame.
        if due > self.snap_limit {
            return None;
        }
        self.tick = self.tick.checked_add(due)?;
        // Every fit here came through the open gate, so its lattice is the
        // gate's; for a refresh of whole steps the centre is fixed.
        debug_assert_eq!(fit.lattice, self.gate_lattice);
        let centred = if self.gate_centre == BY_PARTS {
            fit.lattice.centre_of_part(left)
        } else {
            self.gate_centre
        };
        debug_assert_eq!(centred, fit.lattice.centre(left, per_step));
        // |snapped − raw| is within the tolerance plus 1.5% of two periods
        // (the lattice is found within 1% and cached for 0.5% more; the gate
        // keeps two periods under 2³²): under 2²⁷ ns, times the units in a
        // nanosecond (under 2³²). The gate keeps a step under 2⁶¹ units, so
        // the wrapping i64 arithmetic is exact.
        #[allow(clippy::cast_possible_wrap, reason = "every term is under 2^61")]
        let phase_shift = (fit.snapped_units as i64)
            .wrapping_sub(fit.raw_units as i64)
            .wrapping_add((centred as i64).wrapping_sub(left as i64));
        self.shift_total = self.shift_total.wrapping_add(i128::from(phase_shift));
        self.remainder = centred;
        Some((due, phase_shift))
    }

    /// The plan of a frame [`take_snapped`](Self::take_snapped) planned: `run` steps, all of those due, up to the planner's tick.
    #[allow(
        clippy::inline_always,
        reason = "it is the body of `begin_frame`, which is always inlined"
    )]
    #[inline(always)]
    fn snapped_plan(&self, raw: Nanos, run: u64, phase_shift: i64) -> FramePlan {
        FramePlan {
            timestep: self.timestep,
            speed: Speed::NORMAL,
            raw,
            // Under 2³² ns (the gate's bound) times under 2³² units each.
            scaled_units: u128::from(raw.as_nanos() * self.timestep.units_per_nanosecond()),
            dropped_units: 0,
            due: run,
            run,
            queued: 0,
            first_tick: self.tick - run,
            remainder: self.remainder,
            clamped: false,
            recip_bits: self.recip_bits,
            phase_shift: i128::from(phase_shift),
            snapped: true,
            render: true,
        }
    }

    /// Fits `raw` through the open gate: if it is within the tolerance of
    /// one or two periods, the estimator takes its sample and the fit is
    /// `snap_fit`'s, unless the sample closed the estimator's block (the
    /// reference moved, and the gate with it). Otherwise nothing changes.
    ///
    /// While the gate is open the display is steady, and by the gate's
    /// bound on the tolerance (a quarter period at most) a delta within it
    /// of one or two periods is also one the estimator takes as one or two
    /// periods, so the fit's one distance serves both, and the estimator
    /// takes the sample by its own steady step (debug builds check that
    /// against `observe`).
    #[allow(
        clippy::inline_always,
        reason = "measured: outlined, its answer goes through memory"
    )]
    #[inline(always)]
    fn fit_in_rhythm(&mut self, raw: Nanos) -> InRhythm {
        let period = self.snap_gate;
        let d = raw.as_nanos();
        let tolerance = self.pacing.tolerance_nanos();
        let per_refresh = self.gate_lattice.per_refresh;
        let (snapped_units, sample, deviation) = if d.abs_diff(period) <= tolerance {
            (per_refresh, d, d.abs_diff(period))
        } else if d.abs_diff(2 * period) <= tolerance {
            (2 * per_refresh, d / 2, (d / 2).abs_diff(period))
        } else {
            return InRhythm::Miss;
        };
        #[cfg(debug_assertions)]
        let expected = {
            let mut estimator = self.estimator.clone();
            estimator.observe_inline(raw);
            estimator
        };
        let closed = self.estimator.accept_in_rhythm(sample, deviation);
        #[cfg(debug_assertions)]
        debug_assert_eq!(self.estimator, expected);
        if closed {
            return InRhythm::Closed;
        }
        let fit = SnapFit {
            snapped_units,
            // Under 2³² ns (the gate's bound) times under 2³² units each.
            raw_units: d * self.timestep.units_per_nanosecond(),
            lattice: self.gate_lattice,
        };
        debug_assert_eq!(Some(fit), self.snap_fit(raw));
        InRhythm::Fit(fit)
    }

    /// The snapped size of `raw`, in units, when `raw` is within the
    /// tolerance of one or two refreshes of a steady display whose period is
    /// cached with a lattice (the gate is open); `None` sends the frame to
    /// the general path, which then does everything itself (the cache
    /// included), so both paths see the same periods.
    ///
    /// With a tolerance under half the period (the gate asks for a quarter),
    /// `raw` is within it of `k` periods exactly when `k = round(raw /
    /// period)` and the general path's test passes: the same `k`, found
    /// without dividing.
    #[inline]
    fn snap_fit(&self, raw: Nanos) -> Option<SnapFit> {
        debug_assert_eq!(self.snap_gate, self.find_snap_gate());
        let period = self.snap_gate;
        if period == 0 {
            return None;
        }
        let tolerance = self.pacing.tolerance_nanos();
        let lattice = self.lattice?;
        let d = raw.as_nanos();
        // period < 2³² (a mean of 32-bit samples): 2 · period fits.
        let snapped_units = if d.abs_diff(period) <= tolerance {
            lattice.per_refresh
        } else if d.abs_diff(2 * period) <= tolerance {
            lattice.per_refresh.checked_mul(2)?
        } else {
            return None;
        };
        let raw_units = d.checked_mul(self.timestep.units_per_nanosecond())?;
        Some(SnapFit {
            snapped_units,
            raw_units,
            lattice,
        })
    }

    /// Every other frame: a speed, queued steps, or a bank past `u64`. Kept
    /// out of line so that `begin_frame` stays small enough to inline.
    #[inline(never)]
    fn plan_any_frame(&mut self, raw: Nanos, observed: bool) -> FramePlan {
        let scaled_units = self.scale(raw);
        let snap = self.snap(raw, observed);
        let (adjust, lattice) = snap.unwrap_or((0, None));
        let mut plan = self.plan(
            raw,
            scaled_units,
            adjust,
            lattice,
            u128::from(self.limit),
            true,
        );
        plan.snapped = snap.is_some();
        plan.render = self.admit_render(&plan);
        plan
    }

    /// With snapping on: learns the refresh period from `raw`, and if `raw`
    /// is within the tolerance of `k` whole periods, returns the scaled
    /// adjustment that makes it exactly `k` periods (exactly `k` lattice
    /// refreshes when the period fits the step), and the lattice.
    fn snap(&mut self, raw: Nanos, observed: bool) -> Option<(i128, Option<Lattice>)> {
        if !self.pacing.is_snapped() || self.hidden {
            return None;
        }
        if !observed {
            self.observe(raw);
        }
        if self.speed.is_paused() {
            // Paused, the bank and so the alpha stay where they were.
            return None;
        }
        let reference = self.steady_period()?;
        let d = raw.as_nanos();
        if d == 0 {
            return None;
        }
        // A lattice (the reference is, within 1%, a whole multiple or
        // divisor of the step) fixes what a refresh is worth in steps, so
        // the reference only has to say how many refreshes the delta spans.
        // Without one, a snapped frame is k periods as the window measures
        // them, the finest estimate there is (the reference holds still for
        // a block, and k of it would drift from the wall until the block
        // closes), and the delta is tested against that same period, so no
        // frame moves by more than the tolerance.
        let lattice = self.lattice_for(reference);
        let p = match lattice {
            Some(_) => reference,
            None => self.estimator.period().unwrap_or(reference),
        }
        .as_nanos();
        let k = (d + p / 2) / p;
        if k == 0 || d.abs_diff(k.saturating_mul(p)) > self.pacing.tolerance_nanos() {
            return None;
        }
        let per_nano = self.timestep.units_per_nanosecond();
        let snapped_units = match lattice {
            Some(lattice) => u128::from(k) * u128::from(lattice.per_refresh),
            None => u128::from(k) * u128::from(p) * u128::from(per_nano),
        };
        let raw_units = u128::from(d) * u128::from(per_nano);
        // Both are under 2⁹⁸ (nanoseconds times units a nanosecond, times at
        // most a few periods): the difference fits an i128.
        #[allow(clippy::cast_possible_wrap, reason = "both are under 2^98")]
        let unscaled = snapped_units as i128 - raw_units as i128;
        // Scaled by the speed, truncated toward zero; the plan reports the
        // exact integer applied, so the conservation law stays exact.
        let (num, den) = (self.speed.numerator(), self.speed.denominator());
        let scaled = unscaled * i128::from(num) / i128::from(den);
        Some((scaled, lattice))
    }

    /// Feeds `raw` to the refresh estimator, and refreshes the snap gate if
    /// the estimate moved.
    #[inline]
    fn observe(&mut self, raw: Nanos) {
        if self.estimator.observe_inline(raw) {
            self.refresh_snap_gate();
        }
    }

    /// Sets the snap gate, and its lattice, for the current estimate,
    /// tolerance and cache.
    fn refresh_snap_gate(&mut self) {
        self.snap_gate = self.find_snap_gate();
        self.gate_lattice = match self.lattice {
            Some(lattice) if self.snap_gate != 0 => lattice,
            _ => CLOSED_GATE_LATTICE,
        };
        self.gate_centre = if self.gate_lattice.divisions == 1 {
            self.timestep.units_per_step() / 2
        } else {
            BY_PARTS
        };
    }

    /// The snap gate for the current estimate, tolerance and cache (see
    /// `snap_gate`).
    fn find_snap_gate(&self) -> u64 {
        if self.snap_limit == 0 {
            return 0; // the snapped 64-bit path is closed
        }
        let tolerance = self.pacing.tolerance_nanos();
        match self.estimator.calm_reference(tolerance) {
            Some(period)
                if self.estimator.is_steady()
                    && self.lattice_band.0 <= period
                    && period <= self.lattice_band.1
                    && self
                        .lattice
                        .is_some_and(|lattice| lattice.per_refresh < 1 << 60)
                    && 4 * tolerance <= period
                    && u32::try_from(2 * period + tolerance).is_ok()
                    && self.timestep.units_per_step() < 1 << 61 =>
            {
                period
            }
            _ => 0,
        }
    }

    /// The refresh period, if the display is steady enough to snap to: the
    /// accepted deltas must wander less than the snap tolerance on average,
    /// and most deltas must fit the estimate at all.
    /// A variable-refresh display has a mean period but no rhythm; snapping
    /// to its mean would move frames by milliseconds, so snapping stands
    /// down and the bank is only kept centred.
    #[inline]
    fn steady_period(&self) -> Option<Nanos> {
        if !self.estimator.is_steady() {
            return None;
        }
        self.estimator
            .calm_reference(self.pacing.tolerance_nanos())
            .map(Nanos::from_nanos)
    }

    /// The lattice for `period`, cached for the period band it holds in.
    #[inline]
    fn lattice_for(&mut self, period: Nanos) -> Option<Lattice> {
        let p = period.as_nanos();
        let (lo, hi) = self.lattice_band;
        if lo <= p && p <= hi {
            return self.lattice;
        }
        let per_step = self.timestep.units_per_step();
        let per_nano = self.timestep.units_per_nanosecond();
        let lattice = Lattice::find(period, per_step, per_nano);
        // A found lattice holds while the period stays within 0.5% of where
        // it was found (well inside the 1% that admits it); "no lattice" is
        // re-examined whenever the period moves.
        let slack = if lattice.is_some() { p / 200 } else { 0 };
        self.lattice_band = (p - slack, p + slack);
        self.lattice = lattice;
        self.refresh_snap_gate();
        lattice
    }

    /// Plans a frame that will not be drawn: a wake-up while the window is
    /// hidden or minimized. The same as [`begin_frame`](FrameLoop::begin_frame)
    /// (the steps, the budget, centring), except that the plan's
    /// [`render`](FramePlan::render) is false, the render cap lets the
    /// frame's time pass without spending a render on it, and snapped pacing
    /// neither learns the delta as a display refresh nor snaps it.
    pub fn begin_hidden_frame(&mut self, now: Timestamp) -> FramePlan {
        self.hidden = true;
        let mut plan = self.frame(now, true);
        self.hidden = false;
        plan.render = false;
        plan
    }

    /// Whether the render cap lets this frame render. Frames with queued
    /// steps always render (frame-by-frame stepping shows every step).
    fn admit_render(&mut self, plan: &FramePlan) -> bool {
        if self.hidden {
            if let Some(cap) = self.render_cap.as_mut() {
                cap.pass(plan.raw_delta());
            }
            return false;
        }
        let spacing = self.estimator.period().unwrap_or(plan.raw_delta());
        match self.render_cap.as_mut() {
            None => true,
            Some(cap) => cap.admit(plan.raw_delta(), spacing) || plan.steps_queued() > 0,
        }
    }

    /// The common frame in 64-bit arithmetic. Gives the same plan as the
    /// general path (`tests/reference_model.rs` checks both).
    #[inline]
    fn plan_common_frame(&mut self, raw: Nanos, units: u64, banked: u64) -> FramePlan {
        let per_step = self.timestep.units_per_step();
        let (due, remainder) = whole_steps(banked, per_step);
        let (run, clamped) = self.take_steps(due, self.fast_limit);
        let first_tick = self.tick;
        self.tick += run;
        let mut phase_shift = 0;
        let remainder = if clamped && self.pacing.is_centred() {
            // After an overrun the bank goes back to the middle of a step.
            let half = per_step / 2;
            phase_shift = i128::from(half) - i128::from(remainder);
            self.shift_total = self.shift_total.wrapping_add(phase_shift);
            half
        } else {
            remainder
        };
        self.remainder = remainder;
        FramePlan {
            timestep: self.timestep,
            speed: self.speed,
            raw,
            scaled_units: u128::from(units),
            dropped_units: u128::from(due - run) * u128::from(per_step),
            due,
            run,
            queued: 0,
            first_tick,
            remainder,
            clamped,
            recip_bits: self.recip_bits,
            phase_shift,
            snapped: false,
            render: true,
        }
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
    /// assert_eq!(frames.remainder(), Nanos::from_millis(10)); // centred: half a step
    /// let plan = frames.catch_up(Nanos::from_millis(3_605)); // 3.605 s at 20 ms a step
    /// assert_eq!(plan.steps_run(), 180);
    /// assert!(!plan.clamped());
    /// assert_eq!(frames.remainder(), Nanos::from_millis(15)); // banked, not run
    /// ```
    pub fn catch_up(&mut self, span: Nanos) -> FramePlan {
        let units = self.timestep.nanos_to_units(span);
        let mut plan = self.plan(span, units, 0, None, u128::MAX, false);
        plan.render = false;
        plan
    }

    /// Banks `scaled_units` plus the snapping `adjust`, takes up to `limit`
    /// whole steps (and the queue, if `take_queue`), drops the rest of the
    /// whole steps, and centres the bank as the pacing asks.
    #[inline]
    fn plan(
        &mut self,
        raw: Nanos,
        scaled_units: u128,
        adjust: i128,
        lattice: Option<Lattice>,
        limit: u128,
        take_queue: bool,
    ) -> FramePlan {
        let per_step = self.timestep.units_per_step();
        // remainder < per_step < 2⁶⁴ and scaled_units < 2¹¹²: no overflow.
        // A snap never takes more than the frame brought (it rounds to at
        // least one period), so the sum stays non-negative.
        let banked = u128::from(self.remainder) + scaled_units;
        let banked = if adjust >= 0 {
            banked + adjust.unsigned_abs()
        } else {
            banked.saturating_sub(adjust.unsigned_abs())
        };
        let per_step_wide = u128::from(per_step);

        // Zero, one or two steps are the common cases: no division at all.
        // Past that, a 64-bit division where it fits, 128-bit otherwise.
        let (due, remainder) = if banked < per_step_wide {
            (0_u128, banked as u64)
        } else if banked < 2 * per_step_wide {
            (1, (banked - per_step_wide) as u64)
        } else if banked < 3 * per_step_wide {
            (2, (banked - 2 * per_step_wide) as u64)
        } else if let Ok(banked) = u64::try_from(banked) {
            (u128::from(banked / per_step), banked % per_step)
        } else {
            (banked / per_step_wide, (banked % per_step_wide) as u64)
        };

        // The tick cannot pass u64::MAX: steps that cannot be numbered are
        // dropped like any other refused step.
        let room = u128::from(u64::MAX - self.tick);
        let limit = if limit < room { limit } else { room };
        let (run, clamped) = if due > limit {
            (limit as u64, true)
        } else {
            (due as u64, false)
        };
        let dropped_units = (due - u128::from(run)) * per_step_wide;

        let queued = if take_queue {
            let room = u64::MAX - self.tick - run;
            let queued = if self.queued < room {
                self.queued
            } else {
                room
            };
            self.queued = 0;
            self.refresh_fast_limit();
            queued
        } else {
            0
        };

        let first_tick = self.tick;
        self.tick += run + queued;

        // Centre the bank: on the refresh lattice when snapped to one, and
        // back to mid-step after an overrun.
        let centred = match lattice {
            Some(lattice) if !clamped => lattice.centre(remainder, per_step),
            _ if clamped && self.pacing.is_centred() => per_step / 2,
            _ => remainder,
        };
        let pending = core::mem::take(&mut self.pending_shift);
        if pending != 0 {
            self.refresh_fast_limit();
        }
        let phase_shift = adjust + i128::from(centred) - i128::from(remainder) + pending;
        self.shift_total = self.shift_total.wrapping_add(phase_shift);
        let remainder = centred;
        self.remainder = remainder;

        FramePlan {
            timestep: self.timestep,
            speed: self.speed,
            raw,
            scaled_units,
            dropped_units,
            due: if due > u128::from(u64::MAX) {
                u64::MAX
            } else {
                due as u64
            },
            run,
            queued,
            first_tick,
            remainder,
            clamped,
            recip_bits: self.recip_bits,
            phase_shift,
            snapped: false,
            render: true,
        }
    }

    /// `raw` scaled by the speed, in accumulator units. The fraction of a unit
    /// that a fractional speed leaves over is carried to the next frame.
    #[inline]
    fn scale(&mut self, raw: Nanos) -> u128 {
        let units = self.timestep.nanos_to_units(raw);
        let (num, den) = (self.speed.numerator(), self.speed.denominator());
        if num == den {
            return units;
        }
        // units < 2⁹⁶ and num < 2¹⁶: the product and the carry fit in u128.
        let scaled = units * u128::from(num) + u128::from(self.carry);
        let den = u128::from(den);
        self.carry = (scaled % den) as u64;
        scaled / den
    }

    /// Forgets the time since the previous frame: the next frame's delta is
    /// measured from `now`. The bank, the tick and queued steps are kept.
    ///
    /// Call it after a gap that was not real play time (a pause, a
    /// breakpoint, a level load) so the gap is not replayed as a burst of
    /// steps or reported as dropped.
    pub fn resync(&mut self, now: Timestamp) {
        self.last = now;
    }

    /// Starts over at `now`: empties the bank, the speed carry and the queue,
    /// and sets the tick back to 0. Configuration (timestep, budget, speed)
    /// is kept.
    pub fn reset(&mut self, now: Timestamp) {
        self.last = now;
        self.remainder = self.start_bank();
        self.carry = 0;
        self.tick = 0;
        self.queued = 0;
        self.pending_shift = 0;
        self.shift_total = 0;
        self.estimator.reset();
        self.lattice_band = NO_BAND;
        self.lattice = None;
        if let Some(cap) = self.render_cap.as_mut() {
            *cap = RenderCap::new(cap.max_fps());
        }
        self.refresh_fast_limit();
    }

    /// Sets the pacing from the next frame on. Turning centring on moves the
    /// bank to mid-step; the move is reported as the next plan's phase shift.
    pub fn set_pacing(&mut self, pacing: Pacing) {
        if pacing.is_centred() && !self.pacing.is_centred() {
            let half = self.timestep.units_per_step() / 2;
            self.pending_shift += i128::from(half) - i128::from(self.remainder);
            self.remainder = half;
        }
        if !pacing.is_snapped() {
            self.estimator.reset();
            self.lattice_band = NO_BAND;
            self.lattice = None;
        }
        self.pacing = pacing;
        self.refresh_fast_limit();
    }

    /// The pacing.
    pub const fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// Every plan's phase shift so far, summed (see
    /// [`FramePlan::phase_shift_units`]).
    pub const fn phase_shift_units(&self) -> i128 {
        self.shift_total
    }

    /// Phase shift made since the last plan by a pacing change, which the
    /// next plan will report.
    pub const fn pending_phase_shift_units(&self) -> i128 {
        self.pending_shift
    }

    /// Caps renders at `max_fps` a second of real time (`None`: every frame
    /// renders). The plan's [`render`](FramePlan::render) says whether to
    /// draw; steps run either way. Setting a cap restarts its pacing.
    pub fn set_render_cap(&mut self, max_fps: Option<core::num::NonZeroU32>) {
        let unchanged = self.render_cap.map(|cap| cap.max_fps()) == max_fps;
        if !unchanged {
            self.render_cap = max_fps.map(RenderCap::new);
            self.refresh_fast_limit();
        }
    }

    /// The render cap, in renders a second.
    pub fn render_cap(&self) -> Option<core::num::NonZeroU32> {
        self.render_cap.map(|cap| cap.max_fps())
    }

    /// The refresh period the snapping estimator has learned, once it has
    /// enough evidence (always `None` unless snapping is on).
    pub fn refresh_period(&self) -> Option<Nanos> {
        self.estimator.period()
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
            self.limit = u64::from(self.budget.get()) * u64::from(speed.budget_factor());
            self.refresh_fast_limit();
        }
    }

    /// Sets the step budget from the next frame on.
    pub fn set_budget(&mut self, budget: StepBudget) {
        self.budget = budget;
        self.limit = u64::from(budget.get()) * u64::from(self.speed.budget_factor());
        self.refresh_fast_limit();
    }

    /// How many of `due` steps run under `limit` (and under the room left in
    /// the tick), and whether the budget clamped.
    #[inline]
    fn take_steps(&self, due: u64, limit: u64) -> (u64, bool) {
        // The usual frame: all of them, with room to spare.
        if due <= limit && self.tick.checked_add(due).is_some() {
            return (due, false);
        }
        (limit.min(u64::MAX - self.tick), true)
    }

    /// Opens the 64-bit path exactly when it gives the general path's plan.
    fn refresh_fast_limit(&mut self) {
        let simple = self.speed == Speed::NORMAL
            && self.queued == 0
            && self.pending_shift == 0
            && self.render_cap.is_none();
        let snapped = self.pacing.is_snapped();
        self.fast_limit = if simple && !snapped { self.limit } else { 0 };
        self.fast_raw_bound = if self.fast_limit == 0 {
            0
        } else {
            fast_raw_bound(self.timestep)
        };
        self.snap_limit = if simple && snapped { self.limit } else { 0 };
        // Called by every setter, after any change of pacing or estimate.
        self.refresh_snap_gate();
    }

    /// Adds `count` steps to the next frame, on top of what its elapsed time
    /// pays for. Queued steps run even while paused, do not count against the
    /// budget and leave the bank alone: frame-by-frame stepping for a
    /// debugger. Saturates; `reset` drops them.
    pub fn queue_steps(&mut self, count: u32) {
        self.queued = self.queued.saturating_add(u64::from(count));
        self.refresh_fast_limit();
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

    /// Simulation time: `tick · dt`, exact, rounded down to the nanosecond.
    pub const fn simulated(&self) -> Nanos {
        self.timestep.sim_time(self.tick)
    }

    /// Banked time under one step, rounded down to the nanosecond.
    pub const fn remainder(&self) -> Nanos {
        self.timestep.units_to_nanos(self.remainder as u128)
    }

    /// Banked time in accumulator units (exact).
    pub const fn remainder_units(&self) -> u64 {
        self.remainder
    }

    /// The current blend factor (the one the last plan reported).
    pub const fn alpha(&self) -> crate::Alpha {
        crate::Alpha::with_recip(
            self.remainder,
            self.timestep,
            f64::from_bits(self.recip_bits),
        )
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
}

/// The bound under which a frame delta, in units, plus a bank under one step
/// fits a `u64`: `delta · Q + (P − 1) ≤ u64::MAX`.
const fn fast_raw_bound(timestep: Timestep) -> u64 {
    let room = u64::MAX - (timestep.units_per_step() - 1);
    (room / timestep.units_per_nanosecond()).saturating_add(1)
}

/// `banked` as whole steps and what is left: zero- and one-step frames
/// (almost all of them) without a division.
#[inline]
fn whole_steps(banked: u64, per_step: u64) -> (u64, u64) {
    // Zero or one step, the frames of any display at or above the step
    // rate, by selection rather than a branch each: one well-predicted
    // branch, and no jump taken, on the usual frame.
    let one = banked >= per_step;
    let left = if one { banked - per_step } else { banked };
    if left < per_step {
        return (u64::from(one), left);
    }
    (banked / per_step, banked % per_step)
}

#[cfg(test)]
mod tests {
    use super::{FrameLoop, Pacing, StepBudget, Timestamp, Timestep};

    /// Frames of a display at `num / den` Hz with 1 ms of jitter, planned
    /// with a 1 ms snap tolerance (a quarter of a 240 Hz refresh: the gate
    /// asks for four tolerances to the period); how many began with the snapped 64-bit path's gate open
    /// (the path then takes every frame that fits).
    fn gate_open_frames(num: u64, den: u64) -> usize {
        let pacing = Pacing::snapped(core::time::Duration::from_millis(1)).unwrap();
        let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
            .with_pacing(pacing);
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut open = 0;
        for k in 1..=2_000_u64 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let jitter = state % 1_000_000;
            let now = 1_000_000_000 + k * 1_000_000_000 * den / num + jitter;
            open += usize::from(frames.snap_gate != 0 && frames.estimator.is_steady());
            let _ = frames.begin_frame(Timestamp::from_nanos(now));
        }
        open
    }

    #[test]
    fn the_snapped_fast_path_opens_on_steady_displays_with_a_lattice_and_only_there() {
        for (num, den) in [(60, 1), (120, 1), (240, 1), (60_000, 1_001), (30, 1)] {
            let open = gate_open_frames(num, den);
            assert!(
                open > 1_800,
                "{num}/{den} Hz: the gate opened for {open} of 2,000 frames"
            );
        }
        // 144 Hz is no whole multiple or divisor of the step: no lattice.
        assert_eq!(gate_open_frames(144, 1), 0);
    }
}

//! Frame pacing: keeping a steady display's frames on a steady step count.
//!
//! On a 60 Hz display with 60 steps a second every frame should run exactly
//! one step, but timestamps jitter, and a bank that sits near a step boundary
//! turns that jitter into frames of 0 and 2 steps: motion stutters although
//! the frame rate is steady. Three remedies, in [`Pacing`]:
//!
//! - **Centred** (the default): the bank starts at half a step, as far from
//!   both boundaries as it can be, and returns there after a budget overrun.
//! - **Snapped**: a [`RefreshEstimator`] learns the display's period; a frame
//!   delta within the tolerance of a whole number of periods becomes exactly
//!   that many periods, and when the period is (within 1%) a whole multiple
//!   or divisor of the step, exactly that many steps, with the bank moved to
//!   the middle of its range. Game time then follows the frame count.
//!
//! Every unit of time the planner adds or removes to do this is reported as
//! the plan's phase shift, so submitted time plus phase shift still equals
//! executed plus dropped plus banked, exactly.
//!
//! Also here: the render cap ([`RenderCap`]) and the [`FrameRateGovernor`].
//! Everything is integer arithmetic on the timestamps given, so it is
//! deterministic given the trace.

use core::fmt;
use core::num::NonZeroU32;
use core::time::Duration;

use crate::{FramePlan, Nanos};

/// How the planner paces frames.
///
/// - [`Pacing::OFF`]: the plain accumulator.
/// - [`Pacing::CENTRED`] (the default): the bank starts at half a step, as far
///   from both step boundaries as it can be, and returns there after a budget
///   overrun, so timestamp jitter does not turn into 0- and 2-step frames.
/// - [`Pacing::snapped`]: centred, and a frame delta within the tolerance of
///   a whole number of refresh periods becomes exactly that many periods;
///   when the period is within 1% of a whole multiple or divisor of the step,
///   exactly that many steps, with the bank kept mid-range. Game time then
///   follows the frame count: one step per frame at 60 Hz, one every other
///   frame at 120 Hz, two after a missed refresh. (A 59.94 Hz display then
///   runs 60 Hz game time 0.1% slow.)
///
/// Whatever the pacing adds to or takes from the bank is reported as the
/// plan's [phase shift](crate::FramePlan::phase_shift_units).
///
/// # Examples
///
/// ```
/// use core::time::Duration;
/// use evenstep_core::Pacing;
///
/// assert_eq!(Pacing::default(), Pacing::CENTRED);
/// let snapped = Pacing::snapped(Duration::from_millis(2))?; // twice the stamp jitter
/// assert_eq!(snapped.snap_tolerance(), Some(Duration::from_millis(2)));
/// assert!(Pacing::snapped(Duration::ZERO).is_err());
/// # Ok::<(), evenstep_core::PacingError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pacing {
    mode: Mode,
    tolerance: Nanos,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Mode {
    Off,
    Centred,
    Snapped,
}

impl Pacing {
    /// No pacing: the bank starts empty and keeps its remainder after a
    /// budget overrun (the plain accumulator).
    pub const OFF: Pacing = Pacing {
        mode: Mode::Off,
        tolerance: Nanos::ZERO,
    };
    /// The bank starts at half a step and is re-centred after a budget
    /// overrun. The default.
    pub const CENTRED: Pacing = Pacing {
        mode: Mode::Centred,
        tolerance: Nanos::ZERO,
    };

    /// The largest snap tolerance accepted: 50 ms.
    pub const MAX_SNAP_TOLERANCE: Duration = Duration::from_millis(50);

    /// Centred, and frame deltas within `tolerance` of a whole number of
    /// refresh periods are snapped to it. About twice the timestamp jitter is
    /// right: stamps jittering by ±0.75 ms give deltas jittering by ±1.5 ms,
    /// so 2 ms fits.
    ///
    /// # Errors
    ///
    /// [`PacingError`] unless `tolerance` is from 1 ns to 50 ms.
    pub const fn snapped(tolerance: Duration) -> Result<Pacing, PacingError> {
        let nanos = tolerance.as_nanos();
        if nanos == 0 || nanos > Pacing::MAX_SNAP_TOLERANCE.as_nanos() {
            return Err(PacingError { tolerance });
        }
        Ok(Pacing {
            mode: Mode::Snapped,
            tolerance: Nanos::from_nanos(nanos as u64),
        })
    }

    /// Whether the bank is kept centred (true for centred and snapped).
    pub const fn is_centred(self) -> bool {
        !matches!(self.mode, Mode::Off)
    }

    /// Whether deltas are snapped to whole refresh periods.
    pub const fn is_snapped(self) -> bool {
        matches!(self.mode, Mode::Snapped)
    }

    /// The snap tolerance, if snapping.
    pub const fn snap_tolerance(self) -> Option<Duration> {
        match self.mode {
            Mode::Snapped => Some(self.tolerance.as_duration()),
            Mode::Off | Mode::Centred => None,
        }
    }

    pub(crate) const fn tolerance_nanos(self) -> u64 {
        self.tolerance.as_nanos()
    }
}

impl Default for Pacing {
    /// [`Pacing::CENTRED`].
    fn default() -> Pacing {
        Pacing::CENTRED
    }
}

/// A snap tolerance outside 1 ns to 50 ms was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacingError {
    tolerance: Duration,
}

impl fmt::Display for PacingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a snap tolerance of {:?}; it must be from 1 ns to 50 ms \
             (about twice the timestamp jitter)",
            self.tolerance
        )
    }
}

impl core::error::Error for PacingError {}

/// Samples in the estimator's window: a power of two, so the mean is a shift.
const WINDOW: u32 = 16;
/// Samples needed before an estimate is given.
const EVIDENCE: u32 = 8;
/// Consecutive deltas that fit no estimate before it is thrown away (the
/// display changed, or the first samples were stalls).
const RESEED_AFTER: u32 = 8;

/// Learns a display's refresh period from frame deltas: a fixed window of
/// recent deltas, no allocation, integer arithmetic.
///
/// A delta within 25% of the estimate counts as one period; within 25% of
/// twice the estimate it counts as two (a missed refresh), so dropped frames
/// do not skew the estimate; anything else (a stall, a hidden window) is
/// ignored. The [period](RefreshEstimator::period) is the mean of the last
/// sixteen accepted samples, and `None` until eight deltas have been
/// accepted. Deltas are judged against a steadier reference: the mean of the
/// last whole block of sixteen, which holds still while the next block
/// fills, so a frame is never judged against a period its own jitter moved
/// (while the first block fills, the reference is the mean so far).
///
/// # Examples
///
/// ```
/// use evenstep_core::{Nanos, RefreshEstimator};
///
/// let mut estimator = RefreshEstimator::new();
/// for k in 0..20_u64 {
///     // A 60 Hz display that misses every fifth refresh.
///     let delta = if k % 5 == 4 { 33_333_333 } else { 16_666_667 };
///     estimator.observe(Nanos::from_nanos(delta));
/// }
/// let period = estimator.period().unwrap().as_nanos();
/// assert!((16_666_000..16_667_000).contains(&period));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RefreshEstimator {
    /// The last sixteen accepted samples, in nanoseconds (a display
    /// refreshes at least every 4.29 s, so 32 bits hold one; longer deltas
    /// are never samples). Free slots hold zeros.
    samples: [u32; WINDOW as usize],
    /// The slot the next sample goes to (always under `WINDOW`). A block is
    /// `WINDOW` samples and every accepted sample enters both the window and
    /// the block, so this is also how many samples the open block holds.
    next: u32,
    /// The reference deltas are judged against: the mean of the last whole
    /// block (0 with no samples).
    reference: u64,
    /// The mean distance of the last whole block's samples from the
    /// reference each was judged against: how much the deltas wander.
    spread: u64,
    /// The block being filled: its samples and their distances, summed
    /// (samples are under 2³², so sixteen of either fit easily).
    block_sum: u64,
    block_deviation: u64,
    /// Samples accepted since the estimate (re)started, up to `WINDOW`.
    evidence: u32,
    rejected: u32,
    /// Deltas accepted in a row, counted up to `WINDOW`: a whole window of
    /// them means the display keeps a rhythm. A variable refresh rate, whose
    /// deltas often fit no period, rarely gets there; a fixed rate loses it
    /// only to a stall.
    streak: u32,
}

impl RefreshEstimator {
    /// An estimator with no evidence.
    pub const fn new() -> RefreshEstimator {
        RefreshEstimator {
            samples: [0; WINDOW as usize],
            next: 0,
            reference: 0,
            spread: 0,
            block_sum: 0,
            block_deviation: 0,
            evidence: 0,
            rejected: 0,
            streak: 0,
        }
    }

    /// Feeds one frame delta. Zero deltas (a first frame, a backwards stamp)
    /// are ignored.
    #[inline]
    pub fn observe(&mut self, delta: Nanos) {
        self.observe_inline(delta);
    }

    /// [`observe`](RefreshEstimator::observe), inlined into the planner's
    /// snapped path, which runs it every frame. Returns whether the
    /// reference, the spread, the evidence or the steadiness changed (a
    /// block closed, the first block grew, the rhythm was found or broken,
    /// or the estimate was thrown away): everything but the period.
    #[allow(
        clippy::inline_always,
        reason = "measured: a call here costs the snapped path a tenth of its time"
    )]
    #[inline(always)]
    pub(crate) fn observe_inline(&mut self, delta: Nanos) -> bool {
        let delta = delta.as_nanos();
        if delta == 0 {
            return false; // a first frame or a backwards stamp: no evidence
        }
        if self.evidence < WINDOW || delta > u64::from(u32::MAX) {
            return self.observe_rare(delta);
        }
        let reference = self.reference;
        let Some(sample) = classify(delta, reference) else {
            return self.reject();
        };
        self.accept(sample, sample.abs_diff(reference))
    }

    /// Takes `sample` (under 2³²), at `deviation` from the reference, into
    /// the window and the block. Returns whether the block closed (moving
    /// the reference and the spread) or the display became steady.
    #[inline]
    pub(crate) fn accept(&mut self, sample: u64, deviation: u64) -> bool {
        self.rejected = 0;
        let mut steadied = false;
        if self.streak < WINDOW {
            self.streak += 1;
            steadied = self.streak == WINDOW;
        }
        self.take(sample, deviation) || steadied
    }

    /// [`accept`](RefreshEstimator::accept) on a steady display: the streak
    /// is already a whole window and nothing has been rejected since, so
    /// only the sample moves.
    #[inline]
    pub(crate) fn accept_in_rhythm(&mut self, sample: u64, deviation: u64) -> bool {
        debug_assert!(self.is_steady() && self.rejected == 0);
        self.take(sample, deviation)
    }

    /// The window and the block take `sample`.
    #[inline]
    fn take(&mut self, sample: u64, deviation: u64) -> bool {
        self.push(sample);
        self.block_sum += sample;
        self.block_deviation += deviation;
        // Back at the first slot: the window has turned once more, and the
        // block is whole.
        if self.next == 0 {
            self.close_block();
            return true;
        }
        false
    }

    /// A delta while the first block fills (the reference is the mean so
    /// far, so it moves with every sample), or one too long for any display.
    #[cold]
    #[inline(never)]
    fn observe_rare(&mut self, delta: u64) -> bool {
        if delta > u64::from(u32::MAX) {
            // Nothing refreshes that slowly: a stall or a hidden window.
            return self.reject();
        }
        let (sample, deviation) = if self.evidence == 0 {
            (delta, 0)
        } else {
            let Some(sample) = classify(delta, self.reference) else {
                return self.reject();
            };
            (sample, sample.abs_diff(self.reference))
        };
        // Under WINDOW, or the steady path would have taken the delta.
        self.evidence += 1;
        if !self.accept(sample, deviation) {
            let len = u64::from(self.next); // the open block's samples
            self.reference = self.block_sum / len;
            self.spread = self.block_deviation / len;
        }
        true
    }

    /// Writes `sample` (under 2³²) over the oldest in the window.
    #[inline]
    fn push(&mut self, sample: u64) {
        // `next` is always under WINDOW; the remainder says so to the
        // compiler, which then checks no bound.
        let slot = self.next % WINDOW;
        self.samples[slot as usize] = sample as u32;
        self.next = (slot + 1) % WINDOW;
    }

    /// A whole block: its mean is the new reference.
    fn close_block(&mut self) {
        self.reference = self.block_sum / u64::from(WINDOW);
        self.spread = self.block_deviation / u64::from(WINDOW);
        self.block_sum = 0;
        self.block_deviation = 0;
    }

    /// A delta that fits no period: the rhythm is broken, and after eight
    /// in a row the estimate is thrown away (the display changed, or the
    /// first samples were stalls). Returns whether the display was steady
    /// or the estimate was thrown away.
    fn reject(&mut self) -> bool {
        let was_steady = self.is_steady();
        self.rejected += 1;
        self.streak = 0;
        if self.rejected >= RESEED_AFTER {
            *self = RefreshEstimator::new();
            return true;
        }
        was_steady
    }

    /// How much the accepted deltas wander: the mean distance of the last
    /// whole block's samples from the reference, once there is an estimate.
    /// Timestamp jitter spread evenly over ±J gives about 2J/3 (a delta is
    /// the difference of two stamps' jitter); a variable-refresh display
    /// gives milliseconds.
    pub fn spread(&self) -> Option<Nanos> {
        if self.evidence < EVIDENCE {
            return None;
        }
        Some(Nanos::from_nanos(self.spread))
    }

    /// Whether the display keeps a rhythm: the last sixteen deltas (a whole
    /// window) all fitted the reference. A variable-refresh display, whose
    /// deltas often fit no period, almost never does, and snapping stands
    /// down on it; a fixed-rate display loses its rhythm for sixteen frames
    /// after a stall.
    #[inline]
    pub fn is_steady(&self) -> bool {
        self.streak >= WINDOW
    }

    /// The reference, when the deltas wander no more than `tolerance`
    /// (whether or not the display is steady): what the planner may snap
    /// to.
    #[inline]
    pub(crate) fn calm_reference(&self, tolerance: u64) -> Option<u64> {
        if self.evidence >= EVIDENCE && self.spread <= tolerance {
            Some(self.reference)
        } else {
            None
        }
    }

    /// The estimated refresh period: the mean of the last sixteen accepted
    /// samples (of those so far while the window fills), once there are at
    /// least eight.
    #[inline]
    pub fn period(&self) -> Option<Nanos> {
        if self.evidence < EVIDENCE {
            return None;
        }
        // Summed when asked: the snapped path, which runs every frame, never
        // needs it.
        let sum: u64 = self.samples.iter().map(|&sample| u64::from(sample)).sum();
        Some(Nanos::from_nanos(sum / u64::from(self.evidence)))
    }

    /// The reference deltas are judged against: the mean of the last whole
    /// block of sixteen samples (of those so far while the first block
    /// fills), once there are at least eight.
    #[inline]
    pub fn reference(&self) -> Option<Nanos> {
        if self.evidence < EVIDENCE {
            return None;
        }
        Some(Nanos::from_nanos(self.reference))
    }

    /// Forgets every sample.
    pub fn reset(&mut self) {
        *self = RefreshEstimator::new();
    }
}

/// `delta` as a sample of one period, when it is within a quarter of
/// `period`; as half of itself, when it is within a quarter of twice
/// `period` (a missed refresh); otherwise `None`.
#[inline]
fn classify(delta: u64, period: u64) -> Option<u64> {
    let quarter = period / 4;
    if delta.abs_diff(period) <= quarter {
        Some(delta)
    } else if delta.abs_diff(2 * period) <= quarter * 2 {
        Some(delta / 2)
    } else {
        None
    }
}

impl Default for RefreshEstimator {
    fn default() -> RefreshEstimator {
        RefreshEstimator::new()
    }
}

/// How a refresh period relates to the step: `steps_per_refresh / divisions`
/// steps per refresh, with one of the two equal to 1. For 60 steps a second:
/// a 60 Hz display is 1/1, 120 Hz is 1/2, 240 Hz is 1/4, 30 Hz is 2/1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Lattice {
    /// Accumulator units one refresh is worth, exactly.
    pub(crate) per_refresh: u64,
    /// Refreshes per step (1 when a refresh is one or more whole steps).
    pub(crate) divisions: u64,
}

impl Lattice {
    /// The lattice for `period`, if the period is within 1% of a whole
    /// multiple or divisor (up to 8) of the step `per_step / per_nano` ns.
    pub(crate) fn find(period: Nanos, per_step: u64, per_nano: u64) -> Option<Lattice> {
        let period_units = u128::from(period.as_nanos()) * u128::from(per_nano);
        let step = u128::from(per_step);
        if period_units == 0 {
            return None;
        }
        // A refresh of m whole steps (a display slower than the steps).
        let m = (period_units + step / 2) / step;
        if (1..=8).contains(&m) && period_units.abs_diff(m * step) * 100 <= m * step {
            // A refresh worth more than 2⁶⁴ units has no lattice to keep.
            return u64::try_from(m * step).ok().map(|per_refresh| Lattice {
                per_refresh,
                divisions: 1,
            });
        }
        // A step of n whole refreshes (a display faster than the steps).
        let n = (step + period_units / 2) / period_units;
        if (2..=8).contains(&n) && step % n == 0 && (n * period_units).abs_diff(step) * 100 <= step
        {
            return Some(Lattice {
                per_refresh: (step / n) as u64,
                divisions: n as u64,
            });
        }
        None
    }

    /// The middle of the part of the step `remainder` is in: the step is
    /// cut into `divisions` equal parts (one refresh each), and a bank in
    /// the middle of its part is furthest from a step boundary on every
    /// frame. `remainder < per_step`.
    #[inline]
    pub(crate) fn centre(self, remainder: u64, per_step: u64) -> u64 {
        if self.divisions == 1 {
            // A refresh is whole steps: the bank stays put; keep it mid-step.
            return per_step / 2;
        }
        self.centre_of_part(remainder)
    }

    /// [`centre`](Lattice::centre) when refreshes divide the step: the
    /// middle of the refresh-sized part of the step `remainder` is in.
    #[inline]
    pub(crate) fn centre_of_part(self, remainder: u64) -> u64 {
        let part = self.per_refresh;
        (remainder / part) * part + part / 2
    }
}

/// The render cap: at most `max_fps` renders a second of real time, landing
/// on the frame nearest each cap tick, so a cap equal to the display rate
/// draws every frame despite jitter. Speed does not affect it, and steps run
/// on the frames it skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderCap {
    max_fps: NonZeroU32,
    /// Real time since the cap started, in nanoseconds · `max_fps` (so one
    /// cap interval is exactly 10⁹ of these).
    clock: u128,
    /// The next cap tick, in the same units.
    next: u128,
    /// Whether a frame has rendered yet: the first one does, and sets the
    /// phase of the ticks.
    started: bool,
}

impl RenderCap {
    /// A cap of `max_fps` renders a second.
    pub const fn new(max_fps: NonZeroU32) -> RenderCap {
        RenderCap {
            max_fps,
            clock: 0,
            next: 0,
            started: false,
        }
    }

    /// The cap, in renders a second.
    pub const fn max_fps(&self) -> NonZeroU32 {
        self.max_fps
    }

    /// Whether the frame `raw` after the previous one renders. `spacing` is
    /// the expected gap to the next frame (the refresh period, or this
    /// frame's delta): a frame renders when it is nearer the cap tick than
    /// the next frame would be.
    pub(crate) fn admit(&mut self, raw: Nanos, spacing: Nanos) -> bool {
        let fps = u128::from(self.max_fps.get());
        let interval = 1_000_000_000_u128;
        self.clock = self.clock.saturating_add(u128::from(raw.as_nanos()) * fps);
        if !self.started {
            self.started = true;
            self.next = self.clock.saturating_add(interval);
            return true;
        }
        // A frame claims at most half an interval ahead: a hitch frame's own
        // long delta must not mark the next tick as already drawn.
        let half = (u128::from(spacing.as_nanos()) * fps).min(interval) / 2;
        let reach = self.clock.saturating_add(half);
        if reach < self.next {
            return false;
        }
        // The next tick is the first one this frame does not already cover:
        // after a gap, ticks it skipped are not drawn in a burst.
        let behind = reach - self.next;
        self.next = self
            .next
            .saturating_add(interval.saturating_mul(behind / interval + 1));
        true
    }

    /// A frame that will not be drawn (a tick pump): its time passes for
    /// the cap, and it takes no tick.
    pub(crate) fn pass(&mut self, raw: Nanos) {
        let fps = u128::from(self.max_fps.get());
        self.clock = self.clock.saturating_add(u128::from(raw.as_nanos()) * fps);
    }
}

/// Halves the render rate while frames keep missing their refresh, and
/// restores it once they stop, with hysteresis: deterministic given the
/// trace.
///
/// A frame misses when its delta is more than one and a half refresh
/// periods. Four misses within 32 frames halve the rate (down to an eighth);
/// 240 frames in a row without a miss double it again (up to the full rate).
/// Feed it every plan with the planner's refresh estimate, and apply
/// [`max_fps`](FrameRateGovernor::max_fps) as the planner's render cap.
///
/// # Examples
///
/// ```
/// use evenstep_core::{FrameLoop, FrameRateGovernor, Nanos, Pacing, StepBudget, Timestamp, Timestep};
///
/// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
/// frames.set_pacing(Pacing::snapped(core::time::Duration::from_millis(2))?);
/// let mut governor = FrameRateGovernor::new();
/// let mut now = 0_u64;
/// for k in 0..200_u64 {
///     // Every third frame misses a refresh.
///     now += if k % 3 == 2 { 33_333_333 } else { 16_666_667 };
///     let plan = frames.begin_frame(Timestamp::from_nanos(now));
///     governor.observe(&plan, frames.refresh_period());
///     frames.set_render_cap(governor.max_fps());
/// }
/// assert_eq!(governor.divisor(), 8); // rendering at 60/8 Hz
/// # Ok::<(), evenstep_core::PacingError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FrameRateGovernor {
    divisor: u32,
    window: u32,
    misses: u32,
    clean_streak: u32,
    period: Option<Nanos>,
}

impl FrameRateGovernor {
    /// Frames in a miss-counting window.
    pub const WINDOW: u32 = 32;
    /// Misses within a window that halve the render rate.
    pub const MISSES_TO_HALVE: u32 = 4;
    /// Consecutive frames without a miss that double it back.
    pub const CLEAN_TO_RESTORE: u32 = 240;
    /// The lowest render rate is the display rate divided by this.
    pub const MAX_DIVISOR: u32 = 8;

    /// A governor at the full render rate.
    pub const fn new() -> FrameRateGovernor {
        FrameRateGovernor {
            divisor: 1,
            window: 0,
            misses: 0,
            clean_streak: 0,
            period: None,
        }
    }

    /// Observes one frame. `refresh_period` is the planner's estimate
    /// ([`FrameLoop::refresh_period`](crate::FrameLoop::refresh_period));
    /// until there is one, nothing changes.
    pub fn observe(&mut self, plan: &FramePlan, refresh_period: Option<Nanos>) {
        let Some(period) = refresh_period else {
            return;
        };
        self.period = Some(period);
        let raw = plan.raw_delta().as_nanos();
        if raw == 0 {
            return;
        }
        let missed = u128::from(raw) * 2 > u128::from(period.as_nanos()) * 3;
        self.window += 1;
        if missed {
            self.misses += 1;
            self.clean_streak = 0;
        } else {
            self.clean_streak += 1;
        }
        if self.misses >= FrameRateGovernor::MISSES_TO_HALVE {
            self.divisor = (self.divisor * 2).min(FrameRateGovernor::MAX_DIVISOR);
            self.window = 0;
            self.misses = 0;
        } else if self.window >= FrameRateGovernor::WINDOW {
            self.window = 0;
            self.misses = 0;
        }
        if self.clean_streak >= FrameRateGovernor::CLEAN_TO_RESTORE && self.divisor > 1 {
            self.divisor /= 2;
            self.clean_streak = 0;
        }
    }

    /// The current render rate divisor: 1 is the full display rate.
    pub const fn divisor(&self) -> u32 {
        self.divisor
    }

    /// The render cap to apply: `None` at the full rate, otherwise the
    /// display rate divided by [`divisor`](FrameRateGovernor::divisor),
    /// rounded to whole renders a second (at least one).
    pub fn max_fps(&self) -> Option<NonZeroU32> {
        if self.divisor == 1 {
            return None;
        }
        let period = self.period?.as_nanos();
        let per = u128::from(period) * u128::from(self.divisor);
        let fps = (1_000_000_000_u128 + per / 2) / per;
        NonZeroU32::new(u32::try_from(fps).unwrap_or(u32::MAX)).or(NonZeroU32::new(1))
    }
}

impl Default for FrameRateGovernor {
    fn default() -> FrameRateGovernor {
        FrameRateGovernor::new()
    }
}

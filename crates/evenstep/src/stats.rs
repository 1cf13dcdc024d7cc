//! Measured statistics: what the loop observed about its own timing, from its
//! own clock readings. Unlike the planner's deterministic tally
//! ([`FrameStats`](evenstep_core::FrameStats)) these depend on how fast the
//! machine ran, so they are for HUDs, logs and performance tests, never for a
//! determinism digest. Because every number comes from the loop's
//! [`Clock`](crate::Clock), a manual clock makes each of them exact.

use evenstep_core::Nanos;

/// A snapshot of the loop's measured statistics. Read it with
/// [`Loop::stats`](crate::Loop::stats); it is a plain `Copy` value.
///
/// "Gap" is the wall time from one painted frame to the next, measured from
/// the clock reading at the top of each paint pump: everything that happened
/// between two pictures is inside it, including work the loop did not do.
/// "Cost" is the time the loop spent inside a pump. With the `serde`
/// feature, durations serialize as integer nanoseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LoopStats {
    fps: u32,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    frame_cost: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    update_cost: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    render_cost: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    worst_frame: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    best_frame: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    frame_cost_total: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    worst_gap: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    cadence: Nanos,
    absences: u64,
    warming_up: bool,
    over_budget: u64,
    steps_last_pump: u64,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    dropped: Nanos,
    dropped_steps: u64,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    gap_p50: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    gap_p95: Nanos,
    #[cfg_attr(feature = "serde", serde(with = "nanos_as_u64"))]
    gap_p99: Nanos,
    gaps: u64,
    paints: u64,
    pumps: u64,
}

/// `Nanos` as a plain integer of nanoseconds in serialized statistics (the
/// core crate has no dependencies, serde included).
#[cfg(feature = "serde")]
mod nanos_as_u64 {
    use evenstep_core::Nanos;

    #[allow(
        clippy::trivially_copy_pass_by_ref,
        reason = "the signature serde's `with` expects"
    )]
    pub(super) fn serialize<S: serde::Serializer>(nanos: &Nanos, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(nanos.as_nanos())
    }

    pub(super) fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Nanos, D::Error> {
        <u64 as serde::Deserialize>::deserialize(d).map(Nanos::from_nanos)
    }
}

impl LoopStats {
    /// Paints in the last completed second of real time (0 until one
    /// second has passed, and 0 for a second with no paint).
    pub const fn fps(&self) -> u32 {
        self.fps
    }

    /// Smoothed pump cost, a one-eighth exponential moving average.
    pub const fn frame_cost(&self) -> Nanos {
        self.frame_cost
    }

    /// Smoothed cost of a pump's update phase: real timers, jobs, planning
    /// and the fixed steps with their sim timers and updates.
    pub const fn update_cost(&self) -> Nanos {
        self.update_cost
    }

    /// Smoothed cost of a paint pump's render phase.
    pub const fn render_cost(&self) -> Nanos {
        self.render_cost
    }

    /// The costliest pump since the last reset. Never decays.
    pub const fn worst_frame(&self) -> Nanos {
        self.worst_frame
    }

    /// The cheapest pump since the last reset (zero before the first).
    pub const fn best_frame(&self) -> Nanos {
        self.best_frame
    }

    /// Every pump's cost since the last reset, summed (saturating): with
    /// [`pumps`](LoopStats::pumps), the exact mean cost.
    pub const fn frame_cost_total(&self) -> Nanos {
        self.frame_cost_total
    }

    /// The longest gap between two paints within the gap window.
    pub const fn worst_gap(&self) -> Nanos {
        self.worst_gap
    }

    /// The display's period as observed: the shortest gap within the gap
    /// window (nothing paints faster than the panel refreshes). Zero until a
    /// gap has been measured. Read `worst_gap` against it: a gap under about
    /// 1.5 cadences dropped no frame.
    pub const fn cadence(&self) -> Nanos {
        self.cadence
    }

    /// Gaps at or over the absence threshold (a hidden window, not a slow
    /// frame). They are excluded from every gap statistic.
    pub const fn absences(&self) -> u64 {
        self.absences
    }

    /// Whether the opening gaps are still being discarded as warm-up.
    pub const fn warming_up(&self) -> bool {
        self.warming_up
    }

    /// Pumps whose cost exceeded the work budget.
    pub const fn over_budget(&self) -> u64 {
        self.over_budget
    }

    /// Fixed steps run by the latest pump. Sustained above 1, the game cannot
    /// keep up.
    pub const fn steps_last_pump(&self) -> u64 {
        self.steps_last_pump
    }

    /// Simulation time dropped by the step budget since the last reset.
    /// Diagnostics only: never credit resources from it.
    pub const fn dropped(&self) -> Nanos {
        self.dropped
    }

    /// [`dropped`](LoopStats::dropped) in seconds.
    pub fn dropped_secs(&self) -> f64 {
        self.dropped.as_secs_f64()
    }

    /// Steps dropped by the step budget since the last reset.
    pub const fn dropped_steps(&self) -> u64 {
        self.dropped_steps
    }

    /// Median gap between paints since the last reset.
    pub const fn gap_p50(&self) -> Nanos {
        self.gap_p50
    }

    /// 95th-percentile gap between paints since the last reset.
    pub const fn gap_p95(&self) -> Nanos {
        self.gap_p95
    }

    /// 99th-percentile gap between paints since the last reset.
    pub const fn gap_p99(&self) -> Nanos {
        self.gap_p99
    }

    /// Gaps recorded since the last reset (the percentiles' sample count).
    pub const fn gaps(&self) -> u64 {
        self.gaps
    }

    /// Paint pumps since the last reset.
    pub const fn paints(&self) -> u64 {
        self.paints
    }

    /// Pumps of either kind since the last reset.
    pub const fn pumps(&self) -> u64 {
        self.pumps
    }
}

/// Sub-buckets per power of two: percentiles are within 1/32 (3.1%) of the
/// true gap, and exact when the gaps in a bucket are all equal.
const SUB_BITS: u32 = 5;
const SUB: usize = 1 << SUB_BITS;
/// Gaps of 2³⁶ ns (about 69 s) and over share the top bucket.
const TOP_EXP: u32 = 36;
/// One bucket per sub-range of each power of two below 2³⁶, and one above.
const BUCKETS: usize = SUB + (TOP_EXP - SUB_BITS) as usize * SUB + 1;

/// A fixed-size log-linear histogram of gaps (and of a runner's lateness).
/// Each bucket keeps its count and the largest value it has seen, which is
/// what a percentile reports.
#[derive(Clone)]
pub(crate) struct GapHistogram {
    counts: [u64; BUCKETS],
    max: [u64; BUCKETS],
    total: u64,
}

impl GapHistogram {
    pub(crate) fn new() -> GapHistogram {
        GapHistogram {
            counts: [0; BUCKETS],
            max: [0; BUCKETS],
            total: 0,
        }
    }

    /// Gaps under 64 ns have a bucket each; above, the top five bits below
    /// the leading one pick one of 32 buckets of its power of two. One
    /// formula covers both: `shift` is 0 up to 63, and the value's top six
    /// bits (32 to 63) follow the buckets of the powers below.
    #[inline]
    fn bucket(value: u64) -> usize {
        let shift = (value | SUB as u64).ilog2() - SUB_BITS;
        let bucket = (u64::from(shift) << SUB_BITS) + (value >> shift);
        // At most 58 · 32 + 63: the cast is exact.
        (bucket as usize).min(BUCKETS - 1)
    }

    #[inline]
    pub(crate) fn record(&mut self, value: Nanos) {
        let value = value.as_nanos();
        let b = GapHistogram::bucket(value);
        // Saturating like every counter here, though 2⁶⁴ samples take
        // centuries to reach.
        self.counts[b] = self.counts[b].saturating_add(1);
        self.max[b] = self.max[b].max(value);
        self.total = self.total.saturating_add(1);
    }

    /// The largest value in the bucket holding the sample of rank
    /// `ceil(p · total)`.
    pub(crate) fn percentile(&self, per_mille: u64) -> Nanos {
        if self.total == 0 {
            return Nanos::ZERO;
        }
        // Widened: a runner's lateness counts every step of a run, and a
        // count past 2⁶⁴ / 1000 would overflow the product.
        let rank = (u128::from(self.total) * u128::from(per_mille))
            .div_ceil(1_000)
            .max(1);
        let mut seen = 0_u128;
        for (b, &count) in self.counts.iter().enumerate() {
            seen += u128::from(count);
            if seen >= rank {
                return Nanos::from_nanos(self.max[b]);
            }
        }
        Nanos::from_nanos(self.max[BUCKETS - 1])
    }

    /// Values recorded.
    pub(crate) fn total(&self) -> u64 {
        self.total
    }

    pub(crate) fn clear(&mut self) {
        self.counts = [0; BUCKETS];
        self.max = [0; BUCKETS];
        self.total = 0;
    }
}

/// Seconds of real time the gap window can span.
pub(crate) const MAX_GAP_WINDOW_SECS: u64 = 60;
const RING: usize = 64;

/// Per-second worst and best gaps, for the sliding gap window.
#[derive(Clone, Copy)]
struct SecondBucket {
    second: u64,
    worst: Nanos,
    best: Nanos,
}

/// Settings the collector needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StatsConfig {
    pub(crate) warmup_frames: u32,
    pub(crate) absence: Nanos,
    pub(crate) work_budget: Nanos,
    pub(crate) gap_window_secs: u64,
}

/// Accumulates measurements between resets.
#[derive(Clone)]
pub(crate) struct Collector {
    config: StatsConfig,
    warmup_left: u32,
    /// Clock reading of the previous paint, if any since the last re-base.
    last_paint: Option<evenstep_core::Timestamp>,
    /// Set when the frame source said its frames stopped being shown: the
    /// gap to the next paint is an absence, however short.
    away: bool,
    /// The second of real time being counted for fps, and its paints.
    fps_second: u64,
    fps_count: u32,
    fps: u32,
    /// Eight times each average, wide enough that costs near `u64::MAX` ns
    /// (a clock that saturated mid-pump) average without wrapping.
    frame_cost_x8: u128,
    update_cost_x8: u128,
    render_cost_x8: u128,
    worst_frame: Nanos,
    best_frame: Nanos,
    frame_cost_total: Nanos,
    ring: [SecondBucket; RING],
    /// The bucket of `real_second` (always under `RING`), opened when the
    /// second began: a paint finds it without a check.
    slot: usize,
    absences: u64,
    over_budget: u64,
    steps_last_pump: u64,
    dropped_units: u128,
    dropped: Nanos,
    dropped_steps: u64,
    paints: u64,
    pumps: u64,
    histogram: GapHistogram,
    /// The real time of the latest pump, for the window.
    real_second: u64,
    /// Where the second after `real_second` begins, in nanoseconds of real
    /// time (saturating).
    next_second_at: u64,
}

/// What one pump measured.
pub(crate) struct PumpSample {
    pub(crate) now: evenstep_core::Timestamp,
    pub(crate) real_time: Nanos,
    pub(crate) painted: bool,
    pub(crate) frame_cost: Nanos,
    pub(crate) update_cost: Nanos,
    pub(crate) render_cost: Nanos,
    pub(crate) steps: u64,
    pub(crate) timestep: evenstep_core::Timestep,
    pub(crate) abandoned_steps: u64,
}

const EMPTY_SECOND: SecondBucket = SecondBucket {
    second: u64::MAX,
    worst: Nanos::ZERO,
    best: Nanos::MAX,
};

impl Collector {
    pub(crate) fn new(config: StatsConfig) -> Collector {
        let mut collector = Collector {
            config,
            warmup_left: config.warmup_frames,
            last_paint: None,
            away: false,
            fps_second: 0,
            fps_count: 0,
            fps: 0,
            frame_cost_x8: 0,
            update_cost_x8: 0,
            render_cost_x8: 0,
            worst_frame: Nanos::ZERO,
            best_frame: Nanos::MAX,
            frame_cost_total: Nanos::ZERO,
            ring: [EMPTY_SECOND; RING],
            slot: 0,
            absences: 0,
            over_budget: 0,
            steps_last_pump: 0,
            dropped_units: 0,
            dropped: Nanos::ZERO,
            dropped_steps: 0,
            paints: 0,
            pumps: 0,
            histogram: GapHistogram::new(),
            real_second: 0,
            next_second_at: 1_000_000_000,
        };
        collector.open_second();
        collector
    }

    /// Forgets every measurement. Warm-up is not restarted: it is about the
    /// start of a run, not of a measurement.
    pub(crate) fn reset(&mut self) {
        let warmup_left = self.warmup_left;
        let (last_paint, away) = (self.last_paint, self.away);
        let (fps_second, real_second, next_second_at) =
            (self.fps_second, self.real_second, self.next_second_at);
        let histogram = std::mem::replace(&mut self.histogram, GapHistogram::new());
        *self = Collector::new(self.config);
        self.histogram = histogram;
        self.histogram.clear();
        self.warmup_left = warmup_left;
        self.last_paint = last_paint;
        self.away = away;
        self.fps_second = fps_second;
        self.real_second = real_second;
        self.next_second_at = next_second_at;
        self.open_second();
    }

    /// Forgets the previous paint, so the next paint starts a new gap: used
    /// when the loop restarts, so a stop is not measured as a gap.
    pub(crate) fn rebase(&mut self) {
        self.last_paint = None;
        self.away = false;
    }

    /// The frame source stopped showing frames: the gap from the last paint
    /// to the next one is an absence.
    pub(crate) fn begin_absence(&mut self) {
        self.away = self.last_paint.is_some();
    }

    #[inline]
    pub(crate) fn record(&mut self, sample: &PumpSample) {
        self.pumps += 1;
        // Real time never goes back: a second turns when it reaches the next.
        if sample.real_time.as_nanos() >= self.next_second_at {
            self.turn_second(sample.real_time);
        }

        // The first pump since a reset seeds the frame and update averages,
        // and the first paint the render average.
        let first_pump = self.pumps == 1;
        ema(&mut self.frame_cost_x8, first_pump, sample.frame_cost);
        ema(&mut self.update_cost_x8, first_pump, sample.update_cost);
        if sample.painted {
            ema(
                &mut self.render_cost_x8,
                self.paints == 0,
                sample.render_cost,
            );
        }
        self.worst_frame = self.worst_frame.max(sample.frame_cost);
        self.best_frame = self.best_frame.min(sample.frame_cost);
        self.frame_cost_total = self.frame_cost_total.saturating_add(sample.frame_cost);
        if sample.frame_cost > self.config.work_budget {
            self.over_budget += 1;
        }
        self.steps_last_pump = sample.steps;
        if sample.abandoned_steps > 0 {
            self.record_abandoned(sample.abandoned_steps, sample.timestep);
        }

        if sample.painted {
            self.paints += 1;
            self.fps_count += 1;
            self.record_gap(sample.now);
        }
    }

    /// Adds time the step budget dropped.
    #[inline]
    pub(crate) fn record_dropped(
        &mut self,
        units: u128,
        steps: u64,
        timestep: evenstep_core::Timestep,
    ) {
        if units > 0 {
            self.dropped_units = self.dropped_units.saturating_add(units);
            self.dropped = timestep.units_to_nanos(self.dropped_units);
            self.dropped_steps = self.dropped_steps.saturating_add(steps);
        }
    }

    /// Reports steps a panicking pump planned but never began as dropped.
    pub(crate) fn record_abandoned(&mut self, steps: u64, timestep: evenstep_core::Timestep) {
        let units = u128::from(steps) * u128::from(timestep.units_per_step());
        self.dropped_units = self.dropped_units.saturating_add(units);
        self.dropped = timestep.units_to_nanos(self.dropped_units);
        self.dropped_steps = self.dropped_steps.saturating_add(steps);
    }

    /// Real time reached the start of the next second: the fps count rolls
    /// over and the second's gap bucket opens (unless real time has
    /// saturated, and the second stays the last one).
    #[inline(never)]
    fn turn_second(&mut self, real_time: Nanos) {
        let second = real_time.as_nanos() / 1_000_000_000;
        self.next_second_at = (second + 1).saturating_mul(1_000_000_000);
        // Only at the end of time (real time saturated, and with it the
        // next second's start) does this run within one second.
        if second != self.real_second {
            self.real_second = second;
            self.roll_fps();
            self.open_second();
        }
    }

    /// Empties the bucket of `real_second` (it last held the second `RING`
    /// seconds before, outside any window) and points `slot` at it.
    fn open_second(&mut self) {
        self.slot = (self.real_second % RING as u64) as usize;
        self.ring[self.slot] = SecondBucket {
            second: self.real_second,
            ..EMPTY_SECOND
        };
    }

    fn roll_fps(&mut self) {
        if self.real_second != self.fps_second {
            // The second just completed is the previous one only if no whole
            // second passed without a pump; otherwise the last completed
            // second saw no paint.
            self.fps = if self.real_second == self.fps_second + 1 {
                self.fps_count
            } else {
                0
            };
            self.fps_second = self.real_second;
            self.fps_count = 0;
        }
    }

    #[inline]
    fn record_gap(&mut self, now: evenstep_core::Timestamp) {
        let away = core::mem::take(&mut self.away);
        let Some(previous) = self.last_paint.replace(now) else {
            return;
        };
        let gap = now.saturating_since(previous);
        if away {
            self.absences += 1;
            return;
        }
        if gap.is_zero() {
            // Painted at the same instant, or the clock stepped back: no
            // time passed between the pictures that a gap could describe.
            return;
        }
        if gap >= self.config.absence {
            self.absences += 1;
            return;
        }
        if self.warmup_left > 0 {
            self.warmup_left -= 1;
            return;
        }
        self.histogram.record(gap);
        // `slot` is under RING; the remainder says so to the compiler.
        let slot = &mut self.ring[self.slot % RING];
        slot.worst = slot.worst.max(gap);
        slot.best = slot.best.min(gap);
    }

    pub(crate) fn snapshot(&self) -> LoopStats {
        let window = self.config.gap_window_secs;
        let oldest = self.real_second.saturating_sub(window - 1);
        let mut worst_gap = Nanos::ZERO;
        let mut cadence = Nanos::MAX;
        for slot in &self.ring {
            if slot.second != u64::MAX && slot.second >= oldest && slot.second <= self.real_second {
                worst_gap = worst_gap.max(slot.worst);
                cadence = cadence.min(slot.best);
            }
        }
        LoopStats {
            fps: self.fps,
            frame_cost: average(self.frame_cost_x8),
            update_cost: average(self.update_cost_x8),
            render_cost: average(self.render_cost_x8),
            worst_frame: self.worst_frame,
            best_frame: if self.pumps == 0 {
                Nanos::ZERO
            } else {
                self.best_frame
            },
            frame_cost_total: self.frame_cost_total,
            worst_gap,
            cadence: if cadence == Nanos::MAX {
                Nanos::ZERO
            } else {
                cadence
            },
            absences: self.absences,
            warming_up: self.warmup_left > 0,
            over_budget: self.over_budget,
            steps_last_pump: self.steps_last_pump,
            dropped: self.dropped,
            dropped_steps: self.dropped_steps,
            gap_p50: self.histogram.percentile(500),
            gap_p95: self.histogram.percentile(950),
            gap_p99: self.histogram.percentile(990),
            gaps: self.histogram.total,
            paints: self.paints,
            pumps: self.pumps,
        }
    }
}

/// `avg += (sample − avg) / 8`, kept as eight times the average so the
/// integer arithmetic loses nothing but the final division. The `first`
/// sample seeds it. Eight times a `u64` average plus a `u64` sample fits in a
/// `u128` with room to spare.
#[inline]
fn ema(avg_x8: &mut u128, first: bool, sample: Nanos) {
    let sample = u128::from(sample.as_nanos());
    if first {
        *avg_x8 = sample * 8;
    } else {
        *avg_x8 = *avg_x8 - (*avg_x8 >> 3) + sample;
    }
}

/// The average held as eight times itself. An average of `u64` samples is a
/// `u64`; the conversion saturates only to say so without a panic.
fn average(avg_x8: u128) -> Nanos {
    Nanos::from_nanos(u64::try_from(avg_x8 / 8).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_have_exact_buckets_and_large_ones_share_the_top() {
        assert_eq!(GapHistogram::bucket(0), 0);
        assert_eq!(GapHistogram::bucket(31), 31);
        assert_eq!(GapHistogram::bucket(32), 32);
        assert_eq!(GapHistogram::bucket(63), 63);
        assert_eq!(GapHistogram::bucket(64), 64);
        assert_eq!(GapHistogram::bucket(65), 64);
        assert_eq!(GapHistogram::bucket(u64::MAX), BUCKETS - 1);
        assert_eq!(GapHistogram::bucket((1 << 36) - 1), BUCKETS - 2);
        let mut last = 0;
        for v in (0..1_u64 << 20).step_by(977) {
            let b = GapHistogram::bucket(v);
            assert!(b >= last, "buckets are monotonic");
            last = b;
        }
    }

    #[test]
    fn every_power_of_two_splits_into_thirty_two_equal_buckets() {
        // The layout spelled out: exact below 32; from 2^e (e >= 5) on, 32
        // buckets of 2^(e-5) values each, following the powers below.
        fn by_the_book(value: u64) -> usize {
            if value < 32 {
                return value as usize;
            }
            let exp = value.ilog2();
            if exp >= TOP_EXP {
                return BUCKETS - 1;
            }
            let mantissa = (value >> (exp - 5)) as usize & 31;
            32 + (exp - 5) as usize * 32 + mantissa
        }
        for exp in 0..64 {
            let power = 1_u64 << exp;
            for value in [
                power - 1,
                power,
                power + 1,
                power | (power >> 1),
                power | (power - 1),
            ] {
                assert_eq!(GapHistogram::bucket(value), by_the_book(value), "{value}");
            }
        }
        let mut value = 1_u64;
        while value < u64::MAX / 3 {
            assert_eq!(GapHistogram::bucket(value), by_the_book(value), "{value}");
            value = value * 3 + 1;
        }
    }

    #[test]
    fn a_percentile_is_the_largest_gap_in_its_bucket() {
        let mut h = GapHistogram::new();
        for _ in 0..98 {
            h.record(Nanos::from_nanos(16_666_667));
        }
        h.record(Nanos::from_millis(33));
        h.record(Nanos::from_millis(50));
        assert_eq!(h.percentile(500), Nanos::from_nanos(16_666_667));
        assert_eq!(h.percentile(980), Nanos::from_nanos(16_666_667));
        assert_eq!(h.percentile(990), Nanos::from_millis(33));
        assert_eq!(h.percentile(1_000), Nanos::from_millis(50));
    }

    #[test]
    fn the_average_moves_an_eighth_of_the_way() {
        let mut avg = 0;
        ema(&mut avg, true, Nanos::from_nanos(800));
        assert_eq!(avg / 8, 800);
        ema(&mut avg, false, Nanos::from_nanos(1_600));
        assert_eq!(avg / 8, 900);
        ema(&mut avg, false, Nanos::ZERO);
        assert_eq!(avg, 6_300); // 7200 − 900 + 0
    }
}

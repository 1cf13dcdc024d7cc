//! Gaps between paints that describe a frame: the warm-up that discards the
//! opening ones, the sliding window of recent seconds that gives the worst
//! gap and the cadence, and the percentiles since the last reset.

use evenstep_core::Nanos;

use crate::stats::histogram::LogHistogram;

/// Seconds of real time the gap window can span.
pub(crate) const MAX_GAP_WINDOW_SECS: u64 = 60;
/// Buckets in the window's ring: more than the longest window, so a second
/// is never overwritten while a window can still see it.
const RING: usize = 64;

/// One second's worst and best gaps.
#[derive(Clone, Copy)]
struct SecondBucket {
    second: u64,
    worst: Nanos,
    best: Nanos,
}

const EMPTY_SECOND: SecondBucket = SecondBucket {
    second: u64::MAX,
    worst: Nanos::ZERO,
    best: Nanos::MAX,
};

/// The worst and best gaps of each of the last seconds of real time.
#[derive(Clone)]
struct GapWindow {
    ring: [SecondBucket; RING],
    /// The bucket of the current second (always under `RING`), opened when
    /// the second began: a paint finds it without a check.
    slot: usize,
    /// Seconds the window spans, from 1 to `MAX_GAP_WINDOW_SECS`.
    secs: u64,
}

impl GapWindow {
    /// An empty window of `secs` seconds whose current second is `second`.
    fn new(secs: u64, second: u64) -> GapWindow {
        let mut window = GapWindow {
            ring: [EMPTY_SECOND; RING],
            slot: 0,
            secs,
        };
        window.open(second);
        window
    }

    /// Empties the bucket of `second` (it last held the second `RING`
    /// seconds before, outside any window) and makes it the current one.
    fn open(&mut self, second: u64) {
        self.slot = (second % RING as u64) as usize;
        self.ring[self.slot] = SecondBucket {
            second,
            ..EMPTY_SECOND
        };
    }

    #[inline]
    fn record(&mut self, gap: Nanos) {
        // `slot` is under RING; the remainder says so to the compiler.
        let slot = &mut self.ring[self.slot % RING];
        slot.worst = slot.worst.max(gap);
        slot.best = slot.best.min(gap);
    }

    /// The worst and the best gap of the window ending with the second
    /// `current`; zero for the best if no gap fell in it.
    fn worst_and_best(&self, current: u64) -> (Nanos, Nanos) {
        let oldest = current.saturating_sub(self.secs - 1);
        let mut worst = Nanos::ZERO;
        let mut best = Nanos::MAX;
        for slot in &self.ring {
            if slot.second != u64::MAX && slot.second >= oldest && slot.second <= current {
                worst = worst.max(slot.worst);
                best = best.min(slot.best);
            }
        }
        if best == Nanos::MAX {
            best = Nanos::ZERO;
        }
        (worst, best)
    }
}

/// The gaps between paints that describe a frame.
#[derive(Clone)]
pub(super) struct Gaps {
    /// Opening gaps still to discard.
    warmup_left: u32,
    window: GapWindow,
    percentiles: LogHistogram,
}

impl Gaps {
    /// No gap yet, `warmup_frames` gaps to discard, a window of
    /// `window_secs` seconds.
    pub(super) fn new(warmup_frames: u32, window_secs: u64) -> Gaps {
        Gaps {
            warmup_left: warmup_frames,
            window: GapWindow::new(window_secs, 0),
            percentiles: LogHistogram::new(),
        }
    }

    /// Forgets every gap; the current second is `second`. Warm-up is not
    /// restarted: it is about the start of a run, not of a measurement.
    pub(super) fn reset(&mut self, second: u64) {
        self.window = GapWindow::new(self.window.secs, second);
        self.percentiles.clear();
    }

    /// Real time moved on to `second`.
    pub(super) fn open_second(&mut self, second: u64) {
        self.window.open(second);
    }

    /// Adds a frame's gap, unless warm-up discards it.
    #[inline]
    pub(super) fn record(&mut self, gap: Nanos) {
        if self.warmup_left > 0 {
            self.warmup_left -= 1;
            return;
        }
        self.percentiles.record(gap);
        self.window.record(gap);
    }

    /// Whether the opening gaps are still being discarded.
    pub(super) fn warming_up(&self) -> bool {
        self.warmup_left > 0
    }

    /// The longest gap within the window ending with the second `current`,
    /// and the shortest (the display's cadence, zero if there was none).
    pub(super) fn worst_and_cadence(&self, current: u64) -> (Nanos, Nanos) {
        self.window.worst_and_best(current)
    }

    /// The gap at `per_mille` thousandths since the last reset.
    pub(super) fn percentile(&self, per_mille: u64) -> Nanos {
        self.percentiles.percentile(per_mille)
    }

    /// Gaps recorded since the last reset.
    pub(super) fn count(&self) -> u64 {
        self.percentiles.total()
    }
}

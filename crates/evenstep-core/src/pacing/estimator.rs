//! The refresh estimator: what a display's refresh period is, learned from
//! the frame deltas a game sees, and whether the display keeps a rhythm at
//! all. Snapping asks it for the period to snap to; the render cap asks it
//! how far apart frames are.

use crate::Nanos;

/// Samples in the estimator's window, and in a block.
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
    /// The slot the next sample goes to. Every accepted sample enters both
    /// the window and the open block, so this is also how many samples the
    /// open block holds.
    next: u32,
    /// The reference deltas are judged against: the mean of the last whole
    /// block (of the samples so far while the first block fills).
    reference: u64,
    /// The mean distance of the reference block's samples from the
    /// reference each was judged against: how much the deltas wander.
    spread: u64,
    /// The open block's samples, and their distances, summed.
    block_sum: u64,
    block_deviation: u64,
    /// Samples accepted since the estimate (re)started, up to `WINDOW`.
    evidence: u32,
    /// Deltas rejected in a row.
    rejected: u32,
    /// Deltas accepted in a row, up to `WINDOW`: a whole window of them
    /// means the display keeps a rhythm.
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
        let delta = delta.as_nanos();
        if delta == 0 {
            return;
        }
        if delta > u64::from(u32::MAX) {
            // Nothing refreshes that slowly: a stall or a hidden window.
            self.reject();
            return;
        }
        if self.evidence == 0 {
            // The first sample is its own reference.
            self.accept(delta, 0);
            return;
        }
        match classify(delta, self.reference) {
            Some(sample) => self.accept(sample, sample.abs_diff(self.reference)),
            None => self.reject(),
        }
    }

    /// Takes `sample` (under 2³²), at `deviation` from the reference, into
    /// the window and the open block.
    fn accept(&mut self, sample: u64, deviation: u64) {
        self.rejected = 0;
        self.streak = (self.streak + 1).min(WINDOW);
        self.evidence = (self.evidence + 1).min(WINDOW);
        self.samples[self.next as usize] = sample as u32;
        self.next = (self.next + 1) % WINDOW;
        self.block_sum += sample;
        self.block_deviation += deviation;
        if self.next == 0 {
            // The block is whole: its mean is the new reference.
            self.reference = self.block_sum / u64::from(WINDOW);
            self.spread = self.block_deviation / u64::from(WINDOW);
            self.block_sum = 0;
            self.block_deviation = 0;
        } else if self.evidence < WINDOW {
            // The first block is filling: the reference is the mean so far.
            let len = u64::from(self.next);
            self.reference = self.block_sum / len;
            self.spread = self.block_deviation / len;
        }
    }

    /// A delta that fits no period: the rhythm is broken, and after eight
    /// in a row the estimate is thrown away.
    fn reject(&mut self) {
        self.rejected += 1;
        self.streak = 0;
        if self.rejected >= RESEED_AFTER {
            self.reset();
        }
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
    pub fn is_steady(&self) -> bool {
        self.streak >= WINDOW
    }

    /// The reference, when the display is steady and its deltas wander no
    /// more than `tolerance`: a period worth snapping to.
    pub(crate) fn steady_reference(&self, tolerance: Nanos) -> Option<Nanos> {
        let calm = self.evidence >= EVIDENCE && self.spread <= tolerance.as_nanos();
        if self.is_steady() && calm {
            Some(Nanos::from_nanos(self.reference))
        } else {
            None
        }
    }

    /// The estimated refresh period: the mean of the last sixteen accepted
    /// samples (of those so far while the window fills), once there are at
    /// least eight.
    pub fn period(&self) -> Option<Nanos> {
        if self.evidence < EVIDENCE {
            return None;
        }
        let sum: u64 = self.samples.iter().map(|&sample| u64::from(sample)).sum();
        Some(Nanos::from_nanos(sum / u64::from(self.evidence)))
    }

    /// The reference deltas are judged against: the mean of the last whole
    /// block of sixteen samples (of those so far while the first block
    /// fills), once there are at least eight.
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

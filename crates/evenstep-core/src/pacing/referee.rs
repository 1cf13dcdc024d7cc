//! The referee: whether display feedback or the frame stamps plan a frame,
//! decided from the frames already shown.
//!
//! Once feedback predicts where frames will be shown, every frame has two
//! candidate plans: the refreshes feedback predicts, and what the stamps
//! alone would plan (snapping, or the hysteresis rule), each as the steps
//! it would run from the bank the frame found. Both are kept for each
//! frame in flight. A report of a frame's showing, with the report before
//! it, says how many refreshes the screen spent on the frames between, and
//! so which candidates ran the right steps for them: the lab's judging
//! rule, `⌊k·r⌋` or `⌈k·r⌉` steps for `k` refreshes at `r` steps a refresh.
//! The referee keeps each source's misses over the latest [`WINDOW`]
//! frames judged, and feedback plans only while it has missed fewer than
//! the stamps. Until feedback has shown it does better, the stamps plan,
//! as without feedback; a pipeline whose latency swings (a FIFO queue
//! whose depth wanders) mispredicts feedback, not the stamps, and hands
//! planning back. Changing hands moves nothing: the source that did not
//! plan a frame has still seen it, and the bank goes on from where the
//! frame left it.

use crate::pacing::shown::FRAMES_IN_FLIGHT;

/// Frames judged that the referee remembers, for each source.
const WINDOW: u32 = u128::BITS;

/// The two sources' candidate steps for the frames in flight, and their
/// records.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Referee {
    /// For each frame in flight by slot: the steps the stamps and feedback
    /// would have run (the same, the steps that ran, when only one could
    /// plan it).
    stamps: [u32; FRAMES_IN_FLIGHT],
    fed: [u32; FRAMES_IN_FLIGHT],
    /// Bit `slot` set once the frame's candidates are known.
    known: u32,
    /// Bit `slot` set when feedback planned the frame.
    by_fed: u32,
    /// The latest frames judged, newest in the lowest bit: 1 for a miss.
    stamps_missed: u128,
    fed_missed: u128,
    stamps_score: u64,
    fed_score: u64,
    /// The latest showing judged: its span in units, and each source's
    /// steps over it (two showings are judged together too).
    previous: Option<(u128, u128, u128)>,
}

impl Referee {
    pub(crate) const fn new() -> Referee {
        Referee {
            stamps: [0; FRAMES_IN_FLIGHT],
            fed: [0; FRAMES_IN_FLIGHT],
            known: 0,
            by_fed: 0,
            stamps_missed: 0,
            fed_missed: 0,
            stamps_score: 0,
            fed_score: 0,
            previous: None,
        }
    }

    /// A new frame takes `slot`: its candidates are not known yet.
    pub(crate) fn numbered(&mut self, slot: usize) {
        self.known &= !(1 << slot);
    }

    /// The frame in `slot` had both candidates: `stamps` and `fed` steps.
    pub(crate) fn candidates(&mut self, slot: usize, stamps: u64, fed: u64) {
        self.stamps[slot] = saturate(stamps);
        self.fed[slot] = saturate(fed);
        self.known |= 1 << slot;
        self.by_fed &= !(1 << slot);
    }

    /// Feedback planned the frame in `slot`.
    pub(crate) fn fed_planned(&mut self, slot: usize) {
        self.by_fed |= 1 << slot;
    }

    /// The frame in `slot` ran `steps`: what both candidates were, unless
    /// they were told apart.
    pub(crate) fn ran(&mut self, slot: usize, steps: u64) {
        if self.known & (1 << slot) == 0 {
            self.candidates(slot, steps, steps);
        }
    }

    pub(crate) fn counts(&self) -> (u32, u32) { (self.stamps_missed.count_ones(), self.fed_missed.count_ones()) }
    /// Whether feedback has run the right steps on more of the frames
    /// judged lately than the stamps would have.
    pub(crate) fn prefers_feedback(&self) -> bool {
        if horizon() > 0 {
            return self.fed_score * u64::from(margin().max(1)) + (m_units() << 16) / 4 < self.stamps_score;
        }
        self.fed_missed.count_ones() + margin() < self.stamps_missed.count_ones()
    }

    /// Judges the frames in `slots` (the frames after the previous report,
    /// up to the one reported), shown over `units` of the step's units: the
    /// refreshes between the two reports.
    pub(crate) fn judge(
        &mut self,
        slots: impl Iterator<Item = usize>,
        refreshes: u64,
        units: u128,
        per_step: u64,
    ) {
        let (mut stamps, mut fed) = (0_u128, 0_u128);
        let mut all_fed = true;
        for slot in slots {
            all_fed &= self.by_fed & (1 << slot) != 0;
            if self.known & (1 << slot) == 0 {
                // A frame whose steps are not known: nothing to judge.
                self.previous = None;
                return;
            }
            stamps += u128::from(self.stamps[slot]);
            fed += u128::from(self.fed[slot]);
        }
        // Right alone, and right with the showing before it (a frame of 0
        // steps then one of 1 on a display twice the step rate is right;
        // two of 1 are not).
        let previous = self.previous.replace((units, stamps, fed));
        let (before, stamps_before, fed_before) = previous.unwrap_or((0, 0, 0));
        let right = |steps: u128, steps_before: u128| {
            fits(steps, units, per_step)
                && (previous.is_none() || fits(steps + steps_before, units + before, per_step))
        };
        let stamps_missed = !right(stamps, stamps_before);
        let fed_missed = if by_refresh() {
            fed != u128::from(refreshes)
        } else {
            !right(fed, fed_before)
        };
        if !all_fed || !frozen() {
            self.stamps_missed = (self.stamps_missed << 1) | u128::from(stamps_missed);
        }
        self.fed_missed = (self.fed_missed << 1) | u128::from(fed_missed);
        let h = horizon().max(1);
        self.stamps_score = self.stamps_score - self.stamps_score / h + (u64::from(stamps_missed) << 16);
        self.fed_score = self.fed_score - self.fed_score / h + (u64::from(fed_missed) << 16);
    }
}

const _: () = assert!(WINDOW == 128);

/// Whether `steps` are right for a showing of `units`: within a step of
/// them, less a 64th of a step, so that a span a whole number of steps long
/// as measured (to a report's precision) takes exactly that number. (The
/// lab's rule, `⌊k·r⌋ ≤ s ≤ ⌈k·r⌉`, for a measured `k·r`.)
fn fits(steps: u128, units: u128, per_step: u64) -> bool {
    let per_step = u128::from(per_step);
    (steps * per_step).abs_diff(units) < per_step - per_step / 64
}

fn saturate(steps: u64) -> u32 {
    u32::try_from(steps).unwrap_or(u32::MAX)
}

extern crate std;
fn margin() -> u32 {
    static M: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *M.get_or_init(|| std::env::var("REF_MARGIN").ok().and_then(|v| v.parse().ok()).unwrap_or(0))
}
fn frozen() -> bool {
    std::env::var("REF_FROZEN").is_ok()
}
pub(crate) fn settle_on_fed() -> bool {
    std::env::var("REF_SETTLE").is_ok()
}
fn horizon() -> u64 {
    static M: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *M.get_or_init(|| std::env::var("REF_H").ok().and_then(|v| v.parse().ok()).unwrap_or(0))
}
pub(crate) fn centre_fed() -> bool {
    std::env::var("REF_CENTRE").is_ok()
}
pub(crate) fn by_refresh() -> bool {
    std::env::var("REF_REFRESH").is_ok()
}
fn m_units() -> u64 {
    static M: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *M.get_or_init(|| std::env::var("REF_M").ok().and_then(|v| v.parse().ok()).unwrap_or(0))
}

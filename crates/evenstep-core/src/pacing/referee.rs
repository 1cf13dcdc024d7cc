//! The referee: whether display feedback or the frame stamps plan a frame,
//! decided from the frames already shown.
//!
//! Once feedback predicts where frames will be shown, every frame has two
//! candidate plans: the refreshes feedback predicts from the previous
//! frame's showing, and what the stamps alone plan (snapping, or the
//! hysteresis rule), as the steps it runs from the bank the frame found.
//! Both are kept for each frame in flight, whichever planned it. A report
//! of a frame's showing, with the report before it, says how many
//! refreshes the screen spent on the frames between: feedback was right if
//! it predicted that many; the stamps were right if their steps were, by
//! the lab's judging rule (`⌊k·r⌋` or `⌈k·r⌉` steps for `k` refreshes at
//! `r` steps a refresh, alone and with the showing before).
//!
//! Each source's misses are counted with a weight that fades by a
//! [`HORIZON`]th every frame judged, and feedback plans only while its
//! misses, times [`ODDS`], plus [`LEAD`], stay under the stamps'. So the
//! stamps plan until feedback has shown, over a few hundred frames, that
//! it does clearly better (a compositor with a fixed latch, where the
//! stamps jitter and the showing does not), and plan again once it stops
//! doing so (a FIFO queue whose depth swings on a slow frame, which the
//! latch model mispredicts by a refresh or two and the stamps ride out).
//! Changing hands moves nothing: the source that did not plan a frame has
//! seen it all the same, and the bank goes on from where the frame left
//! it.
//!
//! The three constants were chosen by leave-one-capture-out over the lab's
//! training captures and profiles (the lab README gives both figures).

use crate::pacing::shown::FRAMES_IN_FLIGHT;
use crate::pacing::tuning::Knob;

/// Frames judged over which a miss's weight fades by a factor of e.
pub(super) const HORIZON: Knob = Knob::new(16, "horizon", 256, &[128, 256, 512, 1024], 1..=1 << 20);
/// How many times fewer misses than the stamps feedback must have...
pub(super) const ODDS: Knob = Knob::new(17, "odds", 2, &[1, 2, 3], 1..=64);
/// ... and by how many whole misses more, before it plans.
pub(super) const LEAD: Knob = Knob::new(18, "lead", 8, &[0, 1, 2, 4, 8], 0..=1024);
/// Fractional bits of the faded counts.
const ONE: u64 = 1 << 16;

/// The two sources' candidates for the frames in flight, and their
/// records.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Referee {
    /// For each frame in flight by slot: the steps the stamps would have
    /// run, and the refreshes feedback predicted from the previous frame's
    /// showing (for a frame only the stamps could plan, its steps and no
    /// prediction).
    stamps: [u32; FRAMES_IN_FLIGHT],
    fed: [u32; FRAMES_IN_FLIGHT],
    /// Bit `slot` set once the frame's candidates are known, and once
    /// feedback predicted it.
    known: u32,
    predicted: u32,
    /// Each source's faded misses, in [`ONE`]s.
    stamps_missed: u64,
    fed_missed: u64,
    /// The latest showing judged: its span in units and the stamps' steps
    /// over it (two showings are judged together too).
    previous: Option<(u128, u128)>,
}

impl Referee {
    pub(crate) const fn new() -> Referee {
        Referee {
            stamps: [0; FRAMES_IN_FLIGHT],
            fed: [0; FRAMES_IN_FLIGHT],
            known: 0,
            predicted: 0,
            stamps_missed: 0,
            fed_missed: 0,
            previous: None,
        }
    }

    /// A new frame takes `slot`: its candidates are not known yet.
    pub(crate) fn numbered(&mut self, slot: usize) {
        self.known &= !(1 << slot);
        self.predicted &= !(1 << slot);
    }

    /// The frame in `slot` had both candidates: `stamps` steps, and
    /// `refreshes` predicted by feedback.
    pub(crate) fn candidates(&mut self, slot: usize, stamps: u64, refreshes: u64) {
        self.stamps[slot] = saturate(stamps);
        self.fed[slot] = saturate(refreshes);
        self.known |= 1 << slot;
        self.predicted |= 1 << slot;
    }

    /// The frame in `slot` ran `steps`: the stamps' candidate, unless both
    /// were told apart.
    pub(crate) fn ran(&mut self, slot: usize, steps: u64) {
        if self.known & (1 << slot) == 0 {
            self.stamps[slot] = saturate(steps);
            self.known |= 1 << slot;
        }
    }

    /// Whether feedback has lately been right clearly more often than the
    /// stamps.
    pub(crate) fn prefers_feedback(&self) -> bool {
        self.fed_missed * ODDS.get_u64() + LEAD.get_u64() * ONE < self.stamps_missed
    }

    /// Judges the frames in `slots` (those after the previous report, up to
    /// the one reported), shown over the refreshes `shown` gives, and the
    /// units of the step's `per_step` they are.
    pub(crate) fn judge(
        &mut self,
        slots: impl Iterator<Item = usize>,
        shown: impl FnOnce() -> (u64, u128),
        per_step: u64,
    ) {
        let (mut stamps, mut fed, mut predicted) = (0_u128, 0_u64, true);
        for slot in slots {
            if self.known & (1 << slot) == 0 {
                // A frame whose steps are not known: nothing to judge.
                self.previous = None;
                return;
            }
            stamps += u128::from(self.stamps[slot]);
            fed += u64::from(self.fed[slot]);
            predicted &= self.predicted & (1 << slot) != 0;
        }
        let (refreshes, units) = shown();
        let previous = self.previous.replace((units, stamps));
        let stamps_right = fits(stamps, units, per_step)
            && previous
                .is_none_or(|(before, steps)| fits(steps + stamps, before + units, per_step));
        self.stamps_missed = faded(self.stamps_missed, !stamps_right);
        // A showing feedback did not predict counts against it: it could
        // not have planned it.
        self.fed_missed = faded(self.fed_missed, !predicted || fed != refreshes);
    }
}

/// A faded count of misses after one more judgment.
fn faded(count: u64, missed: bool) -> u64 {
    count - count / HORIZON.get_u64() + if missed { ONE } else { 0 }
}

/// Whether `steps` are right for a showing of `units`: within a step of
/// them, less a 64th of a step, so that a span a whole number of steps long
/// as measured (to a report's precision) takes exactly that number. (The
/// lab's rule, `⌊k·r⌋ ≤ s ≤ ⌈k·r⌉`, for a measured `k·r`.)
fn fits(steps: u128, units: u128, per_step: u64) -> bool {
    let per_step = u128::from(per_step);
    steps.saturating_mul(per_step).abs_diff(units) < per_step - per_step / 64
}

fn saturate(steps: u64) -> u32 {
    u32::try_from(steps).unwrap_or(u32::MAX)
}

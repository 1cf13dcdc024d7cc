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
//! Feedback plans once it has been right, [`LEAD`] times, on a showing the
//! stamps got wrong, since it last got one wrong that the stamps got right;
//! that one miss hands the frames back to the stamps, and the count starts
//! again from nothing. A showing both got right, or both wrong, moves
//! nothing. A showing feedback did not predict counts as one it got wrong
//! (it could not have planned it), but for the showing of the frame where
//! its count of refreshes starts again (its first prediction, or the frame
//! after a gap), which is not judged. So the stamps plan until feedback has
//! shown that it would have done better where they went wrong (a
//! compositor with a fixed latch, where the stamps jitter and the showing
//! does not), and plan again at feedback's first miss where they would not
//! have missed (a FIFO queue whose depth swings on a slow frame, which the
//! latch model mispredicts by a refresh or two and the stamps ride out). It
//! counts wins, not a rate: where the stamps miss one showing in a hundred,
//! feedback still takes over after a dozen of them, and no constant says
//! how long a miss is remembered. Changing hands moves nothing: the source
//! that did not plan a frame has seen it all the same, and the bank goes on
//! from where the frame left it.
//!
//! The lead was chosen by leave-one-capture-out over the lab's training
//! captures and profiles (the lab README gives both figures).

use crate::pacing::shown::FRAMES_IN_FLIGHT;
use crate::pacing::tuning::Knob;

/// Showings feedback must have been right on where the stamps were wrong,
/// since it last missed one the stamps got right, before it plans.
pub(super) const LEAD: Knob = Knob::new(15, "lead", 12, &[4, 6, 8, 12, 16, 24], 0..=1 << 20);

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
    /// Bit `slot` set for a frame from which feedback's count of refreshes
    /// starts again (after a gap, or its first prediction): the showing it
    /// is in is not judged.
    opened: u32,
    /// Showings feedback got right and the stamps wrong since feedback
    /// last got one wrong that the stamps got right.
    lead: u32,
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
            opened: 0,
            lead: 0,
            previous: None,
        }
    }

    /// A new frame takes `slot`: its candidates are not known yet.
    pub(crate) fn numbered(&mut self, slot: usize) {
        self.known &= !(1 << slot);
        self.predicted &= !(1 << slot);
        self.opened &= !(1 << slot);
    }

    /// Feedback's count of refreshes starts again at the frame in `slot`.
    pub(crate) fn opens(&mut self, slot: usize) {
        self.opened |= 1 << slot;
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

    /// Whether feedback has been right often enough where the stamps were
    /// not, since it last missed where they did not.
    pub(crate) fn prefers_feedback(&self) -> bool {
        self.lead >= LEAD.get()
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
            if self.known & !self.opened & (1 << slot) == 0 {
                // A frame whose steps are not known, or where feedback's
                // count starts again: nothing to judge.
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
        // A showing feedback did not predict counts against it: it could
        // not have planned it.
        let fed_right = predicted && fed == refreshes;
        if fed_right && !stamps_right {
            self.lead = self.lead.saturating_add(1);
        } else if stamps_right && !fed_right {
            self.lead = 0;
        }
    }
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

#[cfg(test)]
mod tests {
    use super::{LEAD, Referee};

    /// Units of a step, and of a refresh: one step a refresh.
    const STEP: u64 = 1_000;

    /// A showing of one refresh of the frame in slot 0: the stamps ran
    /// `stamps` steps, feedback predicted `fed` refreshes (or nothing).
    /// Each is judged alone: a frame whose steps are unknown comes between.
    fn show(referee: &mut Referee, stamps: u64, fed: Option<u64>) {
        break_run(referee);
        referee.numbered(0);
        match fed {
            Some(refreshes) => referee.candidates(0, stamps, refreshes),
            None => referee.ran(0, stamps),
        }
        referee.judge([0].into_iter(), || (1, u128::from(STEP)), STEP);
    }

    /// A frame whose steps are unknown: the next showing is judged alone,
    /// not with the one before.
    fn break_run(referee: &mut Referee) {
        referee.numbered(1);
        referee.judge([1].into_iter(), || (1, u128::from(STEP)), STEP);
    }

    #[test]
    fn feedback_plans_after_its_lead_and_hands_back_at_its_first_loss() {
        let mut referee = Referee::new();
        for _ in 1..LEAD.get() {
            show(&mut referee, 2, Some(1)); // the stamps wrong, feedback right
            show(&mut referee, 1, Some(1)); // both right: nothing told
            show(&mut referee, 0, Some(2)); // both wrong: nothing told
        }
        assert!(!referee.prefers_feedback());
        show(&mut referee, 2, Some(1));
        assert!(referee.prefers_feedback());
        show(&mut referee, 2, Some(1));
        assert!(referee.prefers_feedback());
        // Feedback wrong where the stamps were right: the lead is gone.
        show(&mut referee, 1, Some(2));
        assert!(!referee.prefers_feedback());
        assert_eq!(referee.lead, 0);
    }

    #[test]
    fn a_showing_feedback_did_not_predict_counts_against_it_unless_its_count_started_there() {
        let mut referee = Referee::new();
        for _ in 0..LEAD.get() {
            show(&mut referee, 2, Some(1));
        }
        assert!(referee.prefers_feedback());
        // Where feedback's count starts again, a showing the stamps got
        // right is not judged.
        break_run(&mut referee);
        referee.numbered(0);
        referee.opens(0);
        referee.ran(0, 1);
        referee.judge([0].into_iter(), || (1, u128::from(STEP)), STEP);
        assert!(referee.prefers_feedback());
        // Unpredicted anywhere else, with the stamps right: feedback could
        // not have planned it, and its lead is gone.
        show(&mut referee, 1, None);
        assert!(!referee.prefers_feedback());
    }
}

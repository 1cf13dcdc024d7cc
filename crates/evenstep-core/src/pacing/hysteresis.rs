//! Hysteresis on the steps a frame runs: the rule locked pacing plans by
//! whenever it is not snapping to a display lattice. It is the rule Godot
//! ships as its physics jitter fix, in the planner's exact integers.
//!
//! The planner remembers the steps the last 1 to 12 frames ran together,
//! and from them the *typical* count of each window of frames (each window
//! runs its typical count or one more). A frame runs the plain
//! accumulator's count unless that breaks the typical pattern of some
//! window ending with it; then it runs the nearest typical count, as long as
//! the bank is within half a step of allowing it. The time a frame hands
//! the bank is pulled toward its steps' worth by at most half a step, and
//! what it gave or took is owed to the next frame's time, so none is lost:
//! each frame's move is its plan's phase shift, and the moves sum to the
//! debt outstanding, never more than half a step and a frame's delta.
//!
//! Why: frame timestamps jitter, and a bank that sits near a step boundary
//! turns that into frames of 0 and 2 steps at a steady 60 Hz. Snapping
//! removes it where the display's refreshes can be seen in the stamps;
//! everywhere else (a game presenting faster than the display, a frame
//! limiter, a deep present queue, a variable refresh display) the stamps
//! show no lattice, and this rule, which needs none, keeps a steady game on
//! its steady count from any start phase. Its constants are Godot's own,
//! not fitted here: half a step of give, twelve frames of history, and four
//! windows agreeing before a frame's time is pulled to the typical range.

use crate::pacing::tuning::Knob;

/// A frame's time is pulled toward the typical steps' worth by at most
/// this fraction of a step (Godot's half).
pub(super) const GIVE_DIVISOR: Knob = Knob::new(16, "give", 2, &[2, 3, 4], 1..=64);
/// Frames of step-count history kept.
const HISTORY: usize = 12;
/// Windows of the history that must agree on a typical range of steps a
/// frame before a frame's time is pulled into it.
pub(super) const AGREEING: Knob = Knob::new(11, "agreeing", 4, &[2, 3, 4, 6, 8], 1..=12);

/// The history of steps a frame and the time owed between frames.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Hysteresis {
    /// Steps the last `i + 1` frames ran together.
    ran: [u64; HISTORY],
    /// The typical count of `i + 1` frames: they run this or one more.
    typical: [u64; HISTORY],
    /// Time owed to the next frame (positive) or taken from it, in
    /// accumulator units.
    owed: i128,
    /// Whether a frame has been learned since the start or a gap.
    learned: bool,
    /// The pattern of the history as it stands, worked out once a frame
    /// (see [`Pattern::of`]).
    pattern: Pattern,
}

/// The fewest and most steps the next frame may run and stay typical of
/// every window ending with it, and whether such a count exists.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Pattern {
    fewest: i64,
    most: i64,
    fits: bool,
}

impl Pattern {
    /// The pattern of a history. Counts are far under 2⁶³ (steps a frame
    /// are bounded by the budget); one that is not saturates.
    const fn of(ran: &[u64; HISTORY], typical: &[u64; HISTORY]) -> Pattern {
        let mut fewest = saturate(typical[0]);
        let mut most = fewest.saturating_add(1);
        let mut i = 0;
        while i < HISTORY - 1 {
            let left = saturate(typical[i + 1]).saturating_sub(saturate(ran[i]));
            if left > most || left.saturating_add(1) < fewest {
                return Pattern {
                    fewest,
                    most,
                    fits: false,
                };
            }
            if left > fewest {
                fewest = left;
            }
            if left.saturating_add(1) < most {
                most = left.saturating_add(1);
            }
            i += 1;
        }
        Pattern {
            fewest,
            most,
            fits: true,
        }
    }
}

/// A count as an `i64`, saturating.
const fn saturate(count: u64) -> i64 {
    if count > i64::MAX as u64 {
        i64::MAX
    } else {
        count.cast_signed()
    }
}

impl Hysteresis {
    /// No history: each window of `i + 1` frames starts typical at `i`
    /// steps (a step a frame), as Godot's does. The first frame after the
    /// start or a gap, which follows no frame of the game's, moves nothing:
    /// it runs the plain accumulator's steps, whatever its length.
    pub(crate) const fn new() -> Hysteresis {
        let mut history = [0; HISTORY];
        let mut i = 0;
        while i < HISTORY {
            history[i] = i as u64;
            i += 1;
        }
        Hysteresis {
            ran: history,
            typical: history,
            pattern: Pattern::of(&history, &history),
            owed: 0,
            learned: false,
        }
    }

    /// What the frame that brings `units` to a bank of `bank` (both in
    /// accumulator units, `per_step` a step) adds to or takes from its
    /// deposit: the frame's phase shift. The debt it leaves is owed to the
    /// next frame.
    pub(crate) fn shift(&mut self, bank: u128, units: u128, per_step: u64) -> i128 {
        if !self.learned {
            self.owed = 0;
            return 0;
        }
        let (bank, units, step) = (signed(bank), signed(units), i128::from(per_step));
        let give = step / i128::from(GIVE_DIVISOR.get());
        let owed = units + self.owed;
        let (fewest, most) = (
            i128::from(self.pattern.fewest),
            i128::from(self.pattern.most),
        );
        let plain = (bank + owed).div_euclid(step).max(0);
        let steps = if plain < fewest {
            (bank + owed + give).div_euclid(step).min(fewest)
        } else if plain > most {
            (bank + owed - give).div_euclid(step).max(most)
        } else {
            plain
        }
        .max(0);
        // The time this frame hands the bank: toward the typical steps'
        // worth, within half a step of what it owes, and enough that the
        // bank after its steps lies in [0, a step].
        let spent = steps * step - bank;
        let mut time = owed;
        if let Some((low, high)) = self.typical_range(step) {
            // Not `clamp`: a range whose windows disagree may have low > high.
            time = time.max(low).min(high);
        }
        time = time.clamp(owed - give, owed + give);
        // Under a step left banked, so the planner's whole steps are these.
        time = time.clamp(spent, spent + step - 1);
        self.owed = owed - time;
        time - units
    }

    /// The frame ran `steps` (the planner's count, budget drops included):
    /// the history learns it, and a count outside a window's typical range
    /// moves that range to it.
    pub(crate) fn ran(&mut self, steps: u64) {
        let Pattern { fewest, most, fits } = self.pattern;
        let counted = saturate(steps);
        let off_pattern = !fits || counted < fewest || counted > most;
        for i in (1..HISTORY).rev() {
            self.ran[i] = self.ran[i - 1].saturating_add(steps);
        }
        self.ran[0] = steps;
        self.learned = true;
        if off_pattern {
            for (typical, &ran) in self.typical.iter_mut().zip(&self.ran) {
                *typical = (*typical).clamp(ran.saturating_sub(1), ran);
            }
        }
        self.pattern = Pattern::of(&self.ran, &self.typical);
    }

    /// Forgets the debt: the bank was moved by another rule (a snap).
    /// Starts again, as [`new`](Hysteresis::new). Until a frame is
    /// learned nothing has changed since then, so a hysteresis that has
    /// learned none is left as it is: every hidden frame (a host's rooms,
    /// a server's loops, under any pacing) forgets, and rebuilding the
    /// history each time wrote some 250 bytes of a loop out of the cache.
    pub(crate) fn forget(&mut self) {
        if self.learned {
            *self = Hysteresis::new();
        }
    }

    pub(crate) fn settle_debt(&mut self) {
        self.owed = 0;
    }

    /// The range of a frame's time, in units, that keeps the steps a frame
    /// averaged over the history typical, when at least [`AGREEING`]
    /// windows agree on one.
    fn typical_range(&self, step: i128) -> Option<(i128, i128)> {
        let mut low = i128::from(self.typical[0]) * step;
        let mut high = low + step;
        for (i, &typical) in self.typical.iter().enumerate().skip(1) {
            let frames = i as i128 + 1;
            let at_least = i128::from(typical) * step / frames;
            if at_least > high {
                return (i >= AGREEING.get() as usize).then_some((low, high));
            }
            low = low.max(at_least);
            let at_most = (i128::from(typical) + 1) * step / frames;
            if at_most < low {
                return (i >= AGREEING.get() as usize).then_some((low, high));
            }
            high = high.min(at_most);
        }
        Some((low, high))
    }
}

/// A `u128` of units as an `i128`: banks and deposits are far under 2¹²⁷.
fn signed(units: u128) -> i128 {
    i128::try_from(units).unwrap_or(i128::MAX)
}

#[cfg(test)]
mod tests {
    use super::Hysteresis;

    #[test]
    fn forgetting_leaves_what_a_new_one_holds_whether_or_not_it_learned() {
        let fresh = Hysteresis::new();
        // Asked to shift before learning a frame: nothing to keep.
        let mut unlearned = Hysteresis::new();
        assert_eq!(unlearned.shift(3, 1_000, 600), 0);
        unlearned.settle_debt();
        assert_eq!(unlearned, fresh);
        unlearned.forget();
        assert_eq!(unlearned, fresh);
        // One frame learned: forgetting starts again.
        let mut learned = Hysteresis::new();
        learned.ran(2);
        assert_ne!(learned, fresh);
        learned.forget();
        assert_eq!(learned, fresh);
    }
}

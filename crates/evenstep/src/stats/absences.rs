//! Absences: gaps between paints across which the frame source was not
//! showing the loop's frames (a hidden window, not a slow frame). They are
//! counted, and kept out of every gap statistic.

use evenstep_core::{Nanos, Timestamp};

/// Tells the gaps between paints that describe a frame from the absences.
#[derive(Clone, Copy, Debug)]
pub(super) struct Absences {
    /// A gap at or over this is an absence.
    threshold: Nanos,
    /// Clock reading of the previous paint, if any since the last re-base.
    last_paint: Option<Timestamp>,
    /// Set when the frame source said its frames stopped being shown: the
    /// gap to the next paint is an absence, however short.
    away: bool,
    count: u64,
}

impl Absences {
    pub(super) fn new(threshold: Nanos) -> Absences {
        Absences {
            threshold,
            last_paint: None,
            away: false,
            count: 0,
        }
    }

    /// Forgets the count, keeping the previous paint.
    pub(super) fn reset(&mut self) {
        self.count = 0;
    }

    /// Forgets the previous paint, so the next paint starts a new gap.
    pub(super) fn rebase(&mut self) {
        self.last_paint = None;
        self.away = false;
    }

    /// The frame source stopped showing frames: the gap from the last paint
    /// to the next one is an absence.
    pub(super) fn begin(&mut self) {
        self.away = self.last_paint.is_some();
    }

    /// A paint at `now`: the gap since the previous paint if it describes a
    /// frame, or `None` for the first paint since a re-base, an absence
    /// (counted), or a gap of zero.
    #[inline]
    pub(super) fn frame_gap(&mut self, now: Timestamp) -> Option<Nanos> {
        let away = core::mem::take(&mut self.away);
        let previous = self.last_paint.replace(now)?;
        let gap = now.saturating_since(previous);
        if away {
            self.count += 1;
            return None;
        }
        if gap.is_zero() {
            // Painted at the same instant, or the clock stepped back: no
            // time passed between the pictures that a gap could describe.
            return None;
        }
        if gap >= self.threshold {
            self.count += 1;
            return None;
        }
        Some(gap)
    }

    /// Absences since the last reset.
    pub(super) fn count(&self) -> u64 {
        self.count
    }
}

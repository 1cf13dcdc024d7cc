//! How pacing places a frame's time: the stamps' snap or hysteresis, and,
//! once display feedback predicts, the referee's choice between the two.

use super::{FrameLoop, signed};
use crate::pacing::Snap;
use crate::{Nanos, Speed, Timestamp};

impl FrameLoop {
    /// Whether and how pacing snaps the frame at `now` once display
    /// feedback has started a lattice. The timestamps plan the frame as
    /// without feedback; once feedback predicts its refreshes too, both
    /// candidates go to the referee, which has decided from the frames
    /// already shown which of the two stands (see `pacing/referee.rs`).
    /// Out of line, so that the frame of a game without feedback is planned
    /// in place without it.
    pub(super) fn pace(&mut self, now: Timestamp, raw: Nanos) -> Option<Snap> {
        let predicted = self.shown.refreshes_to(now);
        let stamps = self.snap(now, raw);
        if self.speed.is_paused() || raw.is_zero() {
            return stamps;
        }
        let Some((refreshes, fed)) = predicted.and_then(|(refreshes, period)| {
            let snap = self.snapper.snap_shown(refreshes, period, self.timestep)?;
            Some((refreshes, snap))
        }) else {
            return stamps;
        };
        if self.speed == Speed::NORMAL {
            // The stamps' candidate: the steps their snap, or the delta
            // itself, takes from the bank.
            let units = stamps.map_or_else(
                || signed(self.timestep.nanos_to_units(raw)),
                |snap| i128::from(snap.units),
            );
            let banked = (signed(self.bank.units()) + units).max(0);
            let steps = banked / i128::from(self.timestep.units_per_step());
            let steps = u64::try_from(steps).unwrap_or(u64::MAX);
            self.shown.candidates(steps, refreshes);
        }
        // At another speed the referee's verdict so far stands.
        if self.shown.feedback_plans() {
            Some(fed)
        } else {
            stamps
        }
    }

    /// Shows a shown frame to the display model and, if the pacing snaps,
    /// snaps it to the refreshes it spans.
    pub(super) fn snap(&mut self, now: Timestamp, raw: Nanos) -> Option<Snap> {
        let paused = self.speed.is_paused();
        let snap = self
            .snapper
            .snap(now, raw, self.pacing, self.timestep, paused);
        if snap.is_some() {
            // A snap places the bank: what the hysteresis owed is settled.
            self.snapper.hysteresis.settle_debt();
        } else if !raw.is_zero() && self.pacing.needs_lattice() {
            return self.hold_pattern(raw);
        }
        snap
    }

    /// Locked pacing's frame when it does not snap: the delta moved by the
    /// hysteresis rule (see `pacing/hysteresis.rs`), at normal speed only.
    /// A frame the budget clamps (a stall: its rhythm is lost anyway, and
    /// what it drops is reported exactly), and every frame at another speed
    /// (so slow and fast motion keep their exact rate), plan as pacing off
    /// does, and the debt is settled.
    fn hold_pattern(&mut self, raw: Nanos) -> Option<Snap> {
        let units = self.timestep.nanos_to_units(raw);
        let per_step = self.timestep.units_per_step();
        let stall =
            (self.bank.units() + units) / u128::from(per_step) > u128::from(self.budget.get());
        let hysteresis = &mut self.snapper.hysteresis;
        if self.speed != Speed::NORMAL || stall {
            hysteresis.settle_debt();
            return None;
        }
        let shift = hysteresis.shift(self.bank.units(), units, per_step);
        Snap::moved(signed(units) + shift)
    }
}

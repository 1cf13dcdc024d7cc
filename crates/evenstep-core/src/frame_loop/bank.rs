//! The bank: the time a planner has been given and not yet spent on steps,
//! and the phase shifts pacing has made to it. The planner alone holds and
//! moves it; pacing only says where it should be (a snap, a lattice to
//! centre on, a delta moved by the hysteresis rule).

/// Banked time in accumulator units, and the shifts made to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Bank {
    /// Under one step after every frame. Between a change to a shorter
    /// step, or a refund of steps, and the next frame it may hold whole
    /// steps, which that frame runs under its budget; 128 bits, so that no rate change can
    /// overflow it.
    units: u128,
    /// Every plan's phase shift, summed (wrapping: 2¹²⁷ units is never
    /// reached, and a wrap cannot panic).
    shift_total: i128,
    /// A phase shift made outside a frame (a pacing change), which the next
    /// plan reports.
    pending: i128,
}

impl Bank {
    /// A bank holding `units`, with no shift made.
    pub(super) const fn holding(units: u128) -> Bank {
        Bank {
            units,
            shift_total: 0,
            pending: 0,
        }
    }

    /// The banked units.
    pub(super) const fn units(&self) -> u128 {
        self.units
    }

    /// The banked units, if they fit 64 bits (always, after a frame).
    pub(super) fn units_64(&self) -> Option<u64> {
        u64::try_from(self.units).ok()
    }

    /// Every plan's phase shift so far, summed.
    pub(super) const fn shift_total(&self) -> i128 {
        self.shift_total
    }

    /// The shift the next plan will report on top of its own.
    pub(super) const fn pending(&self) -> i128 {
        self.pending
    }

    /// After a frame: the bank holds `units`, and the frame's plan reports
    /// `shift` (what is pending included: see [`take_pending`](Bank::take_pending)).
    pub(super) fn settle(&mut self, units: u64, shift: i128) {
        self.units = u128::from(units);
        self.shift_total = self.shift_total.wrapping_add(shift);
    }

    /// Steps given back after a frame: `units` more in the bank, which the
    /// next frame runs under its budget.
    pub(super) fn refund(&mut self, units: u128) {
        self.units += units;
    }

    /// The pending shift, for the plan that reports it.
    pub(super) fn take_pending(&mut self) -> i128 {
        core::mem::take(&mut self.pending)
    }

    /// Moves the part of the bank under a step to `part`, outside a frame:
    /// the next plan reports the move. Whole steps stay.
    pub(super) fn move_part(&mut self, part: u64, per_step: u64) {
        let per_step = u128::from(per_step);
        let (whole, old) = (self.units - self.units % per_step, self.units % per_step);
        self.pending += super::signed(u128::from(part)) - super::signed(old);
        self.units = whole + u128::from(part);
    }

    /// The same time in another step's units (`from` and `to` units a
    /// nanosecond): what is pending counts as reported, since the next plan
    /// reports in the new units.
    pub(super) fn rescale(&mut self, from: u64, to: u64) {
        // Under 2⁶⁴ times under 2⁶⁴: the product fits, and the bank keeps
        // every whole step of the new rate it holds.
        self.units = self.units * u128::from(to) / u128::from(from);
        self.shift_total = self.shift_total.wrapping_add(self.take_pending());
    }
}

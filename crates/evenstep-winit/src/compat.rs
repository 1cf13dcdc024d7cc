//! Stand-ins for two driver methods that are being added to `evenstep`
//! (`Loop::pump_at` and `Loop::next_due`), written with what the loop
//! offers today. Removed once the driver has them.

use evenstep::{Loop, Nanos, Pump, PumpKind, Timestamp};

pub(crate) trait LoopExt<S> {
    fn pump_at(&mut self, state: &mut S, kind: PumpKind, now: Timestamp) -> Pump;
    fn next_due(&self) -> Option<Timestamp>;
}

impl<S> LoopExt<S> for Loop<S> {
    fn pump_at(&mut self, state: &mut S, kind: PumpKind, _now: Timestamp) -> Pump {
        // The loop reads the same clock the driver just read.
        self.pump(state, kind)
    }

    fn next_due(&self) -> Option<Timestamp> {
        if !self.is_running() {
            return None;
        }
        let planner = self.planner();
        let last = planner.last_frame();
        if self.is_paused() {
            // Real timers only: look again in a tenth of a second.
            return Some(last.saturating_add(Nanos::from_millis(100)));
        }
        let step = planner.timestep();
        let missing = u128::from(step.units_per_step().saturating_sub(planner.remainder_units()));
        let speed = self.speed();
        let per_ns = u128::from(step.units_per_nanosecond()) * u128::from(speed.numerator());
        let raw = (missing * u128::from(speed.denominator())).div_ceil(per_ns.max(1));
        Some(last.saturating_add(Nanos::from_nanos(u64::try_from(raw).unwrap_or(u64::MAX))))
    }
}

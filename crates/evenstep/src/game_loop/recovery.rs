//! Recovery after a panic: the loop remembers the pump in progress and the
//! steps it planned, so that after a callback panicked out of a pump the
//! next call on the loop puts it in its documented post-panic state.

use evenstep_core::FramePlan;

use crate::game_loop::{Loop, Run};

/// The pump in progress, as far as a panic out of it needs to know.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Recovery {
    /// True while a pump runs; still true at the next call only if a
    /// callback panicked out of the previous one.
    in_pump: bool,
    /// The steps of the pump in progress.
    in_flight: InFlight,
    /// Steps of the pump in progress an update gave back.
    given_back: u64,
}

/// The steps a pump planned, `next..end`. Kept in the loop, not in the
/// pump's locals, so that after a callback panicked out of a pump the next
/// call on the loop knows which steps began (they keep their ticks) and
/// which never did (they are dropped).
#[derive(Clone, Copy, Debug)]
struct InFlight {
    /// The tick of the next step to begin.
    next: u64,
    /// The tick the plan's steps end at: the planner's tick once it planned.
    end: u64,
}

impl InFlight {
    /// Nothing planned: the next step is `tick`.
    #[inline]
    fn idle(tick: u64) -> InFlight {
        InFlight {
            next: tick,
            end: tick,
        }
    }

    /// The steps of `plan`, none begun yet.
    #[inline]
    fn planned(plan: &FramePlan) -> InFlight {
        InFlight {
            next: plan.first_tick(),
            end: plan.end_tick(),
        }
    }

    /// Planned steps that have not begun.
    #[inline]
    fn not_begun(&self) -> u64 {
        self.end - self.next
    }
}

impl Recovery {
    /// No pump in progress.
    pub(crate) fn new() -> Recovery {
        Recovery {
            in_pump: false,
            in_flight: InFlight::idle(0),
            given_back: 0,
        }
    }

    /// A pump (or a catch-up) begins at `tick`, with no step planned yet: a
    /// panic before the plan abandons nothing.
    #[inline]
    pub(crate) fn enter(&mut self, tick: u64) {
        self.in_pump = true;
        self.in_flight = InFlight::idle(tick);
        self.given_back = 0;
    }

    /// The steps of `plan` are planned, none begun yet: a panic from here
    /// on abandons those not begun.
    #[inline]
    pub(crate) fn planned(&mut self, plan: &FramePlan) {
        self.in_flight = InFlight::planned(plan);
    }

    /// The pump in progress ended without a panic.
    #[inline]
    pub(crate) fn leave(&mut self) {
        self.in_pump = false;
    }

    /// Whether a callback panicked out of the previous pump (or a pump is
    /// running, as seen from inside it).
    #[inline]
    pub(crate) fn in_pump(&self) -> bool {
        self.in_pump
    }

    /// Begins the next planned step: its tick, or `None` once every planned
    /// step began. A step's tick is counted as it begins.
    #[inline]
    pub(crate) fn begin_step(&mut self) -> Option<u64> {
        let tick = self.in_flight.next;
        if tick < self.in_flight.end {
            self.in_flight.next = tick + 1;
            Some(tick)
        } else {
            None
        }
    }

    /// The tick of the next step to begin.
    /// The step `tick` and the rest of the plan, `count` steps, were given
    /// back: none of them is in flight, and `tick` is the next.
    pub(crate) fn give_back(&mut self, tick: u64, count: u64) {
        self.in_flight = InFlight::idle(tick);
        self.given_back += count;
    }

    /// Steps of the pump in progress given back (not abandoned).
    pub(crate) fn given_back(&self) -> u64 {
        self.given_back
    }

    #[inline]
    pub(crate) fn next_tick(&self) -> u64 {
        self.in_flight.next
    }

    /// Planned steps that have not begun.
    #[inline]
    pub(crate) fn not_begun(&self) -> u64 {
        self.in_flight.not_begun()
    }
}

impl<S> Loop<S> {
    /// Puts the loop in its documented post-panic state if a callback
    /// panicked out of the previous pump: stopped, numbering the next step
    /// after the last one begun, with the steps the pump never began
    /// reported as dropped.
    pub(crate) fn recover(&mut self) {
        if !self.recovery.in_pump() {
            return;
        }
        self.recovery.leave();
        self.steering.control.clear_stop();
        self.run = Run::Stopped;
        self.stats
            .record_abandoned(self.recovery.not_begun(), self.frames.timestep());
        self.frames.set_tick(self.recovery.next_tick());
        // A timer callback may have been the one that panicked.
        self.real.recover();
        self.sim.recover();
    }
}

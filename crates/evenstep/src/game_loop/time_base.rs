//! The loop's time base: its clock, the time of the previous pump, and the
//! real time the pumps have accounted for.

use evenstep_core::{Nanos, Timestamp};

use crate::clock::Clock;

/// The clock and the pump times read from it.
pub(crate) struct TimeBase {
    clock: Box<dyn Clock>,
    last_pump: Timestamp,
    /// The latest time a stamp given to `pump_at` set (or the start): a
    /// clock reading behind it is taken as it, so a host that mixes stamped
    /// and clock pumps never runs the loop's time backwards.
    stamped: Timestamp,
    real_time: Nanos,
}

impl TimeBase {
    /// A time base on `clock`, not anchored yet.
    pub(crate) fn new(clock: Box<dyn Clock>) -> TimeBase {
        TimeBase {
            clock,
            last_pump: Timestamp::ZERO,
            stamped: Timestamp::ZERO,
            real_time: Nanos::ZERO,
        }
    }

    /// The clock.
    pub(crate) fn clock(&self) -> &dyn Clock {
        &*self.clock
    }

    /// A clock reading.
    #[inline]
    pub(crate) fn read(&self) -> Timestamp {
        self.clock.now()
    }

    /// Anchors the pumps at a clock reading taken now, and returns it: the
    /// next pump's delta is measured from here.
    pub(crate) fn anchor(&mut self) -> Timestamp {
        let now = self.clock.now();
        self.last_pump = now;
        self.stamped = now;
        now
    }

    /// A pump's accounting time, given the clock reading it `started` at
    /// and the stamp it was `supplied`, if any: never earlier than a stamp
    /// given before, nor than the previous pump for a stamp.
    #[inline]
    pub(crate) fn accounting_time(
        &mut self,
        started: Timestamp,
        supplied: Option<Timestamp>,
    ) -> Timestamp {
        match supplied {
            None => started.max(self.stamped),
            Some(stamp) => {
                self.stamped = stamp.max(self.last_pump);
                self.stamped
            }
        }
    }

    /// Moves the pumps' time to `now`, and real time with it: returns the
    /// real time elapsed since the previous pump, unclamped and unpaused.
    #[inline]
    pub(crate) fn advance_to(&mut self, now: Timestamp) -> Nanos {
        let elapsed = now.saturating_since(self.last_pump);
        self.last_pump = now;
        self.real_time += elapsed;
        elapsed
    }

    /// The accounting time of the previous pump (or the start).
    #[inline]
    pub(crate) fn last_pump(&self) -> Timestamp {
        self.last_pump
    }

    /// Real time: unclamped, unpaused elapsed time over the pumps.
    #[inline]
    pub(crate) fn real_time(&self) -> Nanos {
        self.real_time
    }
}

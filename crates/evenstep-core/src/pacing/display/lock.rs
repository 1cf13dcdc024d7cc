//! Following a lattice once found: each stamp counted on its nearest
//! lattice point, the phase and period nudged toward it, the spread and
//! the share of stray stamps kept, and the lattice let go when the stamps
//! wander off it.

use super::line::Line;
use super::{
    FRACTION_BITS, SETTLING_FRAMES, STALL_NANOS, STALL_REFRESHES, STRAYS_LOST, STRAYS_ONE,
};
use crate::Timestamp;

/// A lattice being followed. Times are in 2⁻¹⁶ ns from `origin`, which is
/// kept at most a few seconds back (see `stamp`), so every one fits 52
/// bits and signed arithmetic on them cannot overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct Lock {
    /// The period in 2⁻¹⁶ ns.
    pub(super) period: i64,
    /// The lattice point the latest stamp was counted on.
    pub(super) point: i64,
    /// A timestamp the point is measured from, so the point fits 64 bits.
    pub(super) origin: Timestamp,
    /// The running average distance of stamps from their points (those
    /// within a quarter period), in ns.
    pub(super) spread: u64,
    /// Frames followed since the lock, up to `SETTLING_FRAMES`.
    pub(super) age: u32,
    /// The running share of stamps more than a quarter period from their
    /// points, in 1/`STRAYS_ONE`.
    pub(super) strays: u32,
    /// The point the period was last measured from, and the refreshes
    /// counted since: see [`measure_period`](Lock::measure_period).
    pub(super) baseline: i64,
    pub(super) since: u64,
}

impl Lock {
    /// How far before a point its origin is kept, in ns: far enough that a
    /// point never goes behind it, near enough that a point fits 64 bits
    /// with its fraction for hours.
    const ORIGIN_LEAD: u64 = 1_000_000_000;

    /// A fresh lattice on `line` (its slope `period`, in 2⁻¹⁶ ns), with
    /// the window's `spread`, its latest point the one `now` was counted
    /// on and its origin `ORIGIN_LEAD` before `now`.
    pub(super) fn on_line(line: &Line, period: u64, spread: u64, now: Timestamp) -> Option<Lock> {
        // The latest stamp's point, measured from the latest stamp itself.
        let (x, y) = line.latest;
        let to_point = line.offset + line.slope * x - (y << FRACTION_BITS);
        let origin = Timestamp::from_nanos(now.as_nanos().saturating_sub(Lock::ORIGIN_LEAD));
        let lead = now.saturating_since(origin).as_nanos();
        let point = (i128::from(lead) << FRACTION_BITS) + to_point;
        Some(Lock {
            period: as_signed(period),
            point: i64::try_from(point).ok()?,
            origin,
            spread,
            age: 0,
            // A fresh lattice starts under suspicion: a few stamps of a
            // display with no rhythm can fit one, and the next few stray.
            strays: STRAYS_ONE / 4,
            baseline: i64::try_from(point).ok()?,
            since: 0,
        })
    }

    /// Measures the period over a long baseline: the lattice's span from
    /// the point it was last measured from (where it settled, at first),
    /// over the refreshes counted since. The phase-locked updates follow
    /// the period frame by frame,
    /// which is noisy while the stamps swing; the span of many refreshes
    /// pins it (to a 32nd of the stamps' spread over 32 refreshes, a 1024th
    /// over 1024), and each measurement doubles the baseline. From 4096
    /// refreshes on it starts over, so a period that drifts is still
    /// followed.
    #[cold]
    fn measure_period(&mut self) {
        if self.since >= 32 {
            let since = i64::try_from(self.since).unwrap_or(i64::MAX);
            let measured = (self.point - self.baseline) / since;
            self.period = measured.max(1 << FRACTION_BITS);
        }
        if self.since >= 4096 {
            self.baseline = self.point;
            self.since = 0;
        }
    }

    /// Counts the stamp `now` on its nearest lattice point, moves the phase
    /// and the period toward it, and returns the refreshes since the
    /// previous point.
    pub(super) fn follow(&mut self, now: Timestamp) -> u64 {
        let stamp = self.stamp(now);
        // The frame is judged on the period it arrived on, before it moves.
        let period_nanos = self.period.unsigned_abs() >> FRACTION_BITS;
        let (refreshes, nearest) = self.nearest_point(stamp);
        let distance = stamp - nearest;
        self.pull(nearest, distance, refreshes, period_nanos);
        self.weigh(distance, period_nanos);
        let refreshes = refreshes.unsigned_abs();
        self.count_refreshes(refreshes, period_nanos);
        refreshes
    }

    /// The lattice point `stamp` counts on, and the refreshes from the
    /// previous point to it.
    ///
    /// A stamp counts on the point after the previous one from a quarter
    /// period before it to three quarters after: frames are held back by
    /// the display and come late, rarely early, so a stamp late by more
    /// than half a period has usually still made its refresh. One further
    /// back counts on the previous point; the usual frame, one refresh,
    /// needs no division.
    fn nearest_point(&self, stamp: i64) -> (i64, i64) {
        let (point, period) = (self.point, self.period);
        let quarter = period / 4;
        let late = stamp - point - period;
        if -quarter <= late && late < period - quarter {
            (1, point + period)
        } else if late < -quarter {
            (0, point)
        } else {
            let refreshes = (stamp - point + quarter) / period;
            (refreshes, point + refreshes * period)
        }
    }

    /// Moves the phase to `nearest` plus an eighth of the stamp's
    /// `distance` from it, and the period by 1/512 of the distance per
    /// refresh (a quarter and 1/32 while the lattice settles). One outlier
    /// is heard, not obeyed: a distance counts at most three times the
    /// spread plus a sixteenth of a period.
    fn pull(&mut self, nearest: i64, distance: i64, refreshes: i64, period_nanos: u64) {
        let limit = as_signed((3 * self.spread + period_nanos / 16) << FRACTION_BITS);
        let heard = distance.clamp(-limit, limit);
        let (phase_nudge, period_nudge) = if self.age < SETTLING_FRAMES.get() {
            (heard >> 2, heard >> 5)
        } else {
            (heard >> 3, heard >> 9)
        };
        self.point = nearest + phase_nudge;
        // A frame of one refresh, the usual one, needs no division.
        let period_nudge = match refreshes {
            0 => 0,
            1 => period_nudge,
            _ => period_nudge / refreshes,
        };
        self.period = (self.period + period_nudge).max(1 << FRACTION_BITS);
    }

    /// Folds a stamp's `distance` from its point into the spread and the
    /// share of strays, each over about sixteen frames. The spread keeps
    /// only the stamps within a quarter period of their points: a slow
    /// frame now and then is a stray, not noise, while a game that has
    /// left the lattice, or a display that keeps none, strays half the
    /// time.
    fn weigh(&mut self, distance: i64, period_nanos: u64) {
        let nanos = distance.unsigned_abs() >> FRACTION_BITS;
        if nanos <= period_nanos / 4 {
            self.spread = (self.spread * 15 + nanos) / 16;
            self.strays = self.strays * 15 / 16;
        } else {
            self.strays = (self.strays * 15 + STRAYS_ONE) / 16;
        }
    }

    /// Counts a frame of `refreshes` toward the lattice's age and toward
    /// the baseline the period is measured over. A stall of several
    /// refreshes may be the game changing its pace: the lattice settles
    /// again before it is trusted as before.
    fn count_refreshes(&mut self, refreshes: u64, period_nanos: u64) {
        let settling = self.age < SETTLING_FRAMES.get();
        let stall = refreshes > STALL_REFRESHES.get_u64()
            && refreshes.saturating_mul(period_nanos) > STALL_NANOS;
        self.age = if stall {
            0
        } else {
            (self.age + 1).min(SETTLING_FRAMES.get())
        };
        if settling {
            // The period is measured from where the lattice has settled.
            self.baseline = self.point;
            self.since = 0;
        } else {
            let before = self.since;
            self.since = before.saturating_add(refreshes);
            if self.since.max(1).ilog2() > before.max(1).ilog2() {
                self.measure_period();
            }
        }
    }

    /// Whether the stamps have wandered too far from the lattice to keep it.
    pub(super) fn is_lost(&self) -> bool {
        self.strays > STRAYS_LOST.get()
    }

    /// The time from the origin to `now`, in 2⁻¹⁶ ns, once the origin has
    /// been moved up to `ORIGIN_LEAD` before `now` (keeping the point where
    /// it is in time): it fits 52 bits.
    fn stamp(&mut self, now: Timestamp) -> i64 {
        let mut since = now.saturating_since(self.origin).as_nanos();
        if since > 2 * Lock::ORIGIN_LEAD {
            since -= self.move_origin(since - Lock::ORIGIN_LEAD);
        }
        small(since << FRACTION_BITS)
    }

    /// Moves the origin `step` ns later (no further than the point), and
    /// returns how far it moved.
    #[cold]
    fn move_origin(&mut self, step: u64) -> u64 {
        let step = step.min(self.point.max(0).unsigned_abs() >> FRACTION_BITS);
        self.origin = Timestamp::from_nanos(self.origin.as_nanos() + step);
        let moved = as_signed(step) << FRACTION_BITS;
        self.point -= moved;
        self.baseline -= moved;
        step
    }
}

/// A value the lattice keeps far under 2⁶³ (a few seconds in 2⁻¹⁶ ns, or
/// a distance bounded by the spread, which is bounded by the period).
fn small(value: u64) -> i64 {
    #[allow(clippy::cast_possible_wrap, reason = "the value is far under 2^63")]
    let value = value as i64;
    value
}

/// A value under 2⁶³ (every value of a followed lattice is far under).
fn as_signed(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

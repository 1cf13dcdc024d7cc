//! Display feedback: planning each frame for the moment it will be shown.
//!
//! A platform that reports when each frame reached the screen (Vulkan's
//! present timing, DXGI's frame statistics, Wayland's presentation time,
//! Android's frame pacing, `CADisplayLink`) tells the planner two things a
//! frame's own timestamp cannot: where the display's refreshes fall, and
//! how long the pipeline takes from a frame's timestamp to its refresh.
//! This file keeps both, learned from the reports, and the frames still in
//! flight that a report can name. With them, a new frame's refresh is
//! predicted from its timestamp, and the frame banks the refreshes from the
//! previous frame's predicted refresh to its own: the steps the player will
//! see, whatever the jitter of the timestamps.
//!
//! **The lattice.** Shown times sit on the display's refreshes. The first
//! two reports give a first period; a later gap that fits no whole number
//! of it but a whole number of a half, a third, ... an eighth of it makes
//! that the period (a game showing every other refresh first, then every
//! one); and the period is measured over the whole span since the lattice
//! was found, so it is exact to the reports' own precision divided by the
//! refreshes counted. A report more than an eighth of a period from the
//! lattice (a refresh-rate change, a variable-refresh display, a
//! nonsensical report) starts the lattice over from that report.
//!
//! **The latency.** A frame stamped at `t` is shown at the first refresh
//! at or after `t + c`, for a latch offset `c` the pipeline keeps (a
//! compositor or a mailbox swap chain takes the latest frame ready a fixed
//! time before each refresh). A report of a frame stamped `t` and shown at
//! `d` says `c` lies in `(d - t - period, d - t]`; the planner keeps the
//! intersection of those intervals, widening it by 1/128 of a period a
//! report so that a pipeline that changes is followed, and predicts with
//! its middle. When a report leaves nothing of the interval, it starts
//! again from that report alone: a pipeline whose latency swings by whole
//! refreshes (a FIFO queue whose depth wanders, a GPU-bound game whose
//! frames wait on the GPU) keeps starting over and is not predicted;
//! frames are then planned from their timestamps, as without feedback.
//!
//! **Trust.** Predictions are made once eight reports have fitted the
//! lattice and the latency interval has held for eight, from the second
//! frame planned after that (the first sets where the count starts), and
//! every report judges the prediction made for its frame: a hit if it
//! named the refresh the frame was shown at. Frames are planned from
//! feedback while the latest four predictions judged were all hits, so a
//! pipeline whose showing depends on what the timestamps cannot tell (a
//! GPU-bound game, whose frames wait on the GPU) is planned from the
//! timestamps, as without feedback.

use crate::frame_id::{FeedbackError, FrameId};
use crate::{Nanos, Timestamp};

/// How many of the latest planned frames a report can name.
pub const FRAMES_IN_FLIGHT: usize = 32;

/// Reports fitted to the lattice, and reports with a consistent latency,
/// needed before feedback plans frames.
const TRUST_AFTER: u32 = 8;
/// A shown time fits the lattice within an eighth of a period.
const FIT_DIVISOR: i128 = 8;
/// The finest division of a first period tried when a gap does not fit it.
const MOST_DIVISIONS: i128 = 8;
/// The latency interval widens by this fraction of a period a report.
const WIDEN_DIVISOR: i128 = 128;
/// The longest gap between reports, in ns (about 4.3 s), over which a
/// lattice is kept: past it the lattice starts over.
const MOST_GAP_NANOS: u64 = u32::MAX as u64;
/// Predictions in a row that must have named the refresh a frame was shown
/// at before feedback plans frames (and the most remembered).
const PROVEN_AFTER: u32 = 4;
/// A frame with no prediction, in [`Shown::predicted`].
const NOT_PREDICTED: u32 = u32::MAX;
/// Fractional bits of times and periods on the lattice.
const FRACTION_BITS: u32 = 16;

/// What the reports have taught about the display, for a game to read
/// (see [`FrameLoop::shown_display`](crate::FrameLoop::shown_display)).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShownDisplay {
    period: Nanos,
    latest_refresh: Timestamp,
    latency: Option<Nanos>,
    trusted: bool,
}

impl ShownDisplay {
    /// The refresh period measured from the shown times (to the
    /// nanosecond; it is kept to 1/65536 ns).
    pub const fn period(&self) -> Nanos {
        self.period
    }

    /// The latest refresh a report fell on: with the period, where every
    /// refresh falls.
    pub const fn latest_refresh(&self) -> Timestamp {
        self.latest_refresh
    }

    /// The pipeline's latch offset: a frame stamped `t` is shown at the
    /// first refresh at or after `t` plus this (`None` while the reports
    /// give no consistent one, or while it would be negative).
    pub const fn latency(&self) -> Option<Nanos> {
        self.latency
    }

    /// Whether frames are being planned from feedback.
    pub const fn is_trusted(&self) -> bool {
        self.trusted
    }
}

/// The refresh lattice learned from shown times. Times are absolute, in
/// 2⁻¹⁶ ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ShownLattice {
    /// The latest report's shown time: a refresh.
    point: i128,
    /// The period; zero until a second report.
    period: i128,
    /// The report the period is measured from, and the refreshes counted
    /// since.
    base: i128,
    since: i128,
    /// Reports fitted since the lattice was started.
    fitted: u32,
}

impl ShownLattice {
    /// A lattice started at the shown time `at`.
    const fn at(at: i128) -> ShownLattice {
        ShownLattice {
            point: at,
            period: 0,
            base: at,
            since: 0,
            fitted: 0,
        }
    }

    /// Fits the shown time `at` (later than the latest point), refining the
    /// period; a lattice started over at `at` if it does not fit.
    fn fit(self, at: i128) -> ShownLattice {
        let gap = at - self.point;
        if gap > i128::from(MOST_GAP_NANOS) << FRACTION_BITS {
            return ShownLattice::at(at);
        }
        if self.period == 0 {
            return ShownLattice {
                point: at,
                period: gap,
                since: 1,
                fitted: 1,
                ..self
            };
        }
        // The usual report: one refresh after the latest.
        if (gap - self.period).abs() * FIT_DIVISOR <= self.period {
            return self.counted(at, 1, 1);
        }
        (1..=MOST_DIVISIONS)
            .find_map(|parts| self.fit_parts(at, gap, parts))
            .unwrap_or(ShownLattice::at(at))
    }

    /// The lattice with its period cut into `parts`, fitted to `at`, if
    /// the gap is a whole number of those within an eighth of one.
    fn fit_parts(self, at: i128, gap: i128, parts: i128) -> Option<ShownLattice> {
        let period = self.period / parts;
        if period == 0 {
            return None;
        }
        let refreshes = (gap + period / 2) / period;
        let off = gap - refreshes * period;
        if refreshes < 1 || off.abs() * FIT_DIVISOR > period {
            return None;
        }
        Some(self.counted(at, refreshes, parts))
    }

    /// The lattice once `at` is counted `refreshes` of the period cut into
    /// `parts` after the latest point. The period is measured over the
    /// whole span since the lattice was started (exact to a report's own
    /// error over the span) whenever the refreshes counted pass a power of
    /// two, and when the period is cut.
    fn counted(self, at: i128, refreshes: i128, parts: i128) -> ShownLattice {
        let since = self.since * parts + refreshes;
        let measure = parts > 1 || since.ilog2() > self.since.max(1).ilog2();
        ShownLattice {
            point: at,
            period: if measure {
                (at - self.base) / since
            } else {
                self.period
            },
            base: self.base,
            since,
            fitted: self.fitted.saturating_add(1),
        }
    }
}

/// The latch offset: the interval every report so far allows, in 2⁻¹⁶ ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Latency {
    low: i128,
    high: i128,
    /// Reports since the interval last emptied.
    kept: u32,
}

impl Latency {
    /// The interval after a report whose frame was shown `lag` after its
    /// timestamp, on a lattice of `period`: the old one, widened, cut to
    /// what the report allows; or, if nothing is left, the report's own
    /// (the pipeline changed, or keeps no fixed latch).
    fn after(previous: Option<Latency>, lag: i128, period: i128) -> Latency {
        let own = Latency {
            low: lag - period,
            high: lag,
            kept: 1,
        };
        let Some(previous) = previous else {
            return own;
        };
        let widen = period / WIDEN_DIVISOR;
        let low = (previous.low - widen).max(own.low);
        let high = (previous.high + widen).min(own.high);
        if low > high {
            return own;
        }
        Latency {
            low,
            high,
            kept: previous.kept.saturating_add(1),
        }
    }

    /// The offset predicted from, once the interval has held.
    fn offset(self) -> Option<i128> {
        (self.kept >= TRUST_AFTER).then_some(i128::midpoint(self.low, self.high))
    }
}

/// Display feedback's state: the frames in flight, the latest report, what
/// the reports taught, and where the previous frame was predicted to show.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Shown {
    /// The timestamps of the latest frames planned, by number modulo
    /// [`FRAMES_IN_FLIGHT`].
    planned: [Timestamp; FRAMES_IN_FLIGHT],
    /// Which of them were drawn (may be shown), one bit a slot.
    drawn: u32,
    /// When each was predicted to be shown, in ns after its timestamp
    /// ([`NOT_PREDICTED`]: it was not).
    predicted: [u32; FRAMES_IN_FLIGHT],
    /// The latest predictions a report judged, newest in the lowest bit:
    /// 1 for a miss, 0 for a hit.
    misses: u32,
    /// How many predictions have been judged, up to [`PROVEN_AFTER`].
    judged: u32,
    /// The number the next plan takes.
    next: FrameId,
    /// Frames planned since the start or the last reset, up to
    /// [`FRAMES_IN_FLIGHT`].
    in_flight: u32,
    /// The latest report accepted.
    latest: Option<(FrameId, Timestamp)>,
    lattice: Option<ShownLattice>,
    latency: Option<Latency>,
    /// What frames are predicted from, once the lattice and the latency
    /// are trusted: the latest refresh, the period and the latch offset,
    /// in 2⁻¹⁶ ns.
    model: Option<(i128, i128, i128)>,
    /// The previous frame's predicted refresh, in 2⁻¹⁶ ns, if it was
    /// predicted and nothing broke the count since.
    previous: Option<i128>,
}

impl Shown {
    /// Nothing planned, nothing learned.
    pub(crate) const fn new() -> Shown {
        Shown {
            planned: [Timestamp::ZERO; FRAMES_IN_FLIGHT],
            drawn: 0,
            predicted: [NOT_PREDICTED; FRAMES_IN_FLIGHT],
            misses: 0,
            judged: 0,
            next: FrameId::FIRST,
            in_flight: 0,
            latest: None,
            lattice: None,
            latency: None,
            model: None,
            previous: None,
        }
    }

    /// Forgets every frame in flight and what the reports taught; the
    /// numbering goes on.
    pub(crate) fn forget(&mut self) {
        *self = Shown {
            next: self.next,
            ..Shown::new()
        };
    }

    /// Numbers a plan made at `now`, remembering it as a frame a report may
    /// name if it is `drawn`.
    #[inline]
    pub(crate) fn number(&mut self, now: Timestamp, drawn: bool) -> FrameId {
        let frame = self.next;
        self.next = frame.next();
        let slot = slot_of(frame);
        self.planned[slot] = now;
        self.predicted[slot] = NOT_PREDICTED;
        let bit = 1_u32 << slot;
        self.drawn = if drawn {
            self.drawn | bit
        } else {
            self.drawn & !bit
        };
        if self.in_flight < FRAMES_IN_FLIGHT as u32 {
            self.in_flight += 1;
        }
        if !drawn {
            // A frame not drawn has no refresh: the count starts again.
            self.previous = None;
        }
        frame
    }

    /// The number the next plan takes.
    pub(crate) const fn next_frame(&self) -> FrameId {
        self.next
    }

    /// Breaks the count of refreshes: the next frame predicted sets where
    /// it starts again (a resync: the time before it is not the game's).
    pub(crate) fn mark_gap(&mut self) {
        self.previous = None;
    }

    /// Takes a report that `frame` was shown at `at`.
    pub(crate) fn report(&mut self, frame: FrameId, at: Timestamp) -> Result<(), FeedbackError> {
        let planned = self.planned_at(frame)?;
        if at < planned {
            return Err(FeedbackError::BeforePlanned {
                frame,
                planned,
                shown: at,
            });
        }
        if let Some((previous, previous_shown)) = self.latest {
            let newest = self.next.since(previous);
            let later = newest > self.next.since(frame);
            if !later || at <= previous_shown {
                return Err(FeedbackError::OutOfOrder {
                    frame,
                    shown: at,
                    previous,
                    previous_shown,
                });
            }
        }
        self.latest = Some((frame, at));
        self.judge(frame, planned, at);
        let at_fixed = fixed(at);
        let lattice = match self.lattice {
            Some(lattice) => lattice.fit(at_fixed),
            None => ShownLattice::at(at_fixed),
        };
        self.lattice = Some(lattice);
        self.latency = (lattice.period > 0)
            .then(|| Latency::after(self.latency, at_fixed - fixed(planned), lattice.period));
        if lattice.fitted == 0 {
            // A new lattice: predictions made on the old one do not count.
            self.latency = None;
        }
        let offset = self.latency.and_then(Latency::offset);
        self.model = match offset {
            Some(offset) if lattice.fitted >= TRUST_AFTER => {
                Some((lattice.point, lattice.period, offset))
            }
            _ => None,
        };
        if self.model.is_none() {
            self.previous = None;
        }
        Ok(())
    }

    /// Judges the prediction made for `frame`, planned at `planned` and
    /// shown at `at`: a hit if it named the refresh within half a period.
    fn judge(&mut self, frame: FrameId, planned: Timestamp, at: Timestamp) {
        let predicted = self.predicted[slot_of(frame)];
        let Some(lattice) = self.lattice.filter(|lattice| lattice.period > 0) else {
            return;
        };
        if predicted == NOT_PREDICTED {
            return;
        }
        let lag = at.saturating_since(planned).as_nanos();
        let miss = lag.abs_diff(u64::from(predicted)) >= nanos(lattice.period) / 2;
        self.misses = (self.misses << 1) | u32::from(miss);
        self.judged = (self.judged + 1).min(PROVEN_AFTER);
    }

    /// Whether the latest predictions all named the refresh their frames
    /// were shown at.
    fn proven(&self) -> bool {
        self.judged >= PROVEN_AFTER && self.misses & ((1 << PROVEN_AFTER) - 1) == 0
    }

    /// The timestamp `frame` was planned at, if a report may name it.
    fn planned_at(&self, frame: FrameId) -> Result<Timestamp, FeedbackError> {
        let back = self.next.since(frame);
        let newest =
            (self.in_flight > 0).then(|| FrameId::from_raw(self.next.get().wrapping_sub(1)));
        if back == 0 || back > u64::from(self.in_flight) {
            return Err(FeedbackError::UnknownFrame { frame, newest });
        }
        let slot = slot_of(frame);
        if self.drawn & (1 << slot) == 0 {
            return Err(FeedbackError::NotDrawn { frame });
        }
        Ok(self.planned[slot])
    }

    /// The refreshes from the previous frame's predicted refresh to that of
    /// a frame stamped `now`, and the period they are counted in (2⁻¹⁶
    /// ns), once the reports are trusted and the previous frame was
    /// predicted; the prediction is kept for the next frame either way.
    #[inline]
    pub(crate) fn refreshes_to(&mut self, now: Timestamp) -> Option<(u64, i128)> {
        let (point, period, offset) = self.model?;
        let refresh = first_refresh(point, period, fixed(now) + offset);
        let slot = slot_of(FrameId::from_raw(self.next.get().wrapping_sub(1)));
        self.predicted[slot] = u32::try_from(nanos(refresh - fixed(now))).unwrap_or(NOT_PREDICTED);
        let previous = self.previous.replace(refresh)?;
        if !self.proven() {
            return None;
        }
        let gap = refresh - previous;
        // Both are refreshes of a lattice the reports may have nudged since:
        // the gap is counted to the nearest refresh.
        let refreshes = if gap * 2 < period {
            0
        } else if gap * 2 < period * 3 {
            // The usual frame: one refresh after the previous.
            1
        } else {
            (gap + period / 2) / period
        };
        Some((u64::try_from(refreshes).unwrap_or(u64::MAX), period))
    }

    /// What the reports have taught, once a period is known.
    pub(crate) fn display(&self) -> Option<ShownDisplay> {
        let lattice = self.lattice.filter(|lattice| lattice.period > 0)?;
        let offset = self.latency.and_then(Latency::offset);
        Some(ShownDisplay {
            period: Nanos::from_nanos(nanos(lattice.period)),
            latest_refresh: Timestamp::from_nanos(nanos(lattice.point)),
            latency: offset
                .filter(|offset| *offset >= 0)
                .map(|offset| Nanos::from_nanos(nanos(offset))),
            trusted: lattice.fitted >= TRUST_AFTER && offset.is_some() && self.proven(),
        })
    }
}

/// The first refresh of the lattice through `point` with `period` at or
/// after `target` (all in 2⁻¹⁶ ns). The target is usually a few refreshes
/// after the point (the latest report's refresh, plus the latency): those
/// are counted one by one.
fn first_refresh(point: i128, period: i128, target: i128) -> i128 {
    let ahead = target - point;
    if 0 < ahead && ahead <= 8 * period {
        let mut refresh = point + period;
        while refresh < target {
            refresh += period;
        }
        return refresh;
    }
    point + (ahead.div_euclid(period) + i128::from(ahead.rem_euclid(period) != 0)) * period
}

/// The slot of a frame in the ring of frames in flight.
fn slot_of(frame: FrameId) -> usize {
    (frame.get() % FRAMES_IN_FLIGHT as u64) as usize
}

/// A timestamp in 2⁻¹⁶ ns.
fn fixed(at: Timestamp) -> i128 {
    i128::from(at.as_nanos()) << FRACTION_BITS
}

/// A non-negative value in 2⁻¹⁶ ns as whole ns.
fn nanos(value: i128) -> u64 {
    u64::try_from(value.max(0) >> FRACTION_BITS).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod wraparound;

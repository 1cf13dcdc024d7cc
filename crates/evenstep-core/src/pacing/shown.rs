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
//! two reports give a first period, and the period is measured over the
//! whole span since the lattice was found, so it is exact to the reports'
//! own precision divided by the refreshes counted. A report more than an
//! eighth of a period from the lattice (a refresh-rate change, a
//! variable-refresh display, a game that showed every other refresh first
//! and now shows every one, a nonsensical report) starts the lattice over
//! from that report.
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
//! frame planned after that (the first sets where the count starts). The
//! [referee](super::referee) then judges, report by report, whether the
//! predictions or the timestamps would have run the right steps, and
//! frames are planned from feedback once it has been right often enough
//! where the timestamps were not, until it misses where they did not. Frames are planned from the timestamps once reports stop: when
//! the latest report names a frame more than [`FRAMES_IN_FLIGHT`] frames
//! back.

use crate::frame_id::{FeedbackError, FrameId};
use crate::pacing::Snap;
use crate::pacing::referee::Referee;
use crate::pacing::snap::{LatticeCache, refresh_units};
use crate::pacing::tuning::Knob;
use crate::{Nanos, Timestamp, Timestep};

/// How many of the latest planned frames a report can name.
pub const FRAMES_IN_FLIGHT: usize = 32;
const _: () = assert!(FRAMES_IN_FLIGHT <= u32::BITS as usize); // a bit each

/// Reports fitted to the lattice, and reports with a consistent latency,
/// needed before feedback plans frames.
pub(super) const TRUST_AFTER: Knob = Knob::new(12, "trust-after", 8, &[4, 6, 8, 12, 16], 1..=4096);
/// A shown time fits the lattice within an eighth of a period.
pub(super) const FIT_DIVISOR: Knob = Knob::new(13, "fit", 8, &[4, 6, 8, 12, 16], 1..=1024);
/// The latency interval widens by this fraction of a period a report.
pub(super) const WIDEN_DIVISOR: Knob =
    Knob::new(14, "widen", 128, &[32, 64, 128, 256, 512], 1..=65536);
/// The longest gap between reports, in ns (about 4.3 s), over which a
/// lattice is kept: past it the lattice starts over.
const MOST_GAP_NANOS: u64 = u32::MAX as u64;
/// The farthest, in ns (about 73 minutes), a frame's stamp may be from the
/// latest report for its refresh to be predicted, and the longest lag from
/// a stamp to its showing told apart: times on the lattice are kept in 64
/// bits of 2⁻¹⁶ ns, within this of the latest report.
const MOST_SPAN_NANOS: u64 = 1 << 42;
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

/// The refresh lattice learned from shown times: reports fall on whole
/// nanoseconds, the period is kept in 2⁻¹⁶ ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct ShownLattice {
    /// The latest report's shown time: a refresh.
    point: Timestamp,
    /// The period; zero until a second report.
    period: i64,
    /// The report the period is measured from, and the refreshes counted
    /// since.
    base: Timestamp,
    since: u64,
    /// Reports fitted since the lattice was started.
    fitted: u32,
}

impl ShownLattice {
    /// A lattice started at the shown time `at`.
    const fn at(at: Timestamp) -> ShownLattice {
        ShownLattice {
            point: at,
            period: 0,
            base: at,
            since: 0,
            fitted: 0,
        }
    }

    /// Fits the shown time `at` (later than the latest point), refining the
    /// period, or starts the lattice over at `at` if it does not fit.
    fn fit(&mut self, at: Timestamp) {
        let gap = at.saturating_since(self.point).as_nanos();
        if gap > MOST_GAP_NANOS {
            *self = ShownLattice::at(at);
            return;
        }
        let gap = fixed(gap);
        if self.period == 0 {
            *self = ShownLattice {
                point: at,
                period: gap,
                base: self.point,
                since: 1,
                fitted: 1,
            };
            return;
        }
        match self.refreshes_in(gap) {
            Some(refreshes) => self.count(at, refreshes),
            None => *self = ShownLattice::at(at),
        }
    }

    /// The refreshes `gap` spans, if it is a whole number of periods within
    /// an eighth of one.
    fn refreshes_in(&self, gap: i64) -> Option<u64> {
        let refreshes = (gap + self.period / 2) / self.period;
        let off = gap - refreshes * self.period;
        if refreshes < 1 || off.abs() * i64::from(FIT_DIVISOR.get()) > self.period {
            return None;
        }
        Some(refreshes.unsigned_abs())
    }

    /// Counts `at` `refreshes` after the latest point. The period is
    /// measured over the whole span since the lattice was started (exact to
    /// a report's own error over the span) whenever the refreshes counted
    /// pass a power of two.
    fn count(&mut self, at: Timestamp, refreshes: u64) {
        let since = self.since.saturating_add(refreshes);
        if since.ilog2() > self.since.max(1).ilog2() {
            let span = u128::from(at.saturating_since(self.base).as_nanos()) << FRACTION_BITS;
            self.period = i64::try_from(span / u128::from(since)).unwrap_or(i64::MAX);
        }
        self.point = at;
        self.since = since;
        self.fitted = self.fitted.saturating_add(1);
    }
}

/// The latch offset: the interval every report so far allows, in 2⁻¹⁶ ns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Latency {
    low: i64,
    high: i64,
    /// Reports since the interval last emptied.
    kept: u32,
}

impl Latency {
    /// The interval after a report whose frame was shown `lag` after its
    /// timestamp, on a lattice of `period`: the old one, widened, cut to
    /// what the report allows; or, if nothing is left, the report's own
    /// (the pipeline changed, or keeps no fixed latch).
    fn after(previous: Option<Latency>, lag: i64, period: i64) -> Latency {
        let own = Latency {
            low: lag - period,
            high: lag,
            kept: 1,
        };
        let Some(previous) = previous else {
            return own;
        };
        let widen = period / i64::from(WIDEN_DIVISOR.get());
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
    fn offset(self) -> Option<i64> {
        (self.kept >= TRUST_AFTER.get()).then_some(i64::midpoint(self.low, self.high))
    }
}

/// What a frame's refresh is predicted from, once the lattice and the
/// latency are trusted.
#[derive(Clone, Copy)]
struct Model {
    /// The latest refresh a report fell on: predicted times are counted
    /// from it, in 2⁻¹⁶ ns.
    point: Timestamp,
    period: i64,
    /// The latch offset.
    offset: i64,
}

impl Model {
    /// The refresh a frame stamped `now` is predicted to be shown at,
    /// counted from the point; `None` for a stamp further than
    /// [`MOST_SPAN_NANOS`] from it.
    fn predict(self, now: Timestamp) -> Option<i64> {
        let stamp = if now >= self.point {
            fixed_within(now.saturating_since(self.point).as_nanos())?
        } else {
            -fixed_within(self.point.saturating_since(now).as_nanos())?
        };
        Some(first_refresh(self.period, stamp + self.offset))
    }
}

/// Display feedback's state: the frames in flight, the latest report, what
/// the reports taught, and where the previous frame was predicted to show.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Shown {
    /// The timestamps of the latest frames planned, by number modulo
    /// [`FRAMES_IN_FLIGHT`].
    planned: [Timestamp; FRAMES_IN_FLIGHT],
    /// Bit `slot` set for a drawn frame (not a marker stamp: any can be).
    drawn: u32,
    /// Whether feedback or the timestamps plan, and the frames it judges.
    referee: Referee,
    /// The number the next plan takes.
    next: FrameId,
    /// The number the first plan since the start or the last reset took.
    first: FrameId,
    /// The latest report accepted.
    latest: Option<(FrameId, Timestamp)>,
    lattice: Option<ShownLattice>,
    latency: Option<Latency>,
    /// The previous frame's predicted refresh, if it was predicted and
    /// nothing broke the count since: the report's shown time it was
    /// counted from, and how long after it, in 2⁻¹⁶ ns.
    previous: Option<(Timestamp, i64)>,
    /// The lattice of refreshes and steps for the period the reports
    /// measured.
    lattice_found: LatticeCache,
}

impl Shown {
    /// Nothing planned, nothing learned.
    pub(crate) const fn new() -> Shown {
        Shown {
            planned: [Timestamp::ZERO; FRAMES_IN_FLIGHT],
            drawn: 0,
            referee: Referee::new(),
            next: FrameId::FIRST,
            first: FrameId::FIRST,
            latest: None,
            lattice: None,
            latency: None,
            previous: None,
            lattice_found: LatticeCache::EMPTY,
        }
    }

    /// Forgets every frame in flight and what the reports taught; the
    /// numbering goes on.
    pub(crate) fn forget(&mut self) {
        *self = Shown {
            next: self.next,
            first: self.next,
            ..Shown::new()
        };
    }

    /// Numbers a frame drawn at `now`, remembering it as a frame a report
    /// may name.
    pub(crate) fn number_drawn(&mut self, now: Timestamp) -> FrameId {
        let frame = self.next;
        self.next = frame.next();
        let slot = slot_of(frame);
        self.planned[slot] = now;
        self.drawn |= 1 << slot;
        self.referee.numbered(slot);
        frame
    }

    /// Numbers a plan that draws nothing (a hidden frame, a catch-up): a
    /// report naming it is refused, and the count of refreshes restarts.
    pub(crate) fn number_hidden(&mut self) -> FrameId {
        let frame = self.number_drawn(Timestamp::ZERO);
        self.drawn &= !(1 << slot_of(frame));
        self.previous = None;
        frame
    }

    /// The frame numbered last.
    fn latest_planned(&self) -> FrameId {
        FrameId::from_raw(self.next.get().wrapping_sub(1))
    }

    /// The slot of the frame numbered last.
    fn latest_slot(&self) -> usize {
        slot_of(self.latest_planned())
    }

    /// The latest frame numbered ran `steps`; it is `judged` only when
    /// pacing snapped it at normal speed (a frame at another speed, or
    /// with pacing off, says nothing of either source, and the showing it
    /// is in is not judged).
    pub(crate) fn ran(&mut self, steps: u64, judged: bool) {
        if judged {
            self.referee.ran(self.latest_slot(), steps);
        }
    }

    /// The latest frame numbered would have run `stamps` steps as the
    /// timestamps plan it, and feedback predicted `refreshes` for it.
    pub(crate) fn candidates(&mut self, stamps: u64, refreshes: u64) {
        self.referee
            .candidates(self.latest_slot(), stamps, refreshes);
    }

    /// The snap of a frame to the `refreshes` display feedback predicts
    /// from the previous frame's showing to its own, on the period feedback
    /// measured (`period_fixed`, in 2⁻¹⁶ ns), counted on the lattice of
    /// that period and the step when there is one. The frame has been
    /// observed as the timestamps plan it, so that they have kept up
    /// whichever plan stands.
    pub(crate) fn snap(
        &mut self,
        refreshes: u64,
        period_fixed: u64,
        timestep: Timestep,
    ) -> Option<Snap> {
        let lattice = self
            .lattice_found
            .lattice_for(Nanos::from_nanos(period_fixed >> 16), timestep);
        let units =
            i128::from(refreshes).checked_mul(refresh_units(lattice, period_fixed, timestep))?;
        Snap::predicted(units, lattice)
    }

    /// Forgets the lattice found for the reports' period (a change of step
    /// or of pacing: it is found again).
    pub(crate) fn forget_lattice(&mut self) {
        self.lattice_found = LatticeCache::EMPTY;
    }

    /// Whether the referee has feedback plan the frames.
    pub(crate) fn feedback_plans(&self) -> bool {
        self.referee.prefers_feedback()
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
    pub(crate) fn report(
        &mut self,
        frame: FrameId,
        at: Timestamp,
        timestep: Timestep,
    ) -> Result<(), FeedbackError> {
        let planned = self.planned_at(frame)?;
        if at < planned {
            return Err(FeedbackError::BeforePlanned {
                frame,
                planned,
                shown: at,
            });
        }
        if at.saturating_since(planned).as_nanos() > MOST_GAP_NANOS {
            return Err(FeedbackError::LongAfterPlanned {
                frame,
                planned,
                shown: at,
            });
        }
        let fresh = self.latest.filter(|_| !self.is_stale());
        if let Some((previous, previous_shown)) = fresh {
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
        let period = if let Some(lattice) = &mut self.lattice {
            lattice.fit(at);
            lattice.period
        } else {
            self.lattice = Some(ShownLattice::at(at));
            0
        };
        // A lattice without a period (a new one) has no latency: predictions
        // made on the old one do not count.
        let lag = fixed(at.saturating_since(planned).as_nanos());
        self.latency = (period > 0).then(|| Latency::after(self.latency, lag, period));
        if let Some((previous, previous_shown)) = fresh.filter(|_| period > 0) {
            self.judge(previous, (frame, at), previous_shown, period, timestep);
        }
        if self.model().is_none() {
            self.previous = None;
        }
        Ok(())
    }

    /// What frames are predicted from, once eight reports have fitted the
    /// lattice and the latency interval has held for eight.
    fn model(&self) -> Option<Model> {
        let lattice = self.lattice.as_ref()?;
        let offset = self.latency.and_then(Latency::offset)?;
        (lattice.fitted >= TRUST_AFTER.get()).then_some(Model {
            point: lattice.point,
            period: lattice.period,
            offset,
        })
    }

    /// Whether reports have started a lattice: until then no frame is
    /// predicted.
    pub(crate) const fn has_lattice(&self) -> bool {
        self.lattice.is_some()
    }

    /// Has the referee judge the frames after `previous` (shown at
    /// `previous_shown`) up to `reported`, by the refreshes between the two
    /// showings on a lattice of `period`.
    fn judge(
        &mut self,
        previous: FrameId,
        reported: (FrameId, Timestamp),
        previous_shown: Timestamp,
        period: i64,
        timestep: Timestep,
    ) {
        let (frame, at) = reported;
        let slots = (1..=frame.since(previous))
            .map(|n| slot_of(FrameId::from_raw(previous.get().wrapping_add(n))));
        // The refreshes between the two showings, worked out only if the
        // frames between are judged.
        let shown = || {
            let gap = fixed(at.saturating_since(previous_shown).as_nanos());
            let refreshes = (gap + period / 2) / period;
            let span = Nanos::from_nanos(nanos(refreshes.saturating_mul(period)));
            (refreshes.unsigned_abs(), timestep.nanos_to_units(span))
        };
        self.referee.judge(slots, shown, timestep.units_per_step());
    }

    /// The timestamp `frame` was planned at, if a report may name it.
    fn planned_at(&self, frame: FrameId) -> Result<Timestamp, FeedbackError> {
        let back = self.next.since(frame);
        let planned = self.next.since(self.first).min(FRAMES_IN_FLIGHT as u64);
        if back == 0 || back > planned {
            let remembered = |back: u64| FrameId::from_raw(self.next.get().wrapping_sub(back));
            return Err(FeedbackError::UnknownFrame {
                frame,
                oldest: (planned > 0).then(|| remembered(planned)),
                newest: (planned > 0).then(|| remembered(1)),
            });
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
    pub(crate) fn refreshes_to(&mut self, now: Timestamp) -> Option<(u64, u64)> {
        let model = self.model()?;
        if self.is_stale() || now.saturating_since(model.point).as_nanos() > MOST_GAP_NANOS {
            // Reports stopped, frames or time ago: what they taught may
            // have drifted off.
            self.previous = None;
            return None;
        }
        let Some(refresh) = model.predict(now) else {
            // Reports that stopped long ago say nothing of this frame.
            self.previous = None;
            return None;
        };
        let Some((from, previous)) = self.previous.replace((model.point, refresh)) else {
            // The count starts here: this frame's showing says nothing of
            // feedback.
            self.referee.opens(self.latest_slot());
            return None;
        };
        // The reports since the previous frame (a few, each under MOST_GAP_NANOS
        // after the one before) moved the point on by well under the span.
        let gap = fixed(model.point.saturating_since(from).as_nanos()) + refresh - previous;
        let period = model.period;
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
        Some((refreshes.unsigned_abs(), period.unsigned_abs()))
    }

    /// Whether the latest report names a frame planned more than
    /// [`FRAMES_IN_FLIGHT`] frames ago: reports have stopped coming.
    fn is_stale(&self) -> bool {
        let planned = self.latest_planned();
        self.latest
            .is_none_or(|(frame, _)| planned.since(frame) > FRAMES_IN_FLIGHT as u64)
    }

    /// What the reports have taught, once a period is known.
    pub(crate) fn display(&self) -> Option<ShownDisplay> {
        let lattice = self.lattice.filter(|lattice| lattice.period > 0)?;
        let offset = self.latency.and_then(Latency::offset);
        Some(ShownDisplay {
            period: Nanos::from_nanos(nanos(lattice.period)),
            latest_refresh: lattice.point,
            latency: offset
                .filter(|offset| *offset >= 0)
                .map(|offset| Nanos::from_nanos(nanos(offset))),
            trusted: lattice.fitted >= TRUST_AFTER.get()
                && offset.is_some()
                && self.referee.prefers_feedback()
                && !self.is_stale(),
        })
    }
}

/// The first refresh of the lattice through 0 with `period` at or after
/// `target` (both in 2⁻¹⁶ ns). The target is usually a few refreshes after
/// the point (the latest report's refresh, plus the latency): those are
/// counted one by one.
fn first_refresh(period: i64, target: i64) -> i64 {
    if 0 < target && target <= 8 * period {
        let mut refresh = period;
        while refresh < target {
            refresh += period;
        }
        return refresh;
    }
    (target.div_euclid(period) + i64::from(target.rem_euclid(period) != 0)) * period
}

/// The slot of a frame in the ring of frames in flight.
fn slot_of(frame: FrameId) -> usize {
    (frame.get() % FRAMES_IN_FLIGHT as u64) as usize
}

/// A span of ns in 2⁻¹⁶ ns, saturating at [`MOST_SPAN_NANOS`].
fn fixed(nanos: u64) -> i64 {
    fixed_within(nanos.min(MOST_SPAN_NANOS)).unwrap_or(i64::MAX)
}

/// A span of ns in 2⁻¹⁶ ns, if it is within [`MOST_SPAN_NANOS`].
fn fixed_within(nanos: u64) -> Option<i64> {
    if nanos > MOST_SPAN_NANOS {
        return None;
    }
    i64::try_from(nanos << FRACTION_BITS).ok()
}

/// A non-negative value in 2⁻¹⁶ ns as whole ns.
fn nanos(value: i64) -> u64 {
    value.max(0).unsigned_abs() >> FRACTION_BITS
}

#[cfg(test)]
mod wraparound;

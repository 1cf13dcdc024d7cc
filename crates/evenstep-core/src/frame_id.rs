//! Which frame a plan is for, and what can be wrong with a report that a
//! frame was shown: the two halves of display feedback's bookkeeping.

use core::fmt;

use crate::Timestamp;

/// The number of a planned frame: what a game hands back to the planner
/// when the platform says the frame reached the screen (see
/// [`FrameLoop::frame_shown`](crate::FrameLoop::frame_shown)).
///
/// Every plan takes the next number: frames, hidden frames and catch-ups
/// alike, so two plans never share one. Numbers keep counting across
/// [`reset`](crate::FrameLoop::reset), [`resync`](crate::FrameLoop::resync),
/// step-rate, speed and pacing changes, so a report from before any of
/// them can never be taken for a later frame. They wrap after 2⁶⁴ plans
/// (at 1000 frames a second, after 584 million years): the planner
/// compares them by their wrapping distance from its newest frame, so
/// the wrap itself is harmless.
///
/// # Examples
///
/// ```
/// use evenstep_core::{FrameLoop, Nanos, StepBudget, Timestamp, Timestep};
///
/// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
/// let first = frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(16)).frame();
/// let second = frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(33)).frame();
/// assert_eq!(second, first.next());
/// ```
///
/// `Ord` compares the raw numbers, so it puts frame 0 after a wrap before
/// frame `u64::MAX`; the planner itself compares by wrapping distance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FrameId(u64);

impl FrameId {
    /// The first frame's number.
    pub const FIRST: FrameId = FrameId(0);

    /// The frame numbered `raw` (a number a game stored, or sent on to a
    /// platform API as its present identifier).
    pub const fn from_raw(raw: u64) -> FrameId {
        FrameId(raw)
    }

    /// The number, as a platform's present identifier takes it.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The number after this one (wrapping).
    #[must_use = "`next` returns the following number"]
    pub const fn next(self) -> FrameId {
        FrameId(self.0.wrapping_add(1))
    }

    /// How many frames `self` comes after `earlier`, counted forward with
    /// wrapping: 0 for the same frame.
    pub(crate) const fn since(self, earlier: FrameId) -> u64 {
        self.0.wrapping_sub(earlier.0)
    }
}

impl fmt::Display for FrameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frame {}", self.0)
    }
}

/// Why a report that a frame was shown was refused. A refused report
/// changes nothing: the planner plans on as if it had never come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FeedbackError {
    /// The frame is not one of the frames the planner still remembers: it
    /// was planned too long ago (the planner remembers the latest
    /// [`FRAMES_IN_FLIGHT`](crate::FRAMES_IN_FLIGHT)), before a reset, or
    /// not yet.
    UnknownFrame {
        /// The frame reported.
        frame: FrameId,
        /// The oldest frame remembered, if any has been planned since the
        /// start or the last reset.
        oldest: Option<FrameId>,
        /// The newest frame planned, if any since the start or the last
        /// reset.
        newest: Option<FrameId>,
    },
    /// The frame was never going to be shown: a hidden frame or a
    /// catch-up.
    NotDrawn {
        /// The frame reported.
        frame: FrameId,
    },
    /// The frame is said to be shown before it was planned.
    BeforePlanned {
        /// The frame reported.
        frame: FrameId,
        /// Its timestamp.
        planned: Timestamp,
        /// When it was said to be shown.
        shown: Timestamp,
    },
    /// The frame is said to be shown more than about 4.3 s (2³² ns) after it
    /// was planned: no display pipeline holds a frame that long.
    LongAfterPlanned {
        /// The frame reported.
        frame: FrameId,
        /// Its timestamp.
        planned: Timestamp,
        /// When it was said to be shown.
        shown: Timestamp,
    },
    /// The report does not come after the previous one accepted: a display
    /// shows frames in the order they were planned, each at a later
    /// refresh, and reports must come in that order.
    OutOfOrder {
        /// The frame reported.
        frame: FrameId,
        /// When it was said to be shown.
        shown: Timestamp,
        /// The latest frame reported before it.
        previous: FrameId,
        /// When that frame was shown.
        previous_shown: Timestamp,
    },
}

impl fmt::Display for FeedbackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            FeedbackError::UnknownFrame {
                frame,
                oldest: Some(oldest),
                newest: Some(newest),
            } => write!(
                f,
                "{frame} is not one of the frames remembered: the latest {} planned, \
                 frames {} to {}",
                newest.since(oldest) + 1,
                oldest.0,
                newest.0
            ),
            FeedbackError::UnknownFrame { frame, .. } => write!(
                f,
                "{frame} was not planned: no frame has been planned since the start or the last reset"
            ),
            FeedbackError::NotDrawn { frame } => write!(
                f,
                "{frame} was a hidden frame or a catch-up, which is never shown; only frames \
                 planned by begin_frame can be reported"
            ),
            FeedbackError::BeforePlanned {
                frame,
                planned,
                shown,
            } => write!(
                f,
                "{frame} is said to be shown at {} ns, before it was planned at {} ns",
                shown.as_nanos(),
                planned.as_nanos()
            ),
            FeedbackError::LongAfterPlanned {
                frame,
                planned,
                shown,
            } => write!(
                f,
                "{frame} is said to be shown at {} ns, more than 4294967295 ns (about 4.3 s) \
                 after it was planned at {} ns",
                shown.as_nanos(),
                planned.as_nanos()
            ),
            FeedbackError::OutOfOrder {
                frame,
                shown,
                previous,
                previous_shown,
            } => write!(
                f,
                "{frame} shown at {} ns does not come after {previous} shown at {} ns: reports \
                 must name later frames shown at later times",
                shown.as_nanos(),
                previous_shown.as_nanos()
            ),
        }
    }
}

impl core::error::Error for FeedbackError {}

//! The deterministic tally in a form serde can write and read:
//! [`FrameStatsRecord`], a plain copy of the core's [`FrameStats`] and its
//! digest. The core crate has no dependencies, serde included, and every
//! consumer gets the same core, so the tally's serde form lives here, in a
//! mirror, beside the measured statistics
//! ([`LoopStats`](crate::stats::LoopStats)) that already have one, so both
//! halves of the statistics have a serde form.

use evenstep_core::FrameStats;

/// A [`FrameStats`] tally as plain public numbers, with its digest: what a
/// tool writes to JSON (or any serde format, with the `serde` feature) to
/// compare runs, and reads back. Durations are whole nanoseconds; the exact
/// units are in the timestep's accumulator units.
///
/// # Examples
///
/// ```
/// use evenstep::{Nanos, StepBudget, Timestamp, Timestep, planner::{FrameLoop, FrameStats, FrameStatsRecord}};
///
/// let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
/// let mut stats = FrameStats::new();
/// stats.absorb(&frames.begin_frame(Timestamp::ZERO + Nanos::from_millis(250)));
/// let record = FrameStatsRecord::from(&stats);
/// assert_eq!((record.steps, record.dropped_steps), (5, 10));
/// assert_eq!(record.digest, stats.digest());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FrameStatsRecord {
    /// Plans absorbed ([`FrameStats::frames`]).
    pub frames: u64,
    /// Steps run, queued ones included ([`FrameStats::steps`]).
    pub steps: u64,
    /// Queued steps run ([`FrameStats::queued_steps`]).
    pub queued_steps: u64,
    /// Steps the budget dropped ([`FrameStats::dropped_steps`]).
    pub dropped_steps: u64,
    /// Time dropped, in accumulator units ([`FrameStats::dropped_units`]).
    pub dropped_units: u128,
    /// Time dropped, whole nanoseconds ([`FrameStats::dropped`]).
    pub dropped_nanos: u64,
    /// Frames the budget clamped ([`FrameStats::clamped_frames`]).
    pub clamped_frames: u64,
    /// The longest raw delta, in nanoseconds ([`FrameStats::largest_frame`]).
    pub largest_frame_nanos: u64,
    /// Pacing's phase shifts, summed ([`FrameStats::phase_shift_units`]).
    pub phase_shift_units: i128,
    /// Frames snapped to whole refreshes ([`FrameStats::snapped_frames`]).
    pub snapped_frames: u64,
    /// Frames that rendered ([`FrameStats::rendered_frames`]).
    pub rendered_frames: u64,
    /// The tally's digest ([`FrameStats::digest`]).
    pub digest: u64,
}

impl From<&FrameStats> for FrameStatsRecord {
    fn from(stats: &FrameStats) -> FrameStatsRecord {
        FrameStatsRecord {
            frames: stats.frames(),
            steps: stats.steps(),
            queued_steps: stats.queued_steps(),
            dropped_steps: stats.dropped_steps(),
            dropped_units: stats.dropped_units(),
            dropped_nanos: stats.dropped().as_nanos(),
            clamped_frames: stats.clamped_frames(),
            largest_frame_nanos: stats.largest_frame().as_nanos(),
            phase_shift_units: stats.phase_shift_units(),
            snapped_frames: stats.snapped_frames(),
            rendered_frames: stats.rendered_frames(),
            digest: stats.digest(),
        }
    }
}

impl From<FrameStats> for FrameStatsRecord {
    fn from(stats: FrameStats) -> FrameStatsRecord {
        FrameStatsRecord::from(&stats)
    }
}

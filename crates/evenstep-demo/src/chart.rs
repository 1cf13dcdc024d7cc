//! The strip chart's memory: the last few hundred painted frames, each with
//! the wall-time gap since the frame before, the fixed steps it ran, and
//! whether the loop counted the gap as an absence, so jitter, frames of 0
//! or 2 steps and hidden spells can be seen as they happen.

use std::collections::VecDeque;
use std::num::NonZeroUsize;

use evenstep::{Loop, Nanos, PumpReport, Timestamp};

/// One painted frame, as the chart draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameSample {
    /// Wall time since the previous painted frame.
    pub gap: Nanos,
    /// Fixed steps the frame's pump ran.
    pub steps: u64,
    /// Whether the loop counted the gap before this frame as an absence (a
    /// hidden window or page), by its own configured threshold.
    pub absence: bool,
}

/// A ring of the latest painted frames.
#[derive(Clone, Debug)]
pub struct FrameChart {
    samples: VecDeque<FrameSample>,
    capacity: NonZeroUsize,
    last_paint: Option<Timestamp>,
    /// The loop's absence count at the last recorded frame.
    absences_seen: u64,
}

impl FrameChart {
    /// Frames the demo keeps: about five seconds at 60 Hz.
    pub const DEFAULT_CAPACITY: NonZeroUsize = NonZeroUsize::new(300).unwrap();

    /// A chart keeping the latest `capacity` frames.
    pub fn new(capacity: NonZeroUsize) -> FrameChart {
        FrameChart {
            samples: VecDeque::with_capacity(capacity.get()),
            capacity,
            last_paint: None,
            absences_seen: 0,
        }
    }

    /// Records a painted frame: the pump's `report` (its clock reading and
    /// the steps it ran) and the loop that ran it. The first frame has no
    /// gap to show and is only remembered as the start of the next one.
    ///
    /// Whether the gap was an absence is the loop's call, made by the
    /// absence threshold it was built with: the chart marks the frame at
    /// which the loop's absence count went up.
    pub fn record<S>(&mut self, report: &PumpReport, game_loop: &Loop<S>) {
        let absences = game_loop.stats().absences();
        // A count that went down was reset (`Loop::reset_stats`): start
        // counting again from there.
        let absence = absences > self.absences_seen && self.last_paint.is_some();
        self.absences_seen = absences;
        if let Some(last) = self.last_paint {
            if self.samples.len() == self.capacity.get() {
                self.samples.pop_front();
            }
            self.samples.push_back(FrameSample {
                gap: report.now.saturating_since(last),
                steps: report.steps,
                absence,
            });
        }
        self.last_paint = Some(report.now);
    }

    /// The frames kept, oldest first.
    pub fn samples(&self) -> impl ExactSizeIterator<Item = &FrameSample> {
        self.samples.iter()
    }

    /// How many frames the chart keeps at most.
    pub fn capacity(&self) -> NonZeroUsize {
        self.capacity
    }
}

impl Default for FrameChart {
    fn default() -> FrameChart {
        FrameChart::new(FrameChart::DEFAULT_CAPACITY)
    }
}

//! The strip chart's memory: the last few hundred painted frames, each with
//! the wall-time gap since the frame before and the fixed steps it ran, so
//! jitter and frames of 0 or 2 steps can be seen as they happen.

use std::collections::VecDeque;

use evenstep::{Nanos, Timestamp};

/// One painted frame, as the chart draws it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameSample {
    /// Wall time since the previous painted frame.
    pub gap: Nanos,
    /// Fixed steps the frame's pump ran.
    pub steps: u64,
}

/// A ring of the latest painted frames.
#[derive(Clone, Debug)]
pub struct FrameChart {
    samples: VecDeque<FrameSample>,
    capacity: usize,
    last_paint: Option<Timestamp>,
}

impl FrameChart {
    /// Frames the demo keeps: about five seconds at 60 Hz.
    pub const DEFAULT_CAPACITY: usize = 300;

    /// A chart keeping the latest `capacity` frames (at least one).
    pub fn new(capacity: usize) -> FrameChart {
        let capacity = capacity.max(1);
        FrameChart {
            samples: VecDeque::with_capacity(capacity),
            capacity,
            last_paint: None,
        }
    }

    /// Records a painted frame whose pump read the clock at `now` and ran
    /// `steps` fixed steps. The first frame has no gap to show and is only
    /// remembered as the start of the next one.
    pub fn record(&mut self, now: Timestamp, steps: u64) {
        if let Some(last) = self.last_paint {
            if self.samples.len() == self.capacity {
                self.samples.pop_front();
            }
            self.samples.push_back(FrameSample {
                gap: now.saturating_since(last),
                steps,
            });
        }
        self.last_paint = Some(now);
    }

    /// The frames kept, oldest first.
    pub fn samples(&self) -> impl ExactSizeIterator<Item = &FrameSample> {
        self.samples.iter()
    }

    /// How many frames the chart keeps at most.
    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

impl Default for FrameChart {
    fn default() -> FrameChart {
        FrameChart::new(FrameChart::DEFAULT_CAPACITY)
    }
}

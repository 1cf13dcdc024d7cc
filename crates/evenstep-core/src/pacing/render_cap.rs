//! The render cap: at most so many renders a second of real time, each on
//! the frame nearest its cap tick. Steps run on every frame; only drawing is
//! skipped, so a capped game's simulation keeps its cadence.

use core::num::NonZeroU32;

use crate::Nanos;

/// The render cap: at most `max_fps` renders a second of real time, landing
/// on the frame nearest each cap tick, so a cap equal to the display rate
/// draws every frame despite jitter. Speed does not affect it, and steps run
/// on the frames it skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderCap {
    max_fps: NonZeroU32,
    /// Real time since the cap started, in nanoseconds · `max_fps` (so one
    /// cap interval is exactly 10⁹ of these).
    clock: u128,
    /// The next cap tick, in the same units.
    next: u128,
    /// Whether a frame has rendered yet: the first one does, and sets the
    /// phase of the ticks.
    started: bool,
}

impl RenderCap {
    /// A cap of `max_fps` renders a second.
    pub const fn new(max_fps: NonZeroU32) -> RenderCap {
        RenderCap {
            max_fps,
            clock: 0,
            next: 0,
            started: false,
        }
    }

    /// The cap, in renders a second.
    pub const fn max_fps(&self) -> NonZeroU32 {
        self.max_fps
    }

    /// Whether the frame `raw` after the previous one renders. `spacing` is
    /// the expected gap to the next frame (the refresh period, or this
    /// frame's delta): a frame renders when it is nearer the cap tick than
    /// the next frame would be.
    pub(crate) fn admit(&mut self, raw: Nanos, spacing: Nanos) -> bool {
        let fps = u128::from(self.max_fps.get());
        let interval = 1_000_000_000_u128;
        self.clock = self.clock.saturating_add(u128::from(raw.as_nanos()) * fps);
        if !self.started {
            self.started = true;
            self.next = self.clock.saturating_add(interval);
            return true;
        }
        // A frame claims at most half an interval ahead: a hitch frame's own
        // long delta must not mark the next tick as already drawn.
        let half = (u128::from(spacing.as_nanos()) * fps).min(interval) / 2;
        let reach = self.clock.saturating_add(half);
        if reach < self.next {
            return false;
        }
        // The next tick is the first one this frame does not already cover:
        // after a gap, ticks it skipped are not drawn in a burst.
        let behind = reach - self.next;
        self.next = self
            .next
            .saturating_add(interval.saturating_mul(behind / interval + 1));
        true
    }

    /// A frame that will not be drawn (a tick pump): its time passes for
    /// the cap, and it takes no tick.
    pub(crate) fn pass(&mut self, raw: Nanos) {
        let fps = u128::from(self.max_fps.get());
        self.clock = self.clock.saturating_add(u128::from(raw.as_nanos()) * fps);
    }
}

//! The render cap: at most so many renders a second of real time (a whole
//! number, or a fraction such as 29.97), each on the frame nearest its cap
//! tick. Steps run on every frame; only drawing is
//! skipped, so a capped game's simulation keeps its cadence.

use crate::rate::Rate;
use crate::time::Nanos;

/// The render cap: at most so many renders a second of real time (a whole
/// number, or a fraction such as 30000/1001 for 29.97 fps), landing on
/// the frame nearest each cap tick, so a cap equal to the display rate draws
/// every frame despite jitter. Speed does not affect it, and steps run on
/// the frames it skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderCap {
    /// The most renders a second, in lowest terms.
    rate: Rate,
    /// Real time since the cap started, in nanoseconds · the rate's events
    /// (so one cap interval is exactly `10⁹ · per_seconds` of these).
    clock: u128,
    /// The next cap tick, in the same units.
    next: u128,
    /// Whether a frame has rendered yet: the first one does, and sets the
    /// phase of the ticks.
    started: bool,
}

impl RenderCap {
    /// A cap of at most `rate` renders a second.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{Rate, RenderCap};
    ///
    /// let ntsc = RenderCap::new(Rate::ratio(30_000, 1_001)?); // 29.97 fps
    /// assert_eq!(ntsc.rate().to_string(), "30000/1001 Hz");
    /// # Ok::<(), evenstep_core::RateError>(())
    /// ```
    pub const fn new(rate: Rate) -> RenderCap {
        RenderCap {
            rate,
            clock: 0,
            next: 0,
            started: false,
        }
    }

    /// The most renders a second.
    pub const fn rate(&self) -> Rate {
        self.rate
    }

    /// The same cap, started afresh: the next frame renders and sets the
    /// phase of its ticks.
    #[must_use = "`restarted` returns the restarted cap"]
    pub const fn restarted(&self) -> RenderCap {
        RenderCap::new(self.rate)
    }

    /// Whether the frame `raw` after the previous one renders. `spacing` is
    /// the expected gap to the next frame (the refresh period, or this
    /// frame's delta): a frame renders when it is nearer the cap tick than
    /// the next frame would be.
    // Kept out of line: the planner's frame is planned in place in its
    // caller, and with this folded in as well, every frame ran slower,
    // capped or not (about 1 ns of 16 under snapped pacing: see
    // `bench/README.md`).
    pub(crate) fn admit(&mut self, raw: Nanos, spacing: Nanos) -> bool {
        // Both terms are under 2⁶⁴, so neither product below overflows.
        let fps = u128::from(self.rate.events().get());
        let interval = 1_000_000_000_u128 * u128::from(self.rate.per_seconds().get());
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
        let fps = u128::from(self.rate.events().get());
        self.clock = self.clock.saturating_add(u128::from(raw.as_nanos()) * fps);
    }
}

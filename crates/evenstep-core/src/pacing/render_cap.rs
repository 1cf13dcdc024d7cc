//! The render cap: at most so many renders a second of real time (a whole
//! number, or a fraction such as 29.97), each on the frame nearest its cap
//! tick. Steps run on every frame; only drawing is
//! skipped, so a capped game's simulation keeps its cadence.

use core::num::NonZeroU32;

use crate::Nanos;

/// The render cap: at most `renders` renders every `per_seconds` seconds of
/// real time (a whole `max_fps`, or a fraction such as 30000/1001 for
/// 29.97 fps), landing on the frame nearest each cap tick, so a cap equal to
/// the display rate draws every frame despite jitter. Speed does not affect
/// it, and steps run on the frames it skips.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenderCap {
    /// Renders every `per_seconds` seconds, in lowest terms.
    renders: NonZeroU32,
    per_seconds: NonZeroU32,
    /// Real time since the cap started, in nanoseconds · `renders` (so one
    /// cap interval is exactly `10⁹ · per_seconds` of these).
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
        RenderCap::from_ratio(max_fps, NonZeroU32::MIN)
    }

    /// A cap of `renders` renders every `per_seconds` seconds, exactly:
    /// `(30_000, 1_001)` is NTSC's 29.97 fps. Kept in lowest terms.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::num::NonZeroU32;
    /// use evenstep_core::RenderCap;
    ///
    /// let ntsc = RenderCap::from_ratio(NonZeroU32::new(30_000).unwrap(), NonZeroU32::new(1_001).unwrap());
    /// assert_eq!(ntsc.max_fps().get(), 30); // to the nearest whole render a second
    /// assert!((ntsc.fps_f64() - 29.97).abs() < 0.001);
    /// ```
    pub const fn from_ratio(renders: NonZeroU32, per_seconds: NonZeroU32) -> RenderCap {
        let (mut a, mut b) = (renders.get(), per_seconds.get());
        while b != 0 {
            (a, b) = (b, a % b);
        }
        // Both are divisible by their gcd `a`, which is at least 1, so the
        // quotients are non-zero.
        let (Some(renders), Some(per_seconds)) = (
            NonZeroU32::new(renders.get() / a),
            NonZeroU32::new(per_seconds.get() / a),
        ) else {
            unreachable!()
        };
        RenderCap {
            renders,
            per_seconds,
            clock: 0,
            next: 0,
            started: false,
        }
    }

    /// The cap to the nearest whole render a second (at least one): exact
    /// for a cap made by [`new`](RenderCap::new).
    pub const fn max_fps(&self) -> NonZeroU32 {
        let (renders, per) = (self.renders.get() as u64, self.per_seconds.get() as u64);
        match NonZeroU32::new(((renders + per / 2) / per) as u32) {
            Some(fps) => fps,
            None => NonZeroU32::MIN,
        }
    }

    /// The cap as `(renders, per_seconds)`, in lowest terms.
    pub const fn ratio(&self) -> (NonZeroU32, NonZeroU32) {
        (self.renders, self.per_seconds)
    }

    /// The cap in renders a second, as an `f64`.
    pub fn fps_f64(&self) -> f64 {
        f64::from(self.renders.get()) / f64::from(self.per_seconds.get())
    }

    /// The same cap, started afresh: the next frame renders and sets the
    /// phase of its ticks.
    #[must_use = "`restarted` returns the restarted cap"]
    pub const fn restarted(&self) -> RenderCap {
        RenderCap::from_ratio(self.renders, self.per_seconds)
    }

    /// Whether the frame `raw` after the previous one renders. `spacing` is
    /// the expected gap to the next frame (the refresh period, or this
    /// frame's delta): a frame renders when it is nearer the cap tick than
    /// the next frame would be.
    // Kept out of line: the planner's frame is planned in place in its
    // caller, and with this folded in as well, every frame ran slower,
    // capped or not (about 1 ns of 16 under snapped pacing: see
    // `bench/README.md`).
    #[inline(never)]
    pub(crate) fn admit(&mut self, raw: Nanos, spacing: Nanos) -> bool {
        let fps = u128::from(self.renders.get());
        let interval = 1_000_000_000_u128 * u128::from(self.per_seconds.get());
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
        let fps = u128::from(self.renders.get());
        self.clock = self.clock.saturating_add(u128::from(raw.as_nanos()) * fps);
    }
}

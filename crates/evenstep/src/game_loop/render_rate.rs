//! The render rate: the render cap the game set and the frame-rate
//! governor, and the cap the planner is given, the lower of the two.

#[cfg(doc)]
use evenstep_core::FrameLoop;
use evenstep_core::{FramePlan, FrameRateGovernor, Rate};

use crate::game_loop::Loop;

/// The game's render cap and the governor, which together set the
/// planner's render cap.
#[derive(Debug)]
pub(crate) struct RenderRate {
    /// The render cap the game set; the planner's is the lower of it and
    /// the governor's.
    cap: Option<Rate>,
    governor: Option<FrameRateGovernor>,
}

impl RenderRate {
    /// The game's cap and a governor.
    pub(crate) fn new(cap: Option<Rate>, governor: Option<FrameRateGovernor>) -> RenderRate {
        RenderRate { cap, governor }
    }

    /// Whether a governor is set.
    #[inline]
    pub(crate) fn is_governed(&self) -> bool {
        self.governor.is_some()
    }

    /// The cap for the planner: the lower of the game's render cap and the
    /// governor's.
    fn planner_cap(&self) -> Option<Rate> {
        let governed = self
            .governor
            .as_ref()
            .and_then(FrameRateGovernor::render_cap);
        match (self.cap, governed) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (cap, governed) => cap.or(governed),
        }
    }
}

impl<S> Loop<S> {
    /// Caps renders at `rate` a second of real time, a rate that need not
    /// be whole (`None`: render every paint pump; see
    /// [`FrameLoop::set_render_cap`]). Steps, timers and jobs run on the
    /// pumps it skips.
    pub fn set_render_cap(&mut self, rate: Option<Rate>) {
        self.render_rate.cap = rate;
        self.apply_render_cap();
    }

    /// The render cap the game set (the governor may hold renders lower:
    /// see [`set_governor`](Loop::set_governor)).
    pub fn render_cap(&self) -> Option<Rate> {
        self.render_rate.cap
    }

    /// Sets (or, with `None`, removes) the frame-rate governor: while paint
    /// pumps keep missing their display refresh, it halves the render rate
    /// (and halves it again), and it restores the rate once they stop, with
    /// the thresholds it was built with
    /// ([`FrameRateGovernor::with_thresholds`]). It learns the display's
    /// period from the paint pumps itself, so it works under any pacing, and
    /// only ever lowers renders below the game's own render cap. Steps,
    /// timers and jobs run on every pump as before.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, PumpKind, pacing::FrameRateGovernor};
    ///
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<()>::builder()
    ///     .clock(clock.clone())
    ///     .governor(FrameRateGovernor::new())
    ///     .build()?;
    /// game_loop.start();
    /// for k in 0..200_u64 {
    ///     // A 60 Hz display on which every third frame misses a refresh.
    ///     clock.advance(Duration::from_nanos(if k % 3 == 2 { 33_333_333 } else { 16_666_667 }));
    ///     let _ = game_loop.pump(&mut (), PumpKind::Paint);
    /// }
    /// assert_eq!(game_loop.governor().map(|g| g.divisor()), Some(8));
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn set_governor(&mut self, governor: Option<FrameRateGovernor>) {
        self.render_rate.governor = governor;
        self.apply_render_cap();
    }

    /// The frame-rate governor, if one is set.
    pub fn governor(&self) -> Option<&FrameRateGovernor> {
        self.render_rate.governor.as_ref()
    }

    /// Shows the governor, if any, a frame the display showed; a change of
    /// its render rate applies from the next frame. Out of line: most loops
    /// have no governor, and the pump's common path stays short without it.
    #[inline(never)]
    pub(crate) fn govern(&mut self, plan: &FramePlan) {
        let Some(governor) = self.render_rate.governor.as_mut() else {
            return;
        };
        let divisor = governor.divisor();
        governor.observe(
            plan.raw_delta(),
            self.frames.refresh_period().or(self.frames.refresh_hint()),
        );
        if governor.divisor() != divisor {
            self.apply_render_cap();
        }
    }

    /// Gives the planner the lower of the game's render cap and the
    /// governor's.
    fn apply_render_cap(&mut self) {
        self.frames.set_render_cap(self.render_rate.planner_cap());
    }
}

//! Display feedback: telling the loop when the frame a render drew reached
//! the screen, so that pacing plans each new frame for its showing (see
//! [`FrameLoop::frame_shown`](evenstep_core::FrameLoop::frame_shown)).
//!
//! What each frame source can supply:
//!
//! - **An engine with presentation timing** (`VK_GOOGLE_display_timing`,
//!   `VK_EXT_present_timing`, DXGI `GetFrameStatistics`, Wayland
//!   `wp_presentation`, Android's frame pacing library or Choreographer,
//!   `CADisplayLink`): tag each present with
//!   [`RenderContext::frame`](crate::RenderContext::frame) (a present id
//!   takes [`FrameId::get`]), and when the platform reports that present's
//!   actual time, convert it to the loop's clock and call
//!   [`Loop::frame_shown`]. The `presentation_feedback` example shows the
//!   calls with a simulated swap chain.
//! - **`evenstep-winit`**: winit reports no presentation times, so a
//!   winit window gives no feedback; its frames are planned from their
//!   timestamps.
//! - **`evenstep-web`**: the browser gives `requestAnimationFrame` a
//!   timestamp, the start of the vsync-aligned frame in Chromium, which the
//!   page already plans from; it says when a frame began, not when it was
//!   shown, so the page reports no feedback either.

use evenstep_core::{FeedbackError, FrameId, Timestamp};

use super::Loop;

impl<S> Loop<S> {
    /// Tells the loop that the frame numbered `frame` (a render's
    /// [`RenderContext::frame`](crate::RenderContext::frame), or a pump's
    /// [`PumpReport::plan`](crate::PumpReport::plan)`.frame()`) reached the
    /// screen at `at`, on the loop's [clock](Loop::clock). Reports may come
    /// late and may never come; see
    /// [`FrameLoop::frame_shown`](evenstep_core::FrameLoop::frame_shown).
    ///
    /// # Errors
    ///
    /// A report the planner refuses, which changes nothing: a frame it no
    /// longer remembers or never planned, one that was not drawn, one said
    /// to be shown before it was planned or more than about 4.3 s after,
    /// or one that does not come after the previous report (the same frame
    /// reported again, an earlier frame, or a time not later than the
    /// previous showing) ([`FeedbackError`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, PumpKind, Timestamp};
    ///
    /// let clock = ManualClock::new();
    /// let mut game = Loop::<()>::builder().clock(clock.clone()).build()?;
    /// game.start();
    /// clock.advance(Duration::from_millis(16));
    /// let report = game.pump(&mut (), PumpKind::Paint).report().unwrap();
    /// // The platform said the frame was shown 20 ms after its pump.
    /// let shown = Timestamp::from_nanos(report.now.as_nanos() + 20_000_000);
    /// assert_eq!(game.frame_shown(report.plan.frame(), shown), Ok(()));
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn frame_shown(&mut self, frame: FrameId, at: Timestamp) -> Result<(), FeedbackError> {
        self.frames.frame_shown(frame, at)?;
        if let Some(capture) = &mut self.capture {
            capture.shown(frame, at);
        }
        Ok(())
    }
}

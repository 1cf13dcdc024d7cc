//! Recording a capture: the loop's side of [`crate::capture`], started and
//! finished by the game, fed by the pump, catch-up and display feedback.

use std::io::{self, Write};

use evenstep_core::{FramePlan, Timestamp};

use crate::capture::{CaptureSummary, CaptureWriteError, CaptureWriter};
use crate::game_loop::Loop;

impl<S> Loop<S> {
    /// Starts recording the loop's frames into `out` as a capture the lab
    /// judges (`evenstep-lab --csv FILE`; the format is in the `capture`
    /// section of the crate doc): its header now, then a row for each
    /// frame rendered from the next pump on, written when the frame leaves
    /// the [`FRAMES_IN_FLIGHT`](crate::pacing::FRAMES_IN_FLIGHT) a
    /// [`frame_shown`](Loop::frame_shown) report can name, with the display
    /// time reported for it. Hand it a buffered writer: a row is one small
    /// write.
    ///
    /// A capture already recording is finished first (as
    /// [`finish_capture`](Loop::finish_capture) does), and what finishing it
    /// returned is returned; `None` when there was none.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, PumpKind, Timestamp};
    ///
    /// let clock = ManualClock::new();
    /// let mut game = Loop::<()>::builder().clock(clock.clone()).build()?;
    /// let _ = game.record_capture(Vec::new());
    /// game.start();
    /// for _ in 0..40 {
    ///     clock.advance(Duration::from_millis(16));
    ///     let report = game.pump(&mut (), PumpKind::Paint).report().unwrap();
    ///     let shown = Timestamp::from_nanos(report.now.as_nanos() + 20_000_000);
    ///     game.frame_shown(report.plan.frame(), shown)?;
    /// }
    /// // Eight frames left flight as frames 32 to 39 were planned.
    /// assert_eq!(game.capture_summary().map(|s| s.rows), Some(8));
    /// let summary = game.finish_capture().unwrap()?;
    /// assert_eq!((summary.rows, summary.shown), (40, 40));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn record_capture(
        &mut self,
        out: impl Write + 'static,
    ) -> Option<Result<CaptureSummary, CaptureWriteError>> {
        let previous = self.finish_capture();
        self.capture = Some(Box::new(CaptureWriter::new(Box::new(out))));
        previous
    }

    /// Finishes the capture recording: writes the frames still in flight
    /// (a frame with no report then is written not reported, `?`), flushes
    /// the writer and drops it. `None` when no capture is recording.
    ///
    /// # Errors
    ///
    /// [`CaptureWriteError`]: the writer's first error, with the rows
    /// written before it and the rows lost after it.
    pub fn finish_capture(&mut self) -> Option<Result<CaptureSummary, CaptureWriteError>> {
        self.capture.take().map(|capture| capture.finish())
    }

    /// What the capture recording has written so far; `None` when none is
    /// recording.
    pub fn capture_summary(&self) -> Option<CaptureSummary> {
        self.capture.as_ref().map(|capture| capture.summary())
    }

    /// The first error of the capture recording's writer, if it failed: no
    /// row is written after it. `None` while it writes, or when no capture
    /// is recording.
    pub fn capture_error(&self) -> Option<&io::Error> {
        self.capture.as_ref().and_then(|capture| capture.error())
    }

    /// A plan was made (a pump's, rendered or not, or a catch-up's): the
    /// capture writes the frames it pushed out of flight, and keeps a
    /// rendered one.
    #[inline]
    pub(crate) fn capture_plan(&mut self, plan: &FramePlan, now: Timestamp, rendered: bool) {
        if let Some(capture) = &mut self.capture {
            capture.planned(plan.frame(), now, rendered);
        }
    }
}

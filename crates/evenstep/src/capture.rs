//! Recording a loop's frames as a capture the `evenstep-lab` judges: a
//! `present_ms,display_ms` CSV, one row a frame the loop rendered, written
//! as the frame leaves the [`FRAMES_IN_FLIGHT`] a report can still name.
//!
//! A row is the frame's pump time and, in the second column, what display
//! feedback ([`Loop::frame_shown`]) said of it:
//!
//! - a time, in ms: the frame was reported shown then;
//! - empty: **never shown**. Reports come in the order frames were planned
//!   (the planner refuses any other), so once a later frame was reported, an
//!   earlier one with no report can never have one: the display skipped it
//!   (a mailbox swap chain replaced it);
//! - `?`: **not reported**. No report came for it, nor for any later frame,
//!   before it left the frames in flight (or before the capture finished):
//!   the loop cannot tell whether it was shown. Every row of a loop that gets
//!   no feedback is `?`, and the lab judges such a capture for stutter only,
//!   by its present times.
//!
//! Times are on the loop's clock, in ms with six decimals: exact to the
//! nanosecond, as the lab reads them. Only rendered paint pumps are rows;
//! tick pumps and catch-ups draw nothing, so they leave a gap between the
//! present times, as a hidden window does. A row is kept in a fixed ring of
//! [`FRAMES_IN_FLIGHT`] until it is written, so recording allocates nothing
//! after the start (given a writer that does not: a `BufWriter` allocates
//! its buffer once).
//!
//! An error from the writer never reaches the pump: the first is kept, no
//! row is written after it (a capture with a hole in it would be judged
//! wrong), the rows not written are counted, and
//! [`Loop::finish_capture`] returns it.
//!
//! # Examples
//!
//! A game records its frames into a file, reports each frame the platform
//! says it showed, and finishes the capture; then
//! `cargo run -p evenstep-lab --release -- --csv frames.csv` judges it.
//!
//! ```
//! use std::fs::File;
//! use std::io::BufWriter;
//! use std::time::Duration;
//! use evenstep::{Loop, ManualClock, PumpKind, Timestamp};
//!
//! let clock = ManualClock::new(); // a game uses the default clock
//! let mut game_loop = Loop::<()>::builder().clock(clock.clone()).build()?;
//! let path = std::env::temp_dir().join(format!("frames-{}.csv", std::process::id()));
//! let _ = game_loop.record_capture(BufWriter::new(File::create(&path)?));
//! game_loop.start();
//! for _ in 0..600 {
//!     clock.advance(Duration::from_nanos(16_666_667));
//!     if let Some(report) = game_loop.pump(&mut (), PumpKind::Paint).report() {
//!         // The platform's presentation time for the frame, on the loop's
//!         // clock (here: two refreshes after its pump).
//!         let at = Timestamp::from_nanos(report.now.as_nanos() + 33_333_334);
//!         let _ = game_loop.frame_shown(report.plan.frame(), at);
//!     }
//! }
//! let summary = game_loop.finish_capture().expect("a capture was recording")?;
//! assert_eq!((summary.rows, summary.shown), (600, 600));
//! let text = std::fs::read_to_string(&path)?;
//! assert_eq!(text.lines().nth(2), Some("16.666667,50.000001"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::io::{self, Write};

use evenstep_core::{FRAMES_IN_FLIGHT, FrameId, Timestamp};

#[cfg(doc)]
use crate::game_loop::Loop;

/// The header of a capture, after its comment line: the lab's two-column
/// format.
pub const CAPTURE_HEADER: &str = "present_ms,display_ms";

/// What the second column of a row says of a frame that was not reported
/// shown and cannot be known never shown: `?`.
pub const NOT_REPORTED: &str = "?";

/// The comment line a capture opens with, saying what its values mean (the
/// lab skips `#` lines).
const COMMENT: &str = "# evenstep capture: times in ms on the loop's clock; display_ms empty = never shown; ? = not reported";

/// What a capture held when it finished, or holds so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct CaptureSummary {
    /// Rows written.
    pub rows: u64,
    /// Rows with a display time: frames reported shown.
    pub shown: u64,
    /// Rows written never shown (empty): a later frame was reported first.
    pub never_shown: u64,
    /// Rows written not reported (`?`).
    pub not_reported: u64,
    /// Rows not written because the writer failed before them.
    pub lost: u64,
}

/// A capture whose writer failed: the first error, and what was written
/// before it. Rows after the error were not written (see
/// [`CaptureSummary::lost`]).
#[derive(Debug)]
pub struct CaptureWriteError {
    /// The writer's first error.
    pub error: io::Error,
    /// The rows written before it, and those lost.
    pub summary: CaptureSummary,
}

impl fmt::Display for CaptureWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the capture's writer failed after {} row(s) ({}); {} row(s) were not written",
            self.summary.rows, self.error, self.summary.lost
        )
    }
}

impl std::error::Error for CaptureWriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// A rendered frame still in flight: its number, its pump time, and its
/// display time once reported.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    frame: FrameId,
    present: Timestamp,
    shown: Option<Timestamp>,
}

const EMPTY: InFlight = InFlight {
    frame: FrameId::FIRST,
    present: Timestamp::ZERO,
    shown: None,
};

/// The capture a loop is recording: the writer, the rendered frames still
/// in flight (oldest first, in a ring), and the newest frame reported.
pub(crate) struct CaptureWriter {
    out: Box<dyn Write>,
    ring: [InFlight; FRAMES_IN_FLIGHT],
    /// Where the oldest frame in flight is, and how many there are.
    head: usize,
    len: usize,
    /// The newest frame a report the planner accepted named.
    reported: Option<FrameId>,
    summary: CaptureSummary,
    error: Option<io::Error>,
}

impl CaptureWriter {
    /// A capture into `out`, its comment and header written at once.
    pub(crate) fn new(out: Box<dyn Write>) -> CaptureWriter {
        let mut capture = CaptureWriter {
            out,
            ring: [EMPTY; FRAMES_IN_FLIGHT],
            head: 0,
            len: 0,
            reported: None,
            summary: CaptureSummary::default(),
            error: None,
        };
        let header = writeln!(capture.out, "{COMMENT}\n{CAPTURE_HEADER}");
        capture.keep(header);
        capture
    }

    /// The planner numbered a new plan `frame`, at `present`, `rendered` or
    /// not: the frames it pushed out of flight are written, and a rendered
    /// one joins those in flight.
    pub(crate) fn planned(&mut self, frame: FrameId, present: Timestamp, rendered: bool) {
        while self.len > 0 && frames_since(frame, self.ring[self.head].frame) >= FLIGHT {
            self.write_oldest();
        }
        if !rendered {
            return;
        }
        if self.len == FRAMES_IN_FLIGHT {
            // Only if plans went unseen: the oldest has left flight anyway.
            self.write_oldest();
        }
        let tail = (self.head + self.len) % FRAMES_IN_FLIGHT;
        self.ring[tail] = InFlight {
            frame,
            present,
            shown: None,
        };
        self.len += 1;
    }

    /// The planner accepted a report that `frame` was shown at `at`.
    pub(crate) fn shown(&mut self, frame: FrameId, at: Timestamp) {
        self.reported = Some(frame);
        for k in 0..self.len {
            let slot = &mut self.ring[(self.head + k) % FRAMES_IN_FLIGHT];
            if slot.frame == frame {
                slot.shown = Some(at);
                return;
            }
        }
    }

    /// Writes the frames still in flight and flushes the writer.
    pub(crate) fn finish(mut self) -> Result<CaptureSummary, CaptureWriteError> {
        while self.len > 0 {
            self.write_oldest();
        }
        if self.error.is_none() {
            let flushed = self.out.flush();
            self.keep(flushed);
        }
        match self.error {
            None => Ok(self.summary),
            Some(error) => Err(CaptureWriteError {
                error,
                summary: self.summary,
            }),
        }
    }

    /// What the capture holds so far.
    pub(crate) fn summary(&self) -> CaptureSummary {
        self.summary
    }

    /// The writer's first error, if it failed.
    pub(crate) fn error(&self) -> Option<&io::Error> {
        self.error.as_ref()
    }

    /// Writes the oldest frame in flight as a row (or counts it lost).
    fn write_oldest(&mut self) {
        let oldest = self.ring[self.head];
        self.head = (self.head + 1) % FRAMES_IN_FLIGHT;
        self.len -= 1;
        if self.error.is_some() {
            self.summary.lost += 1;
            return;
        }
        let later_reported = self
            .reported
            .is_some_and(|newest| is_after(newest, oldest.frame));
        // The row is made whole on the stack and written in one call, so a
        // writer that fails leaves no part of a row behind it.
        let mut row = [0_u8; ROW_BYTES];
        let mut cursor = io::Cursor::new(&mut row[..]);
        let present = Millis(oldest.present);
        let made = match oldest.shown {
            Some(at) => writeln!(cursor, "{present},{}", Millis(at)),
            None if later_reported => writeln!(cursor, "{present},"),
            None => writeln!(cursor, "{present},{NOT_REPORTED}"),
        };
        let length = usize::try_from(cursor.position()).unwrap_or(ROW_BYTES);
        let written = made.and_then(|()| self.out.write_all(&row[..length]));
        if !self.keep(written) {
            self.summary.lost += 1;
            return;
        }
        self.summary.rows += 1;
        match oldest.shown {
            Some(_) => self.summary.shown += 1,
            None if later_reported => self.summary.never_shown += 1,
            None => self.summary.not_reported += 1,
        }
    }

    /// Keeps the first error of a write; whether it wrote.
    fn keep(&mut self, written: io::Result<()>) -> bool {
        match written {
            Ok(()) => true,
            Err(error) => {
                self.error.get_or_insert(error);
                false
            }
        }
    }
}

impl fmt::Debug for CaptureWriter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CaptureWriter")
            .field("in_flight", &self.len)
            .field("summary", &self.summary)
            .field("error", &self.error)
            .finish_non_exhaustive()
    }
}

/// The longest row: two times of 21 characters (`u64::MAX` ns in ms), a
/// comma and a newline, with room to spare.
const ROW_BYTES: usize = 64;

/// [`FRAMES_IN_FLIGHT`] as a frame count.
const FLIGHT: u64 = FRAMES_IN_FLIGHT as u64;

/// How many frames `later` comes after `earlier`, counted forward with
/// wrapping, as the planner counts them.
fn frames_since(later: FrameId, earlier: FrameId) -> u64 {
    later.get().wrapping_sub(earlier.get())
}

/// Whether `later` comes after `earlier` (within half the numbers, which
/// wrap).
fn is_after(later: FrameId, earlier: FrameId) -> bool {
    let since = frames_since(later, earlier);
    since != 0 && since < 1 << 63
}

/// A timestamp written in ms with six decimals: exact to the nanosecond.
struct Millis(Timestamp);

impl fmt::Display for Millis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let nanos = self.0.as_nanos();
        write!(f, "{}.{:06}", nanos / 1_000_000, nanos % 1_000_000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timestamp_is_written_in_milliseconds_to_the_nanosecond() {
        let text = Millis(Timestamp::from_nanos(16_666_667)).to_string();
        assert_eq!(text, "16.666667");
        assert_eq!(Millis(Timestamp::from_nanos(5)).to_string(), "0.000005");
        assert_eq!(Millis(Timestamp::MAX).to_string(), "18446744073709.551615");
    }

    #[test]
    fn frame_numbers_are_compared_across_the_wrap() {
        assert!(is_after(FrameId::FIRST, FrameId::from_raw(u64::MAX)));
        assert!(!is_after(FrameId::from_raw(u64::MAX), FrameId::FIRST));
        assert!(!is_after(FrameId::FIRST, FrameId::FIRST));
    }
}

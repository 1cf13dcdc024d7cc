//! Recording a capture: a rendered frame's row is written when the frame
//! leaves the 32 in flight, with the display time feedback reported for it,
//! empty when a later frame was reported first (never shown) and `?` when
//! nothing was (not reported); tick pumps and catch-ups take a place in
//! flight but write no row; a failing writer never reaches the pump.

use std::cell::RefCell;
use std::fmt::Write as _;
use std::io::{self, Write};
use std::rc::Rc;
use std::time::Duration;

use evenstep::{
    CaptureSummary, FeedbackError, FrameId, Loop, ManualClock, PumpKind, PumpReport, Timestamp,
};

const START: u64 = 1_000_000_000;
const GAP: Duration = Duration::from_millis(16);
const HEADER: &str = "# evenstep capture: times in ms on the loop's clock; display_ms empty = \
                      never shown; ? = not reported\npresent_ms,display_ms\n";

/// A writer the test reads back while the loop holds it.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Shared {
    fn text(&self) -> String {
        String::from_utf8(self.0.borrow().clone()).unwrap()
    }
}

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn game() -> (ManualClock, Loop<()>) {
    let clock = ManualClock::starting_at(Timestamp::from_nanos(START));
    let game = Loop::<()>::builder().clock(clock.clone()).build().unwrap();
    (clock, game)
}

fn pump(clock: &ManualClock, game: &mut Loop<()>, kind: PumpKind) -> PumpReport {
    clock.advance(GAP);
    game.pump(&mut (), kind).report().unwrap()
}

/// 30 ms after the pump at `report`.
fn shown_at(report: &PumpReport) -> Timestamp {
    Timestamp::from_nanos(report.now.as_nanos() + 30_000_000)
}

#[test]
fn a_row_is_written_as_its_frame_leaves_flight_with_what_feedback_said_of_it() {
    let (clock, mut game) = game();
    let out = Shared::default();
    assert!(game.record_capture(out.clone()).is_none());
    game.start();
    for k in 0..40_u64 {
        let report = pump(&clock, &mut game, PumpKind::Paint);
        assert_eq!(report.plan.frame(), FrameId::from_raw(k));
        // Frames 0 to 4 and 6 are reported shown 30 ms on; 5 never is.
        if k < 5 || k == 6 {
            assert_eq!(
                game.frame_shown(report.plan.frame(), shown_at(&report)),
                Ok(())
            );
        }
        if k == 31 {
            // Frame 0 is still one of the 32 a report can name.
            assert_eq!(out.text(), HEADER);
        }
        if k == 32 {
            assert_eq!(out.text(), format!("{HEADER}1016.000000,1046.000000\n"));
        }
    }
    let summary = game.finish_capture().unwrap().unwrap();
    let mut expected = String::from(HEADER);
    for k in 0..40_u64 {
        let present = 1_000 + 16 * (k + 1);
        let _ = match k {
            0..=4 | 6 => writeln!(expected, "{present}.000000,{}.000000", present + 30),
            5 => writeln!(expected, "{present}.000000,"),
            _ => writeln!(expected, "{present}.000000,?"),
        };
    }
    assert_eq!(out.text(), expected);
    let counts = CaptureSummary {
        rows: 40,
        shown: 6,
        never_shown: 1,
        not_reported: 33,
        lost: 0,
    };
    assert_eq!(summary, counts);
    assert!(game.capture_summary().is_none());
}

#[test]
fn tick_pumps_and_catch_ups_take_a_place_in_flight_but_write_no_row() {
    let (clock, mut game) = game();
    let out = Shared::default();
    let _ = game.record_capture(out.clone());
    game.start();
    let painted = pump(&clock, &mut game, PumpKind::Paint);
    for _ in 0..30 {
        let _ = pump(&clock, &mut game, PumpKind::Tick);
    }
    let _ = game.catch_up(&mut (), Duration::from_millis(10)).unwrap();
    assert_eq!(out.text(), HEADER);
    // The 33rd plan, a tick: frame 0 leaves flight, unreported.
    let tick = pump(&clock, &mut game, PumpKind::Tick);
    assert_eq!(tick.plan.frame(), FrameId::from_raw(32));
    assert_eq!(out.text(), format!("{HEADER}1016.000000,?\n"));
    let late = game.frame_shown(painted.plan.frame(), shown_at(&painted));
    assert!(matches!(late, Err(FeedbackError::UnknownFrame { .. })));
    let summary = game.finish_capture().unwrap().unwrap();
    assert_eq!((summary.rows, summary.not_reported), (1, 1));
    assert_eq!(out.text(), format!("{HEADER}1016.000000,?\n"));
}

#[test]
fn a_report_the_planner_refuses_leaves_its_frame_not_reported() {
    let (clock, mut game) = game();
    let out = Shared::default();
    let _ = game.record_capture(out.clone());
    game.start();
    let report = pump(&clock, &mut game, PumpKind::Paint);
    let early = Timestamp::from_nanos(report.now.as_nanos() - 1);
    let refused = game.frame_shown(report.plan.frame(), early);
    assert!(matches!(refused, Err(FeedbackError::BeforePlanned { .. })));
    let summary = game.finish_capture().unwrap().unwrap();
    assert_eq!(out.text(), format!("{HEADER}1016.000000,?\n"));
    assert_eq!((summary.shown, summary.not_reported), (0, 1));
}

#[test]
fn times_are_written_to_the_nanosecond() {
    let clock = ManualClock::starting_at(Timestamp::from_nanos(7));
    let mut game = Loop::<()>::builder().clock(clock.clone()).build().unwrap();
    let out = Shared::default();
    let _ = game.record_capture(out.clone());
    game.start();
    clock.advance(Duration::from_nanos(16_666_667));
    let report = game.pump(&mut (), PumpKind::Paint).report().unwrap();
    let shown = Timestamp::from_nanos(33_333_341);
    assert_eq!(game.frame_shown(report.plan.frame(), shown), Ok(()));
    let _ = game.finish_capture().unwrap().unwrap();
    assert_eq!(out.text(), format!("{HEADER}16.666674,33.333341\n"));
}

#[test]
fn starting_a_capture_while_one_records_finishes_that_one_first() {
    let (clock, mut game) = game();
    let first = Shared::default();
    let second = Shared::default();
    let _ = game.record_capture(first.clone());
    game.start();
    let _ = pump(&clock, &mut game, PumpKind::Paint);
    let finished = game.record_capture(second.clone()).unwrap().unwrap();
    assert_eq!((finished.rows, finished.not_reported), (1, 1));
    assert_eq!(first.text(), format!("{HEADER}1016.000000,?\n"));
    let _ = pump(&clock, &mut game, PumpKind::Paint);
    let _ = game.finish_capture().unwrap().unwrap();
    assert_eq!(second.text(), format!("{HEADER}1032.000000,?\n"));
    assert!(game.finish_capture().is_none());
}

/// A writer that takes `lines` lines, then fails every write.
struct Failing {
    lines: usize,
    kept: Vec<u8>,
}

impl Write for Failing {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        let newlines = bytes.split(|&b| b == b'\n').count() - 1;
        if newlines > self.lines {
            return Err(io::Error::other("disk full"));
        }
        self.lines -= newlines;
        self.kept.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failing_writer_stops_the_capture_keeps_its_first_error_and_counts_the_rows_lost() {
    let (clock, mut game) = game();
    // The comment, the header and two rows.
    let _ = game.record_capture(Failing {
        lines: 4,
        kept: Vec::new(),
    });
    game.start();
    for k in 0..40 {
        let report = pump(&clock, &mut game, PumpKind::Paint);
        assert!(!report.stopped);
        if k == 33 {
            assert_eq!(game.capture_error().map(ToString::to_string), None);
        }
        if k == 34 {
            let error = game.capture_error().map(ToString::to_string);
            assert_eq!(error.as_deref(), Some("disk full"));
        }
    }
    let failed = game.finish_capture().unwrap().unwrap_err();
    assert_eq!(failed.error.to_string(), "disk full");
    assert_eq!((failed.summary.rows, failed.summary.lost), (2, 38));
    assert_eq!(
        failed.to_string(),
        "the capture's writer failed after 2 row(s) (disk full); 38 row(s) were not written"
    );
}

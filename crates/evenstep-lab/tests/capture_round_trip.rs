//! Bring your own capture: a capture an `evenstep` loop records
//! (`Loop::record_capture`) reads back row for row, to the nanosecond, and
//! is judged by its frames shown; a `?` (not reported) is told apart from
//! an empty display time (never shown); a capture in which no frame was
//! reported is judged for stutter only, by its present times, in the
//! library and on the command line; and existing captures read as before.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::Command;
use std::rc::Rc;

use evenstep::{Loop, ManualClock, PumpKind, Timestamp};
use evenstep_lab::{
    Capture, CaptureError, Config, JudgeError, Report, Row, Rows, Settings, Survey,
};

const START: u64 = 1_000_000_000;
const REFRESH: u64 = 16_666_667;
/// The pumps swing around the refreshes, as a game's timestamps do.
const SWING: [i64; 5] = [0, 6_000_000, -6_000_000, 3_000_000, -4_500_000];
const FRAMES: u64 = 300;

/// A writer the test reads back after the loop drops it.
#[derive(Clone, Default)]
struct Shared(Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// A recorded run: the capture's bytes, and the rows the lab should read
/// (present and display times from the first pump's).
struct Recorded {
    bytes: Vec<u8>,
    expected: Vec<Row>,
}

/// 300 frames of a loop on a 60 Hz display, each shown at the first refresh
/// 8 ms after its pump; with `feedback`, each reported two frames later
/// except every 50th, which the display skipped (never reported). The
/// 300th is skipped too, but no later frame is reported: it is `?`, with
/// the two before it, whose reports had not come.
fn record(feedback: bool) -> Recorded {
    let clock = ManualClock::starting_at(Timestamp::from_nanos(START));
    let mut game = Loop::<()>::builder().clock(clock.clone()).build().unwrap();
    let out = Shared::default();
    assert!(game.record_capture(out.clone()).is_none());
    game.start();
    let mut in_flight = VecDeque::new();
    let mut expected = Vec::new();
    let mut first = None;
    for k in 1..=FRAMES {
        let stamp = (START + k * REFRESH).saturating_add_signed(SWING[(k % 5) as usize]);
        clock.set(Timestamp::from_nanos(stamp));
        let report = game.pump(&mut (), PumpKind::Paint).report().unwrap();
        let shown = START + (stamp + 8_000_000 - START).div_ceil(REFRESH) * REFRESH;
        let skipped = k % 50 == 0;
        // The last two reported are still in flight when the run ends.
        let reported = feedback && !skipped && k < FRAMES - 2;
        let first = *first.get_or_insert(stamp);
        expected.push(Row {
            present: stamp - first,
            display: reported.then(|| shown - first),
        });
        if feedback && !skipped {
            in_flight.push_back((report.plan.frame(), Timestamp::from_nanos(shown)));
        }
        if in_flight.len() > 2 {
            let (frame, at) = in_flight.pop_front().unwrap();
            assert_eq!(game.frame_shown(frame, at), Ok(()));
        }
    }
    let summary = game.finish_capture().unwrap().unwrap();
    assert_eq!(summary.rows, FRAMES);
    let bytes = out.0.borrow().clone();
    Recorded { bytes, expected }
}

fn capture(name: &str, bytes: Vec<u8>) -> Capture {
    Capture::Bytes {
        name: name.into(),
        bytes,
    }
}

/// The rows of `bytes` as the lab reads them, and how many were `?`.
fn read_back(bytes: &[u8]) -> (Vec<Row>, u64) {
    let layout = Survey::of(bytes).unwrap().plan(None).unwrap();
    let mut rows = Rows::new(bytes, layout, None).unwrap();
    let read: Vec<Row> = rows.by_ref().map(Result::unwrap).collect();
    (read, rows.unreported())
}

#[test]
fn a_loop_capture_with_reports_reads_back_row_for_row_to_the_nanosecond() {
    let recorded = record(true);
    let (rows, unreported) = read_back(&recorded.bytes);
    assert_eq!(rows, recorded.expected);
    // Five skipped frames were never shown (a later one was reported); the
    // last three were not reported.
    let text = String::from_utf8(recorded.bytes).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[1], "present_ms,display_ms");
    assert_eq!(lines[2], "1022.666667,1033.333334");
    assert_eq!(lines[51], "1833.333350,");
    assert_eq!(
        lines[299..],
        ["5969.666766,?", "5978.833433,?", "6000.000100,?"]
    );
    assert_eq!(unreported, 3);
    assert_eq!(text.lines().filter(|l| l.ends_with(',')).count(), 5);
}

#[test]
fn a_loop_capture_with_reports_is_judged_by_its_frames_shown() {
    let recorded = record(true);
    let report = capture("loop", recorded.bytes)
        .judge(Settings::default(), None, None, 8)
        .unwrap();
    assert_eq!(
        (report.presented, report.shown, report.judged),
        (300, 292, 291)
    );
    assert_eq!(
        report.sources,
        "present times: present_ms; display times: display_ms (3 not reported, `?`, read as \
         never shown)"
    );
    assert!(report.display.starts_with("60 Hz"), "{}", report.display);
    // The display times came back on the refreshes: an accumulator fed
    // them is never wrong. Pumps swinging 6 ms around the refreshes make
    // the plain one wrong on every judged frame at some start phase, and
    // the planner told the display times far less often.
    assert_eq!(report.display_fed, 0);
    assert_eq!(report.counts(Config::NaiveF64).worst(), 291);
    assert!(report.counts(Config::Feedback).worst() < 291 / 10);
}

#[test]
fn a_capture_without_reports_is_judged_for_stutter_only() {
    let recorded = record(false);
    let text = String::from_utf8(recorded.bytes.clone()).unwrap();
    assert!(text.lines().skip(2).all(|line| line.ends_with(",?")));
    let capture = capture("no feedback", recorded.bytes);
    let refused = capture
        .judge(Settings::default(), None, None, 8)
        .unwrap_err();
    assert!(
        matches!(
            refused,
            JudgeError::Capture(CaptureError::NoReports { unreported: 300 })
        ),
        "{refused}"
    );
    // Given the display's rate, still no frame shown to judge by.
    let given = capture.judge(Settings::default(), "60".parse().ok(), None, 8);
    assert!(matches!(
        given,
        Err(JudgeError::Capture(CaptureError::NoReports { .. }))
    ));
    // Pumps swinging 6 ms around their refreshes have a median frame time
    // of no display's rate: the refusal says to give it.
    let unsure = capture.stamps(None, None).unwrap_err().to_string();
    assert!(unsure.ends_with("give it with --display-hz"), "{unsure}");
    let trace = capture.stamps("60".parse().ok(), None).unwrap();
    let presents: Vec<u64> = recorded.expected.iter().map(|row| row.present).collect();
    assert_eq!(trace.stamps(), presents);
    assert_eq!(trace.refresh_note(), Some("60 Hz, given"));
    let report = Report::new(Settings::default(), &[trace]);
    let verdict = &report.traces[0];
    assert!(verdict.judged.is_none(), "no display times: stutter only");
    assert!(verdict.metrics(Config::NaiveF64).stutter > 0);
}

#[test]
fn the_same_run_with_its_reports_removed_is_no_longer_judged_by_frames_shown() {
    // The negative control of the two tests above: one capture, only its
    // display column differs, and the lab takes the other path.
    let with = record(true);
    let without = record(false);
    let presents = |rows: &[Row]| rows.iter().map(|row| row.present).collect::<Vec<_>>();
    assert_eq!(presents(&with.expected), presents(&without.expected));
    assert!(
        capture("with", with.bytes)
            .judge(Settings::default(), None, None, 8)
            .is_ok()
    );
    assert!(
        capture("without", without.bytes)
            .judge(Settings::default(), None, None, 8)
            .is_err()
    );
}

#[test]
fn a_display_time_that_is_no_time_is_refused_naming_the_three_forms() {
    let text = "present_ms,display_ms\n0.0,?\n16.7,x\n";
    let layout = Survey::of(text.as_bytes()).unwrap().plan(None).unwrap();
    let error = Rows::new(text.as_bytes(), layout, None)
        .unwrap()
        .collect::<Result<Vec<Row>, _>>()
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "line 3: `x` in column `display_ms` is not a display time; expected a non-negative \
         number of ms, empty (or `NA`) for a frame never shown, or `?` for one not reported"
    );
}

#[test]
fn a_question_mark_is_no_display_time_in_a_presentmon_log() {
    // Only the two-column format has frames not reported; PresentMon's
    // columns read as before.
    let text = "MsBetweenPresents,MsUntilDisplayed\n16.7,20.0\n16.7,?\n";
    let layout = Survey::of(text.as_bytes()).unwrap().plan(None).unwrap();
    let error = Rows::new(text.as_bytes(), layout, None)
        .unwrap()
        .collect::<Result<Vec<Row>, _>>()
        .unwrap_err();
    assert!(
        matches!(error, CaptureError::Value { line: 3, .. }),
        "{error}"
    );
}

/// The capture written to a file the command line reads.
fn saved(name: &str, bytes: &[u8]) -> PathBuf {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

fn lab(path: &PathBuf) -> String {
    let output = Command::new(env!("CARGO_BIN_EXE_evenstep-lab"))
        .arg("--csv")
        .arg(path)
        .args(["--display-hz", "60"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_command_judges_a_loop_capture_by_its_frames_shown_or_for_stutter_without_reports() {
    let with = lab(&saved("capture_with_reports.csv", &record(true).bytes));
    assert!(
        with.contains("capture_with_reports.csv: 300 frames presented, 292 shown, 291 judged"),
        "{with}"
    );
    let without = lab(&saved("capture_without_reports.csv", &record(false).bytes));
    assert!(!without.contains("frames presented"), "{without}");
    assert!(
        without.contains("#1 capture_without_reports.csv: 300 frames on 60 Hz, given"),
        "{without}"
    );
}

//! Reading captures with display times: the `present_ms,display_ms` format
//! and PresentMon logs in the 1.x and 2.x column sets, with a process filter
//! where a log holds several, the `Dropped` column, display times from
//! `MsUntilDisplayed` or `MsBetweenDisplayChange`, and `TimeInSeconds`
//! passed over (or refused) when it is written too coarsely to time frames.
//! Bad input is a clear error naming the line, never a panic.

use std::fmt::Write as _;
use std::io::Write as _;

use evenstep_lab::{
    CaptureError, Config, DisplaySource, JudgeError, PresentSource, ProcessFilter, Row, Rows,
    Settings, Survey, judge_file,
};

/// The rows of `text`, read as the survey says, for `process`.
fn rows(text: &str, process: Option<ProcessFilter>) -> Result<Vec<Row>, CaptureError> {
    let survey = Survey::of(text.as_bytes())?;
    let layout = survey.plan(process.as_ref())?;
    Rows::new(text.as_bytes(), layout, process)?.collect()
}

fn row(present: u64, display: Option<u64>) -> Row {
    Row { present, display }
}

#[test]
fn the_two_column_format_has_an_empty_display_time_for_a_frame_never_shown() {
    let text = "present_ms,display_ms\n0.0000,\n6.4030,29.9280\n15.7070,\n23.0870,46.5780\n";
    let survey = Survey::of(text.as_bytes()).unwrap();
    assert_eq!(survey.layout.present(), PresentSource::PresentMs);
    assert_eq!(survey.layout.display(), DisplaySource::DisplayMs);
    assert_eq!(
        rows(text, None).unwrap(),
        [
            row(0, None),
            row(6_403_000, Some(29_928_000)),
            row(15_707_000, None),
            row(23_087_000, Some(46_578_000)),
        ]
    );
}

const V1: &str = "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,MsBetweenDisplayChange,\
MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed\n\
game.exe,100,0x1,DXGI,1,0,0,Composed: Flip,0,1.000000,16.700,16.667,0.1,2.0,20.000\n\
game.exe,100,0x1,DXGI,1,0,0,Composed: Flip,1,1.016600,16.600,0.000,0.1,2.0,0.000\n\
game.exe,100,0x1,DXGI,1,0,0,Composed: Flip,0,1.033400,16.800,33.333,0.1,2.0,20.100\n";

#[test]
fn a_presentmon_1_log_sums_ms_between_presents_and_skips_dropped_frames() {
    let survey = Survey::of(V1.as_bytes()).unwrap();
    assert_eq!(survey.layout.present(), PresentSource::BetweenPresents);
    assert_eq!(survey.layout.display(), DisplaySource::UntilDisplayed);
    assert_eq!(
        rows(V1, None).unwrap(),
        [
            row(0, Some(20_000_000)),
            row(16_600_000, None),
            row(33_400_000, Some(53_500_000)),
        ]
    );
}

#[test]
fn a_presentmon_2_log_reads_cpu_start_and_display_change_columns_with_na_for_frames_not_shown() {
    let text = "Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,\
AllowsTearing,PresentMode,FrameType,CPUStartTime,MsBetweenSimulationStart,MsBetweenPresents,\
MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,DisplayedTime\n\
game.exe,7,0x2,DXGI,1,0,0,Hardware: Independent Flip,Application,1000.0,NA,16.7,16.667,0.1,1.0,16.667\n\
game.exe,7,0x2,DXGI,1,0,0,Hardware: Independent Flip,Application,1016.7,NA,16.7,NA,0.1,1.0,NA\n\
game.exe,7,0x2,DXGI,1,0,0,Hardware: Independent Flip,Application,1033.4,NA,16.7,33.333,0.1,1.0,16.667\n";
    let survey = Survey::of(text.as_bytes()).unwrap();
    assert_eq!(survey.layout.present(), PresentSource::BetweenPresents);
    assert_eq!(survey.layout.display(), DisplaySource::BetweenDisplayChange);
    assert_eq!(
        rows(text, None).unwrap(),
        [
            row(0, Some(16_667_000)),
            row(16_700_000, None),
            row(33_400_000, Some(50_000_000)),
        ]
    );
}

const TWO_PROCESSES: &str = "Application,ProcessID,MsBetweenPresents,MsUntilDisplayed,Dropped\n\
a.exe,1,16.7,20.0,0\n\
b.exe,2,8.3,10.0,0\n\
a.exe,1,16.7,20.0,0\n\
b.exe,2,8.3,10.0,0\n\
b.exe,2,8.3,10.0,0\n";

#[test]
fn a_log_of_several_processes_is_read_for_the_one_named_by_name_or_id() {
    let error = rows(TWO_PROCESSES, None).unwrap_err();
    assert_eq!(
        error,
        CaptureError::SeveralProcesses {
            found: vec![
                "a.exe (pid 1, 2 rows)".into(),
                "b.exe (pid 2, 3 rows)".into()
            ]
        }
    );
    assert!(error.to_string().contains("--process"), "{error}");
    let a = rows(TWO_PROCESSES, Some(ProcessFilter::parse("A.EXE"))).unwrap();
    assert_eq!(
        a,
        [row(0, Some(20_000_000)), row(16_700_000, Some(36_700_000))]
    );
    let b = rows(TWO_PROCESSES, Some(ProcessFilter::parse("2"))).unwrap();
    assert_eq!(b.len(), 3);
    let missing = rows(TWO_PROCESSES, Some(ProcessFilter::parse("c.exe"))).unwrap_err();
    assert!(
        matches!(&missing, CaptureError::NoSuchProcess { wanted, .. } if wanted == "c.exe"),
        "{missing}"
    );
}

#[test]
fn time_in_seconds_written_to_four_significant_digits_is_passed_over_for_the_running_sum() {
    // 12.35 s, 12.37 s, 12.38 s: 10 ms steps, frames of zero length between.
    let text = "TimeInSeconds,MsBetweenPresents,MsUntilDisplayed,Dropped\n\
                12.35,16.6,20.0,0\n12.37,16.7,20.0,0\n12.38,16.7,20.0,0\n12.40,16.6,20.0,0\n";
    let survey = Survey::of(text.as_bytes()).unwrap();
    assert!(survey.time_in_seconds_is_coarse());
    assert_eq!(survey.layout.present(), PresentSource::BetweenPresents);
    let read = rows(text, None).unwrap();
    assert_eq!(read[3].present, 50_000_000);
    // With nothing else to time frames by, it is refused, not believed.
    let only = "TimeInSeconds,MsUntilDisplayed\n12.35,20.0\n12.37,20.0\n12.38,20.0\n";
    let error = rows(only, None).unwrap_err();
    assert_eq!(error, CaptureError::Coarse { decimals: 2 });
    assert!(error.to_string().contains("too coarse"), "{error}");
}

#[test]
fn capframex_metadata_lines_and_blank_lines_are_skipped() {
    let text = "// CapFrameX 1.6\n//GameName=RE2\n\nApplication,MsBetweenPresents,\
                MsUntilDisplayed,Dropped\nre2.exe,3.4,15.0,0\n\nre2.exe,3.5,0,1\n";
    assert_eq!(
        rows(text, None).unwrap(),
        [row(0, Some(15_000_000)), row(3_500_000, None)]
    );
}

#[test]
fn bad_captures_are_refused_with_the_line_and_the_columns_expected() {
    let value = rows("present_ms,display_ms\n0.0,1.0\nlate,2.0\n", None).unwrap_err();
    assert_eq!(
        value,
        CaptureError::Value {
            line: 3,
            column: "present_ms".into(),
            text: "late".into()
        }
    );
    let backwards = rows("present_ms,display_ms\n5.0,9.0\n4.0,10.0\n", None).unwrap_err();
    assert_eq!(backwards, CaptureError::Backwards { line: 3 });
    let columns = Survey::of("frame,when\n1,2\n".as_bytes()).unwrap_err();
    assert!(
        columns.to_string().contains("MsBetweenPresents"),
        "{columns}"
    );
    let no_display = Survey::of("MsBetweenPresents\n16.7\n".as_bytes()).unwrap_err();
    assert_eq!(no_display, CaptureError::NoDisplayColumn);
}

#[test]
fn a_capture_file_is_judged_with_its_rate_printed_beside_what_it_came_from() {
    let path = std::env::temp_dir().join(format!("evenstep-capture-{}.csv", std::process::id()));
    let mut file = std::fs::File::create(&path).unwrap();
    writeln!(file, "present_ms,display_ms").unwrap();
    for k in 0..600_u64 {
        let present = k as f64 * 16.680_567 + if k % 5 == 2 { 3.0 } else { 0.0 };
        let display = k as f64 * 16.680_567 + 30.0;
        writeln!(file, "{present:.4},{display:.4}").unwrap();
    }
    drop(file);
    let report = judge_file(&path, Settings::default(), None, None, 4).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(
        (report.presented, report.shown, report.judged),
        (600, 600, 599)
    );
    assert!(
        report.display.starts_with("60 Hz (measured 59.95"),
        "{}",
        report.display
    );
    assert!(report.table().contains("display-fed"));
    assert!(report.counts(Config::Locked).worst() < report.counts(Config::Off).worst());
    let missing = judge_file(
        std::path::Path::new("/nonexistent/capture.csv"),
        Settings::default(),
        None,
        None,
        4,
    );
    assert!(matches!(missing, Err(JudgeError::Io(_))));
}

/// The rows of `bytes`, which need not be text.
fn rows_of_bytes(bytes: &[u8]) -> Result<Vec<Row>, CaptureError> {
    let survey = Survey::of(bytes)?;
    let layout = survey.plan(None)?;
    Rows::new(bytes, layout, None)?.collect()
}

#[test]
fn bytes_that_are_not_text_in_a_display_or_dropped_column_are_refused_naming_line_and_column() {
    let display = rows_of_bytes(b"present_ms,display_ms\n0.0,1.0\n16.7,\xff\xfe\n").unwrap_err();
    assert_eq!(
        display.to_string(),
        "line 3: column `display_ms` holds bytes that are not UTF-8 text"
    );
    let dropped =
        rows_of_bytes(b"MsBetweenPresents,MsUntilDisplayed,Dropped\n16.7,20.0,0\n16.7,20.0,\x80\n")
            .unwrap_err();
    assert_eq!(
        dropped.to_string(),
        "line 3: column `Dropped` holds bytes that are not UTF-8 text"
    );
    let present = rows_of_bytes(b"present_ms,display_ms\n\xc3,1.0\n").unwrap_err();
    assert_eq!(
        present.to_string(),
        "line 2: column `present_ms` holds bytes that are not UTF-8 text"
    );
    // A `Dropped` that is text but neither 0 nor 1 is no flag either.
    let flag =
        rows_of_bytes(b"MsBetweenPresents,MsUntilDisplayed,Dropped\n16.7,20.0,yes\n").unwrap_err();
    assert_eq!(
        flag.to_string(),
        "line 2: `yes` in column `Dropped` is not 0 or 1"
    );
}

#[test]
fn a_log_with_a_process_id_on_every_row_is_surveyed_in_bounded_memory_and_refused_briefly() {
    let mut text =
        String::from("Application,ProcessID,MsBetweenPresents,MsUntilDisplayed,Dropped\n");
    for pid in 0..10_000 {
        writeln!(text, "game.exe,{pid},16.7,20.0,0").unwrap();
    }
    let survey = Survey::of(text.as_bytes()).unwrap();
    assert_eq!(survey.processes.len(), 64, "processes tracked");
    let error = survey.plan(None).unwrap_err();
    let message = error.to_string();
    assert!(message.len() < 1_000, "{} bytes: {message}", message.len());
    assert!(
        message.contains("game.exe (pid 0, 1 rows)")
            && message.contains("at least 49 more processes (9984 rows)"),
        "{message}"
    );
    // A process past the ones tracked is still found by its id, and one
    // absent is still refused.
    let last = rows(&text, Some(ProcessFilter::parse("9999"))).unwrap();
    assert_eq!(last, [row(0, Some(20_000_000))]);
    let absent = rows(&text, Some(ProcessFilter::parse("123456"))).unwrap_err();
    assert!(
        matches!(&absent, CaptureError::NoSuchProcess { wanted, .. } if wanted == "123456"),
        "{absent}"
    );
    assert!(absent.to_string().len() < 1_000, "{absent}");
}

#[test]
fn text_quoted_from_a_capture_in_an_error_is_clipped() {
    let long = "x".repeat(1_000_000);
    let header = format!("{long},{long}\n");
    let columns = Survey::of(header.as_bytes()).unwrap_err().to_string();
    assert!(columns.len() < 1_000, "{} bytes", columns.len());
    let wide: Vec<String> = (0..100_000).map(|k| format!("c{k}")).collect();
    let columns = Survey::of(format!("{}\n", wide.join(",")).as_bytes())
        .unwrap_err()
        .to_string();
    assert!(columns.len() < 1_000, "{} bytes", columns.len());
    assert!(columns.contains("c15, and 99984 more]"), "{columns}");
    let value = rows(
        &format!("present_ms,display_ms\n0.0,1.0\n{long},2.0\n"),
        None,
    )
    .unwrap_err();
    let value = value.to_string();
    assert!(value.len() < 300, "{} bytes", value.len());
    assert!(
        value.starts_with("line 3: `xxxx") && value.contains("…` in column `present_ms`"),
        "{value}"
    );
    let named = format!(
        "Application,ProcessID,MsBetweenPresents,MsUntilDisplayed\n{long},1,16.7,20.0\nb,2,16.7,20.0\n"
    );
    let several = rows(&named, None).unwrap_err().to_string();
    assert!(several.len() < 1_000, "{} bytes", several.len());
}

#[test]
fn a_capture_read_from_a_pipe_is_read_once_and_judged() {
    let mut text = String::from("present_ms,display_ms\n");
    for k in 0..600_u64 {
        let present = k as f64 * 16.680_567 + if k % 5 == 2 { 3.0 } else { 0.0 };
        let display = k as f64 * 16.680_567 + 30.0;
        writeln!(text, "{present:.4},{display:.4}").unwrap();
    }
    let mut lab = std::process::Command::new(env!("CARGO_BIN_EXE_evenstep-lab"))
        .args(["--csv", "/dev/stdin", "--phases", "2"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = lab.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(text.as_bytes()));
    let output = lab.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert!(
        stdout.contains("stdin: 600 frames presented, 600 shown, 599 judged"),
        "{stdout}"
    );
}

#[test]
fn a_capture_from_a_pipe_longer_than_the_lab_holds_is_refused_naming_the_bound() {
    use std::io::Read as _;
    let endless = std::io::repeat(b'0').take(evenstep_lab::MAX_PIPED_BYTES + 1);
    let error = evenstep_lab::read_piped(endless).unwrap_err();
    assert_eq!(
        error.to_string(),
        "more than 134217728 bytes (128 MiB, MAX_PIPED_BYTES) from a pipe; a capture \
         that long is read from a file, which is streamed"
    );
    let bytes = evenstep_lab::read_piped(b"present_ms,display_ms\n".as_slice()).unwrap();
    assert_eq!(bytes.len(), 22);
}

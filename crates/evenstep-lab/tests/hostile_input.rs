//! Hostile traces: gaps as long as `u64` allows, stalls and hidden spans no
//! display has, are either refused with an error naming the valid range or
//! analysed to the end, never a panic and never a wrong verdict.

use std::time::Duration;

use evenstep_lab::{CsvError, Rate, Refresh, Report, Settings, Synthetic, Trace, parse_csv, svg};

/// Every output the lab can write, so that every stage sees the trace.
fn analyse_everything(trace: Trace) {
    let report = Report::new(Settings::default(), &[trace]);
    let _ = report.table();
    let _ = report.json();
    let _ = svg(&report.traces[0], 0, 100);
}

#[test]
fn a_gap_of_u64_max_nanoseconds_is_not_mistaken_for_identical_stamps() {
    let error = parse_csv("t", "0\n18446744073709551615\n", None).unwrap_err();
    assert!(
        matches!(
            error,
            CsvError::NoSteadyRate {
                median_nanos: u64::MAX
            }
        ),
        "{error:?}"
    );
    let text = error.to_string();
    assert!(!text.contains("the same"), "{text}");
    assert!(text.contains("--display-hz"), "{text}");
    assert!(matches!(
        parse_csv("t", "5\n5\n5\n", None),
        Err(CsvError::NoRefresh)
    ));
}

#[test]
fn a_trace_with_a_gap_of_u64_max_nanoseconds_is_analysed_to_the_end() {
    let trace = parse_csv(
        "t",
        "0\n16666667\n18446744073709551615\n",
        Some(Rate::hz(60).unwrap()),
    )
    .unwrap();
    analyse_everything(trace);
    let stamps: Vec<u64> = (0..40_u64)
        .map(|k| k * 16_666_667)
        .chain([u64::MAX - 1, u64::MAX])
        .collect();
    analyse_everything(Trace::new(
        "the end of time",
        stamps,
        Refresh::Fixed(Rate::hz(60).unwrap()),
    ));
}

#[test]
fn a_stall_longer_than_an_hour_is_refused_with_the_valid_range() {
    let sixty = Synthetic::new(Rate::hz(60).unwrap()).frames(100).unwrap();
    let error = sixty.clone().stalls(1, u64::MAX).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("0 to 3600000 ms"), "{text}");
    assert!(sixty.clone().stalls(1, 3_600_000).is_ok());
    analyse_everything(sixty.stalls(10, 3_600_000).unwrap().generate());
}

#[test]
fn a_hidden_span_longer_than_a_day_is_refused_with_the_valid_range() {
    let sixty = Synthetic::new(Rate::hz(60).unwrap()).frames(100).unwrap();
    for (at, span) in [
        (Duration::ZERO, Duration::MAX),
        (Duration::MAX, Duration::ZERO),
    ] {
        let error = sixty.clone().hidden(at, span).unwrap_err();
        assert!(error.to_string().contains("at most 86400 s"), "{error}");
    }
    let day = Duration::from_secs(86_400);
    let trace = sixty.hidden(day, day).unwrap().generate();
    let stamps = trace.stamps();
    assert!(stamps.is_sorted());
    analyse_everything(trace);
}

#[test]
fn a_synthetic_trace_that_would_run_past_the_end_of_time_stops_there() {
    // Hour-long stalls every frame: 5.2 million frames would pass 2^64 ns.
    let trace = Synthetic::new(Rate::hz(60).unwrap())
        .frames(5_200_000)
        .unwrap()
        .stalls(1, 3_600_000)
        .unwrap()
        .generate();
    let stamps = trace.stamps();
    assert!(stamps.len() < 5_200_000, "{} frames", stamps.len());
    assert!(stamps.windows(2).all(|pair| pair[0] < pair[1]));
}

#[test]
fn a_trace_whose_jitter_outruns_its_frames_is_plotted_over_its_whole_span() {
    // Jitter of 71 minutes on a 12 kHz display: the stamps are in no order,
    // and the last is among the earliest.
    let trace = Synthetic::new(Rate::ratio(153_092_264, 12_544).unwrap())
        .frames(1_840)
        .unwrap()
        .jitter_us(4_284_287_232, evenstep_lab::Jitter::Uniform)
        .seed(0)
        .generate();
    let report = Report::new(Settings::default(), &[trace]);
    let drawing = svg(&report.traces[0], 0, 200).unwrap();
    assert!(drawing.starts_with("<svg"));
}

#[test]
fn a_trace_with_a_century_of_jitter_is_plotted_without_a_panic() {
    // A display at 0.19 Hz, and jitter beyond 146 years: the stamps pile up
    // at both ends of `u64`, and the drift is a narrow band around 4.6e15 ms.
    let trace =
        Synthetic::new(Rate::ratio(10_425_749_643_198_464, 55_732_204_470_272_000).unwrap())
            .frames(16)
            .unwrap()
            .jitter_us(55_136_646_987_776, evenstep_lab::Jitter::Uniform)
            .seed(0)
            .generate();
    let report = Report::new(Settings::default(), &[trace]);
    let drawing = svg(&report.traces[0], 0, 200).unwrap();
    assert!(drawing.starts_with("<svg"));
}

#[test]
fn a_capture_with_a_display_gap_of_u64_max_nanoseconds_is_judged_without_a_panic() {
    // One gap alone: it is its own smallest gap, one refresh.
    let mut timing = evenstep_lab::DisplayTiming::new();
    timing.push(0);
    timing.push(u64::MAX);
    let measured = timing.measure().unwrap();
    assert_eq!((measured.gaps(), measured.refreshes()), (1, 1));
    assert_eq!(measured.nominal(), None);
    // Beside steady 60 Hz gaps it is rounded to whole refreshes of them.
    let mut timing = evenstep_lab::DisplayTiming::new();
    for k in 0..1_000 {
        timing.push(k * 16_666_667);
    }
    timing.push(u64::MAX);
    let measured = timing.measure().unwrap();
    assert_eq!(measured.gaps(), 1_000);
    assert_eq!(measured.refreshes(), 999 + 1_106_915_334_957);
    assert_eq!(measured.refreshes_in(u64::MAX), 1_106_915_335_956);
    // And a capture file holding such a gap is judged to the end.
    let path = std::env::temp_dir().join(format!("evenstep-gap-{}.csv", std::process::id()));
    std::fs::write(
        &path,
        "present_ms,display_ms\n0,0\n16.6667,16.6667\n33.3333,18446744073709.551615\n",
    )
    .unwrap();
    let report = evenstep_lab::judge_file(&path, Settings::default(), None, None, 8);
    std::fs::remove_file(&path).unwrap();
    let report = report.unwrap();
    assert_eq!((report.presented, report.shown, report.judged), (3, 3, 2));
}

#[test]
fn a_synthetic_trace_of_more_frames_than_the_lab_holds_is_refused_naming_the_bound() {
    let sixty = Synthetic::new(Rate::hz(60).unwrap());
    for frames in [usize::MAX, evenstep_lab::MAX_FRAMES + 1] {
        let error = sixty.clone().frames(frames).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "a trace of {frames} frames; a synthetic trace has at most 10000000 frames \
                 (MAX_FRAMES)"
            )
        );
    }
    assert!(sixty.frames(evenstep_lab::MAX_FRAMES).is_ok());
    let queued = evenstep_lab::Queued::new(Rate::hz(60).unwrap());
    assert!(queued.clone().frames(usize::MAX).is_err());
    assert!(queued.frames(evenstep_lab::MAX_FRAMES).is_ok());
}

#[test]
fn a_capture_of_pauses_is_refused_past_the_long_gaps_it_keeps() {
    let mut timing = evenstep_lab::DisplayTiming::new();
    for k in 0..=evenstep_lab::MAX_LONG_GAPS as u64 {
        timing.push(k * 2_000_000_000);
    }
    assert!(timing.measure().is_ok(), "65,536 long gaps are kept");
    timing.push((evenstep_lab::MAX_LONG_GAPS as u64 + 1) * 2_000_000_000);
    let error = timing.measure().unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("more than 65536 display gaps over a second"),
        "{error}"
    );
}

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
    let sixty = Synthetic::new(Rate::hz(60).unwrap()).frames(100);
    let error = sixty.clone().stalls(1, u64::MAX).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("0 to 3600000 ms"), "{text}");
    assert!(sixty.clone().stalls(1, 3_600_000).is_ok());
    analyse_everything(sixty.stalls(10, 3_600_000).unwrap().generate());
}

#[test]
fn a_hidden_span_longer_than_a_day_is_refused_with_the_valid_range() {
    let sixty = Synthetic::new(Rate::hz(60).unwrap()).frames(100);
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
            .jitter_us(55_136_646_987_776, evenstep_lab::Jitter::Uniform)
            .seed(0)
            .generate();
    let report = Report::new(Settings::default(), &[trace]);
    let drawing = svg(&report.traces[0], 0, 200).unwrap();
    assert!(drawing.starts_with("<svg"));
}

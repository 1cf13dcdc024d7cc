//! Hostile traces: gaps as long as `u64` allows, stalls and hidden spans no
//! display has, are either refused with an error naming the valid range or
//! analysed to the end, never a panic and never a wrong verdict.

use std::time::Duration;

use evenstep_lab::{
    Config, CsvError, MAX_FRAMES, MAX_SPAN_MICROS, Queued, Rate, Refresh, Report, Settings,
    Synthetic, SyntheticError, Trace, parse_csv, svg,
};

/// Every output the lab can write, so that every stage sees the trace, and
/// each is whole: the table holds the trace's block, the JSON reads back
/// with its frames, the plot is drawn. The report is returned for its
/// verdicts.
fn analyse_everything(trace: Trace) -> Report {
    let (name, frames) = (trace.name().to_owned(), trace.len());
    let report = Report::new(Settings::default(), &[trace]);
    assert_eq!(report.traces[0].frames, frames);
    let table = report.table();
    assert!(
        table.contains(&format!("#1 {name}: {frames} frames on ")),
        "{table}"
    );
    let json: serde_json::Value = serde_json::from_str(&report.json()).unwrap();
    assert_eq!(json["traces"][0]["frames"], frames);
    assert_eq!(json["traces"][0]["configs"].as_array().unwrap().len(), 7);
    let drawing = svg(&report.traces[0], 0, 100).unwrap();
    assert!(drawing.starts_with("<svg") && drawing.trim_end().ends_with("</svg>"));
    report
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
    let report = analyse_everything(trace);
    // The gap runs what each planner allows at once and drops the rest: the
    // budget of 5 steps, or the naive accumulator's 0.25 s clamp (15 steps).
    for run in report.traces[0].runs() {
        let config = run.config();
        let most = if config == Config::NaiveF64 { 15 } else { 5 };
        assert_eq!(run.steps(), [1, 1, most], "{config}");
        assert!(
            run.dropped_nanos() > u64::MAX - 300_000_000,
            "{config}: {} ns dropped",
            run.dropped_nanos()
        );
    }
    let stamps: Vec<u64> = (0..40_u64)
        .map(|k| k * 16_666_667)
        .chain([u64::MAX - 1, u64::MAX])
        .collect();
    let report = analyse_everything(Trace::new(
        "the end of time",
        stamps,
        Refresh::Fixed(Rate::hz(60).unwrap()),
    ));
    for run in report.traces[0].runs() {
        // One step a frame up to the gap, and the most allowed on it.
        let config = run.config();
        let most = if config == Config::NaiveF64 { 15 } else { 5 };
        assert!(run.steps()[1..40].iter().all(|&s| s == 1), "{config}");
        assert_eq!(run.steps()[40], most, "{config}");
    }
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
fn a_capture_with_a_display_gap_of_u64_max_nanoseconds_has_its_statistics_taken_to_the_end() {
    // Its one display gap is the whole of `u64`: one refresh of a display
    // at a thousandth of a hertz, the slowest rate the lab writes.
    let path = std::env::temp_dir().join(format!("evenstep-stats-{}.csv", std::process::id()));
    std::fs::write(
        &path,
        "present_ms,display_ms\n0,0\n16.6667,18446744073709.551615\n",
    )
    .unwrap();
    let report = evenstep_lab::judge_file(&path, Settings::default(), None, None, 8);
    let trace = evenstep_lab::Capture::open(&path).and_then(|capture| capture.trace(None, None));
    std::fs::remove_file(&path).unwrap();
    assert_eq!(report.unwrap().judged, 1);
    let trace = trace.unwrap();
    assert_eq!(
        trace.refresh(),
        Refresh::Fixed(Rate::ratio(1, 1_000).unwrap())
    );
    assert_eq!(
        evenstep_lab::TraceStats::of(&trace),
        Some(evenstep_lab::TraceStats {
            present_gap_median: 16_666_700,
            present_gap_p99: 16_666_700,
            present_gap_max: 16_666_700,
            display_gap_median: u64::MAX,
            display_gap_p99: u64::MAX,
            latency_min: 0,
            latency_max: u64::MAX - 16_666_700,
            long_display_gaps_per_mille: 1_000,
        })
    );
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

#[test]
fn a_queued_capture_with_a_span_past_an_hour_is_refused_naming_the_bound() {
    let queued = Queued::new(Rate::hz(60).unwrap());
    let over = MAX_SPAN_MICROS + 1;
    let refused = [
        ("render work", queued.clone().render(over, 0).unwrap_err()),
        (
            "render noise",
            queued.clone().render(0, u64::MAX).unwrap_err(),
        ),
        (
            "a slow frame",
            queued.clone().slow(10, 0, u64::MAX).unwrap_err(),
        ),
        (
            "a hitch",
            queued.clone().stalls(10, u64::MAX, 0).unwrap_err(),
        ),
        ("GPU time", queued.clone().gpu(u64::MAX).unwrap_err()),
        (
            "a burst's speed-up",
            queued.clone().bursts(1, 1, 2, over).unwrap_err(),
        ),
        (
            "display jitter",
            queued.clone().display_jitter(over).unwrap_err(),
        ),
    ];
    for (what, error) in refused {
        assert!(
            matches!(error, SyntheticError::Span { what: named, .. } if named == what),
            "{what}: {error:?}"
        );
        let text = error.to_string();
        assert!(
            text.starts_with(what)
                && text
                    .ends_with("spans are each at most 3600000000 µs (an hour, MAX_SPAN_MICROS)"),
            "{text}"
        );
    }
    assert_eq!(
        queued.clone().gpu(u64::MAX).unwrap_err().to_string(),
        "GPU time of 18446744073709551615 µs; a queued capture's spans are each at most \
         3600000000 µs (an hour, MAX_SPAN_MICROS)"
    );
}

#[test]
fn a_queued_capture_with_shares_over_a_thousand_per_mille_or_bursts_past_the_frames_is_refused() {
    let queued = Queued::new(Rate::hz(60).unwrap());
    assert_eq!(
        queued.clone().slow(1_001, 0, 0).unwrap_err(),
        SyntheticError::PerMille {
            what: "slow frames",
            per_mille: 1_001
        }
    );
    let both = queued.clone().slow(600, 0, 0).unwrap().stalls(401, 0, 0);
    assert_eq!(
        both.unwrap_err().to_string(),
        "hitches in 401‰ of frames; a share is 0 to 1000‰, and slow frames and hitches \
         together at most 1000‰"
    );
    assert!(queued.clone().stalls(u64::MAX, 0, 0).is_err());
    assert!(queued.clone().bursts(1_001, 1, 1, 0).is_err());
    assert_eq!(
        queued.clone().bursts(1, 0, u64::MAX, 0).unwrap_err(),
        SyntheticError::Burst { frames: u64::MAX }
    );
    assert!(queued.bursts(1, 0, MAX_FRAMES as u64, 0).is_ok());
}

#[test]
fn a_queued_capture_with_every_span_an_hour_is_generated_and_analysed_to_the_end() {
    let hour = MAX_SPAN_MICROS;
    let trace = Queued::new(Rate::hz(60).unwrap())
        .frames(40)
        .and_then(|q| q.render(hour, hour))
        .and_then(|q| q.slow(500, hour, hour))
        .and_then(|q| q.stalls(500, hour, hour))
        .and_then(|q| q.gpu(hour))
        .and_then(|q| q.bursts(1_000, 1, MAX_FRAMES as u64, hour))
        .and_then(|q| q.display_jitter(hour))
        .unwrap()
        .generate();
    assert_eq!(trace.len(), 40);
    assert!(trace.stamps().windows(2).all(|pair| pair[0] < pair[1]));
    let display: Vec<u64> = trace.display().unwrap().iter().flatten().copied().collect();
    assert_eq!(display.len(), 40);
    assert!(display.windows(2).all(|pair| pair[0] < pair[1]));
    analyse_everything(trace);
}

#[test]
fn a_queued_capture_on_a_display_slower_than_a_refresh_a_century_ends_at_the_end_of_time() {
    // One refresh in 2^32 - 1 seconds (136 years): the fifth is past 2^64 ns.
    let trace = Queued::new(Rate::ratio(1, u64::from(u32::MAX)).unwrap())
        .frames(10)
        .unwrap()
        .generate();
    assert_eq!(trace.len(), 4);
    let display: Vec<u64> = trace.display().unwrap().iter().flatten().copied().collect();
    assert_eq!(display[3], 1_000_000_000 + 4 * 4_294_967_295_000_000_000);
}

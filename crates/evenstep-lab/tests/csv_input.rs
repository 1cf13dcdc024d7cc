//! Reading recorded traces from CSV: a column of milliseconds or
//! nanoseconds, PresentMon logs by column name, the display rate estimated
//! from the median frame time and matched to a common rate (or refused, never
//! guessed), and a clear error (never a panic) for input that is none of
//! these.

use evenstep_lab::{CsvError, CsvFormat, Rate, Refresh, SplitMix64, parse_csv, read_csv};

#[test]
fn decimal_values_are_milliseconds_read_exactly() {
    let (stamps, format) = read_csv("100.0\n116.666667\n133.333333\n").unwrap();
    assert_eq!(format, CsvFormat::Milliseconds);
    assert_eq!(stamps, [100_000_000, 116_666_667, 133_333_333]);
}

#[test]
fn integer_values_are_nanoseconds() {
    let (stamps, format) = read_csv("1000000000\n1016666667\n1033333333\n").unwrap();
    assert_eq!(format, CsvFormat::Nanoseconds);
    assert_eq!(stamps, [1_000_000_000, 1_016_666_667, 1_033_333_333]);
}

#[test]
fn a_header_naming_the_unit_decides_it() {
    let (stamps, format) = read_csv("time_ms\n0\n17\n33\n").unwrap();
    assert_eq!(format, CsvFormat::Milliseconds);
    assert_eq!(stamps, [0, 17_000_000, 33_000_000]);
    let (stamps, format) = read_csv("timestamp (ns)\n5\n10\n").unwrap();
    assert_eq!(format, CsvFormat::Nanoseconds);
    assert_eq!(stamps, [5, 10]);
}

#[test]
fn comments_blank_lines_and_spaces_are_ignored() {
    let text = "# captured on a 60 Hz panel\n\n ms \n 0.0 \n\n16.7\n# gap\n33.3\n";
    let (stamps, _) = read_csv(text).unwrap();
    assert_eq!(stamps, [0, 16_700_000, 33_300_000]);
}

#[test]
fn a_presentmon_log_is_read_by_its_time_in_seconds_column() {
    let text = "Application,ProcessID,SwapChainAddress,Runtime,TimeInSeconds,MsBetweenPresents\n\
                game.exe,1234,0x1,DXGI,1.000000000,16.667\n\
                game.exe,1234,0x1,DXGI,1.016667000,16.667\n\
                game.exe,1234,0x1,DXGI,1.033333000,16.666\n";
    let (stamps, format) = read_csv(text).unwrap();
    assert_eq!(format, CsvFormat::PresentMonSeconds);
    assert_eq!(stamps, [1_000_000_000, 1_016_667_000, 1_033_333_000]);
}

#[test]
fn a_presentmon_log_without_absolute_times_is_read_from_its_deltas() {
    for column in ["MsBetweenPresents", "msBetweenPresents"] {
        let text = format!(
            "Application,{column},Dropped\ngame.exe,16.5,0\ngame.exe,16.8,0\ngame.exe,33.4,1\n"
        );
        let (stamps, format) = read_csv(&text).unwrap();
        assert_eq!(format, CsvFormat::PresentMonDeltas, "{column}");
        assert_eq!(stamps, [16_500_000, 33_300_000, 66_700_000], "{column}");
    }
}

/// One value a line.
fn column(values: impl Iterator<Item = u64>) -> String {
    values.map(|v| v.to_string()).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_display_rate_is_the_median_frame_time_matched_to_a_common_rate_and_never_guessed() {
    let ntsc = column(
        (0..200_u64).map(|k| 1_000_000_000 + k * 1_001_000_000 / 60 + (k * 7919 % 1_000_000)),
    );
    let trace = parse_csv("ntsc", &ntsc, None).unwrap();
    assert_eq!(
        trace.refresh(),
        Refresh::Fixed(Rate::ratio(60_000, 1_001).unwrap())
    );
    assert!(
        trace.refresh_note().unwrap().contains("median"),
        "the estimate says what it came from: {:?}",
        trace.refresh_note()
    );
    // 99.0 Hz is no common rate within 0.5%: refused, not guessed.
    let odd = column((0..50_u64).map(|k| k * 10_100_000));
    let error = parse_csv("odd", &odd, None).unwrap_err();
    assert_eq!(
        error,
        CsvError::NoSteadyRate {
            median_nanos: 10_100_000
        }
    );
    assert!(error.to_string().contains("--display-hz"), "{error}");
    let given = parse_csv("given", &odd, Some(Rate::hz(100).unwrap())).unwrap();
    assert_eq!(given.refresh(), Refresh::Fixed(Rate::hz(100).unwrap()));
    assert_eq!(given.refresh_note(), Some("100 Hz, given"));
    assert_eq!(given.len(), 50);
}

fn error(text: &str) -> CsvError {
    read_csv(text).unwrap_err()
}

#[test]
fn several_unknown_columns_are_refused_naming_them_and_the_expected_ones() {
    let err = error("frame,when\n1,16.7\n2,33.3\n");
    assert_eq!(
        err,
        CsvError::Columns {
            found: vec!["frame".into(), "when".into()]
        }
    );
    let message = err.to_string();
    for expected in [
        "[frame, when]",
        "TimeInSeconds",
        "MsBetweenPresents",
        "milliseconds",
        "nanoseconds",
    ] {
        assert!(message.contains(expected), "{message}");
    }
}

#[test]
fn a_value_that_is_not_a_number_is_refused_with_its_line_and_column() {
    let err = error("ms\n0.0\n16.7\nlate\n");
    assert_eq!(
        err,
        CsvError::Value {
            line: 4,
            column: "ms".into(),
            text: "late".into()
        }
    );
    assert!(err.to_string().starts_with("line 4: `late` in column `ms`"));
    let negative = error("ms\n0.0\n-16.7\n");
    assert!(
        matches!(negative, CsvError::Value { line: 3, .. }),
        "{negative}"
    );
    let presentmon = error("TimeInSeconds,MsBetweenPresents\n1.0,16.7\nNA,16.7\n");
    assert!(
        matches!(&presentmon, CsvError::Value { line: 3, column, .. } if column == "TimeInSeconds"),
        "{presentmon}"
    );
    let short_row = error("Application,MsBetweenPresents\ngame.exe,16.7\ngame.exe\n");
    assert!(
        matches!(short_row, CsvError::Value { line: 3, .. }),
        "{short_row}"
    );
}

#[test]
fn backwards_absolute_timestamps_are_refused() {
    let err = error("ms\n0.0\n33.3\n16.7\n");
    assert_eq!(
        err,
        CsvError::Backwards {
            line: 4,
            text: "16.7".into()
        }
    );
    assert!(err.to_string().contains("presentation order"));
}

#[test]
fn fewer_than_two_timestamps_are_refused() {
    assert_eq!(error(""), CsvError::TooShort { found: 0 });
    assert_eq!(error("ms\n"), CsvError::TooShort { found: 0 });
    assert_eq!(error("16.7\n"), CsvError::TooShort { found: 1 });
    assert!(error("").to_string().contains("at least two"));
}

#[test]
fn integer_milliseconds_without_a_unit_are_refused_as_implausible_nanoseconds() {
    let err = error("0\n17\n33\n50\n");
    assert_eq!(err, CsvError::Implausible { median_nanos: 17 });
    assert!(err.to_string().contains("name the column `ms`"));
}

#[test]
fn a_trace_with_every_stamp_equal_has_no_refresh_rate() {
    assert_eq!(
        parse_csv("flat", "ms\n5.0\n5.0\n5.0\n", None).unwrap_err(),
        CsvError::NoRefresh
    );
}

#[test]
fn random_text_is_read_into_stamps_in_order_or_refused_with_the_readers_error() {
    let alphabet = b"0123456789.,-e# \n\"abcTimeInSeconds";
    let mut rng = SplitMix64::new(99);
    let (mut judged, mut no_rate, mut refused) = (0, 0, 0);
    for round in 0..4_000 {
        // Half noise from the alphabet, half columns of rising milliseconds
        // with a stray character now and then.
        let text: String = if round % 2 == 0 {
            let length = rng.below(60) as usize;
            (0..length)
                .map(|_| char::from(alphabet[rng.below(alphabet.len() as u64) as usize]))
                .collect()
        } else {
            let mut at = 0;
            (0..rng.below(12))
                .map(|_| {
                    at += 1_000 + rng.below(40_000);
                    match rng.below(16) {
                        0 => char::from(alphabet[rng.below(alphabet.len() as u64) as usize])
                            .to_string(),
                        1 => format!("{}", at / 1_000),
                        _ => format!("{}.{:03}", at / 1_000, at % 1_000),
                    }
                })
                .collect::<Vec<_>>()
                .join("\n")
        };
        match (read_csv(&text), parse_csv("noise", &text, None)) {
            // Read: at least two stamps, in order, and a trace of exactly
            // those at a rate matched to them, or refused for want of one.
            (Ok((stamps, _)), parsed) => {
                assert!(stamps.len() >= 2 && stamps.is_sorted(), "{text:?}");
                match parsed {
                    Ok(trace) => {
                        assert_eq!(trace.stamps(), &stamps[..], "{text:?}");
                        assert!(trace.refresh_note().unwrap().contains("estimated"));
                        judged += 1;
                    }
                    Err(CsvError::NoRefresh | CsvError::NoSteadyRate { .. }) => no_rate += 1,
                    Err(error) => panic!("{text:?} read, then refused: {error}"),
                }
            }
            // Refused: with the reader's own error, which says something.
            (Err(read), parsed) => {
                assert_eq!(parsed.unwrap_err(), read, "{text:?}");
                assert!(!read.to_string().is_empty());
                refused += 1;
            }
        }
    }
    // The noise is a fixed sequence: these are its outcomes.
    assert_eq!((judged, no_rate, refused), (68, 1_183, 2_749));
}

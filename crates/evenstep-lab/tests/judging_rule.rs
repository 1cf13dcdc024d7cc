//! The judging rule: each shown frame's steps against the refreshes it
//! stayed on screen (the frame alone, and with the shown frame before it),
//! with steps of frames never shown counted toward the next shown one, and
//! the display's period measured from its display times and matched to a
//! whole common rate; a display with no steady rate is not judged unless its
//! rate is given.

use evenstep_lab::{DisplayTiming, Measured, Rate, Rule, Tally, TimingError};

const P60: u64 = 16_666_667;

fn hz(hz: u32) -> Rate {
    Rate::hz(hz).unwrap()
}

/// Judges `(display, steps)` rows at `display_hz` with 60 steps a second.
fn wrong(display_hz: u32, rows: &[(Option<u64>, u64)]) -> (u64, u64) {
    let measured = Measured::given(hz(display_hz));
    let rule = Rule::new(hz(60), hz(display_hz));
    let mut tally = Tally::new();
    for &(display, steps) in rows {
        tally.push(&measured, &rule, display, steps);
    }
    (tally.wrong(), tally.judged())
}

#[test]
fn at_60_steps_on_60_hz_a_frame_is_wrong_exactly_when_its_steps_differ_from_its_refreshes() {
    let rows = [
        (Some(0), 0),       // starts the count
        (Some(P60), 1),     // 1 refresh, 1 step
        (Some(2 * P60), 0), // 1 refresh, 0 steps: wrong
        (Some(4 * P60), 2), // 2 refreshes, 2 steps, but 2 steps for 3 with the one before: wrong
        (Some(5 * P60), 1), // 1 refresh, 1 step (3 for 3 with the one before)
        (Some(6 * P60), 2), // 1 refresh, 2 steps: wrong
    ];
    assert_eq!(wrong(60, &rows), (3, 5));
}

#[test]
fn steps_of_frames_never_shown_count_toward_the_next_shown_frame() {
    let rows = [
        (Some(0), 5), // steps before the first shown frame are not judged
        (None, 1),
        (Some(P60), 0), // 1 refresh, 1 step (from the unshown frame)
        (None, 0),
        (None, 1),
        (Some(2 * P60), 0),
    ];
    assert_eq!(wrong(60, &rows), (0, 2));
}

#[test]
fn at_120_hz_either_phase_of_the_alternation_is_right_but_two_in_a_row_are_not() {
    let p = 8_333_333;
    let one_zero = [
        (Some(0), 0),
        (Some(p), 1),
        (Some(2 * p), 0),
        (Some(3 * p), 1),
    ];
    let zero_one = [
        (Some(0), 0),
        (Some(p), 0),
        (Some(2 * p), 1),
        (Some(3 * p), 0),
    ];
    assert_eq!(wrong(120, &one_zero), (0, 3));
    assert_eq!(wrong(120, &zero_one), (0, 3));
    let twice = [(Some(0), 0), (Some(p), 1), (Some(2 * p), 1)];
    assert_eq!(wrong(120, &twice), (1, 2), "1 + 1 steps over 2 refreshes");
    // A frame of two refreshes is exactly one step: k·r is a whole number.
    let long = [(Some(0), 0), (Some(2 * p), 0)];
    assert_eq!(wrong(120, &long), (1, 1));
}

#[test]
fn the_rule_is_exact_fractions_with_no_float_rounding() {
    let on_144 = Rule::new(hz(60), hz(144)); // r = 5/12
    assert!(on_144.fits(12, 5) && !on_144.fits(12, 4) && !on_144.fits(12, 6));
    assert!(on_144.fits(2, 0) && on_144.fits(2, 1) && !on_144.fits(2, 2));
    let on_30 = Rule::new(hz(60), hz(30)); // r = 2
    assert!(on_30.fits(1, 2) && !on_30.fits(1, 1) && !on_30.fits(1, 3));
    let ntsc = Rule::new(Rate::ratio(60_000, 1_001).unwrap(), hz(60));
    assert!(ntsc.fits(1_000, 999) && ntsc.fits(1_000, 1_000) && !ntsc.fits(1_000, 998));
}

#[test]
fn a_display_time_not_later_than_the_one_before_is_judged_as_never_shown() {
    let rows = [
        (Some(0), 0),
        (Some(P60), 1),
        (Some(P60), 1),
        (Some(2 * P60), 0),
    ];
    assert_eq!(
        wrong(60, &rows),
        (0, 2),
        "the repeated frame's step carries"
    );
}

fn measure(display: impl IntoIterator<Item = u64>) -> Result<Measured, TimingError> {
    let mut timing = DisplayTiming::new();
    for shown in display {
        timing.push(shown);
    }
    timing.measure()
}

#[test]
fn the_period_is_the_displayed_span_over_the_refreshes_covered_matched_to_a_whole_rate() {
    // 119.84 Hz (8,344,459 ns), frames of one and two refreshes: judged as
    // 120 Hz.
    let mut k = 0_u64;
    let times: Vec<u64> = (0..2_000)
        .map(|i| {
            k += 1 + u64::from(i % 3 == 0);
            k * 1_000_000_000_000 / 119_840
        })
        .collect();
    let measured = measure(times).unwrap();
    assert_eq!(measured.nominal(), Some(hz(120)));
    assert!((measured.measured_hz() - 119.84).abs() < 0.01);
    assert!(
        measured.describe().contains("119.84"),
        "{}",
        measured.describe()
    );
    // 59.95 Hz is judged as the 60 Hz it was sold as, never as 59.94.
    let measured = measure((0..1_000).map(|k| k * 16_680_567)).unwrap();
    assert_eq!(measured.nominal(), Some(hz(60)));
}

#[test]
fn frames_of_five_or_six_refreshes_are_found_to_be_refreshes_of_a_120_hz_display() {
    let p = 8_333_333;
    let mut t = 0;
    let times: Vec<u64> = (0..700)
        .map(|i| {
            t += if i % 4 == 0 { 6 * p } else { 5 * p };
            t
        })
        .collect();
    let measured = measure(times).unwrap();
    assert_eq!(measured.nominal(), Some(hz(120)));
    assert_eq!(measured.refreshes_in(6 * p), 6);
}

#[test]
fn a_display_whose_gaps_keep_no_period_is_refused_and_told_to_give_its_rate() {
    let mut t = 0_u64;
    let mut seed = 7_u64;
    let times: Vec<u64> = (0..1_000)
        .map(|_| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            t += 7_000_000 + (seed >> 33) % 14_000_000;
            t
        })
        .collect();
    let error = measure(times).unwrap_err();
    assert!(matches!(error, TimingError::NoSteadyRate { .. }), "{error}");
    assert!(error.to_string().contains("--display-hz"), "{error}");
    assert_eq!(
        measure([5]).unwrap_err(),
        TimingError::TooFew { found: 1 },
        "one shown frame has no gap"
    );
}

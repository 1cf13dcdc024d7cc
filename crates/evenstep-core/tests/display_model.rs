//! The display model: it finds a display's lattice of refreshes from frame
//! stamps and follows its period and phase through rough timing (stamps
//! swinging by milliseconds, outliers, missed refreshes, stalls, two frames
//! a refresh, a rate a little off nominal), says when a display keeps no
//! rhythm, and is what the planner's refresh period reports under locked
//! and snapped pacing.

mod common;

use common::SplitMix;

use evenstep_core::{
    DisplayModel, FrameLoop, Nanos, Pacing, Rhythm, StepBudget, Timestamp, Timestep,
};

const PERIOD_60: u64 = 16_666_667;
/// 59.95 Hz, the rate of a display sold as 60 Hz.
const PERIOD_59_95: u64 = 16_680_567;

fn at(nanos: u64) -> Timestamp {
    Timestamp::from_nanos(nanos)
}

/// Refresh `k` of a display with `period`, from one second in.
fn refresh(k: u64, period: u64) -> u64 {
    1_000_000_000 + k * period
}

/// Observes every stamp; returns the refreshes counted for each.
fn observe(display: &mut DisplayModel, stamps: &[u64]) -> Vec<Option<u64>> {
    stamps.iter().map(|&t| display.observe(at(t))).collect()
}

fn period_of(display: &DisplayModel) -> u64 {
    match display.rhythm() {
        Rhythm::Steady { period } => period.as_nanos(),
        other => panic!("no steady rhythm: {other:?}"),
    }
}

#[test]
fn a_steady_display_is_found_by_its_fifth_frame_and_each_frame_counts_one_refresh() {
    let stamps: Vec<u64> = (0..100).map(|k| refresh(k, PERIOD_60)).collect();
    let mut display = DisplayModel::new();
    let counts = observe(&mut display, &stamps);
    assert_eq!(counts[..4], [None; 4], "four deltas are needed first");
    assert!(counts[4..].iter().all(|&k| k == Some(1)), "{counts:?}");
    assert_eq!(period_of(&display), PERIOD_60);
    assert_eq!(display.spread(), Some(Nanos::ZERO));
}

#[test]
fn a_59_95_hz_display_with_stamps_swinging_three_milliseconds_is_followed_at_59_95() {
    let swing = [0_i64, 3_000_000, -3_000_000, 2_000_000, -1_000_000];
    let stamps: Vec<u64> = (0..2_000)
        .map(|k| refresh(k, PERIOD_59_95).saturating_add_signed(swing[k as usize % 5]))
        .collect();
    let mut display = DisplayModel::new();
    let counts = observe(&mut display, &stamps);
    assert!(counts[200..].iter().all(|&k| k == Some(1)));
    let period = period_of(&display);
    assert!(
        period.abs_diff(PERIOD_59_95) < 2_000,
        "followed to {period} ns, not 16,666,667"
    );
}

#[test]
fn deltas_of_22_and_12_ms_around_a_60_hz_display_are_one_refresh_each() {
    // A frame now and then presented 5.7 ms late, its successor on time.
    let stamps: Vec<u64> = (0..600)
        .map(|k| refresh(k, PERIOD_60) + if k % 7 == 3 { 5_700_000 } else { 0 })
        .collect();
    let mut display = DisplayModel::new();
    let counts = observe(&mut display, &stamps);
    assert!(
        counts[40..].iter().all(|&k| k == Some(1)),
        "{:?}",
        &counts[40..60]
    );
    assert!(period_of(&display).abs_diff(PERIOD_60) < 5_000);
}

#[test]
fn one_outlier_neither_loses_the_lattice_nor_stops_snapping() {
    let mut stamps: Vec<u64> = (0..200)
        .map(|k| refresh(k, PERIOD_60) + 3_000_000)
        .collect();
    stamps[100] += 7_000_000; // presented 7 ms late, shown on time
    let mut frames = FrameLoop::new(
        Timestep::HZ_60,
        StepBudget::DEFAULT,
        at(stamps[0] - PERIOD_60),
    )
    .with_pacing(Pacing::LOCKED);
    let snapped: Vec<bool> = stamps
        .iter()
        .map(|&t| frames.begin_frame(at(t)).snapped())
        .collect();
    assert!(
        snapped[20..].iter().all(|&s| s),
        "every frame from the 20th on snaps"
    );
    assert!(frames.refresh_period().is_some());
}

#[test]
fn a_missed_refresh_counts_two_and_a_quarter_second_stall_fifteen_and_the_lattice_holds() {
    let mut refreshes: Vec<u64> = (0..100).collect();
    for k in refreshes.iter_mut().skip(50) {
        *k += 1; // refresh 50 was missed
    }
    for k in refreshes.iter_mut().skip(80) {
        *k += 14; // a 250 ms stall before frame 80
    }
    let stamps: Vec<u64> = refreshes.iter().map(|&k| refresh(k, PERIOD_60)).collect();
    let mut display = DisplayModel::new();
    let counts = observe(&mut display, &stamps);
    assert_eq!(counts[50], Some(2));
    assert_eq!(counts[80], Some(15));
    assert!(counts[81..].iter().all(|&k| k == Some(1)));
    assert_eq!(period_of(&display), PERIOD_60);
}

#[test]
fn frames_presented_twice_a_refresh_are_followed_on_a_lattice_of_half_the_period() {
    let half = PERIOD_60 / 2;
    let stamps: Vec<u64> = (0..400)
        .map(|k| refresh(k, half) + (k % 3) * 300_000)
        .collect();
    let mut display = DisplayModel::new();
    let counts = observe(&mut display, &stamps);
    assert!(counts[40..].iter().all(|&k| k == Some(1)));
    assert!(period_of(&display).abs_diff(half) < 2_000);
}

#[test]
fn a_variable_refresh_display_keeps_no_rhythm() {
    // Each frame anywhere from 48 to 144 Hz.
    let mut rng = SplitMix(43);
    let mut now = 1_000_000_000_u64;
    let mut display = DisplayModel::new();
    let mut steady = 0;
    for _ in 0..5_000 {
        now += 6_944_444 + rng.below(20_833_333 - 6_944_444);
        display.observe(at(now));
        steady += usize::from(display.period().is_some());
    }
    assert_eq!(display.rhythm(), Rhythm::Irregular);
    assert!(steady < 100, "claimed a rhythm on {steady} frames of 5,000");
}

#[test]
fn startup_frames_filling_a_queue_do_not_leave_a_lattice_finer_than_the_display() {
    // Three quick frames while the queue fills, then one a refresh.
    let mut stamps = vec![1_000_000_000, 1_005_000_000, 1_010_000_000, 1_015_000_000];
    stamps.extend((1..300).map(|k| 1_015_000_000 + k * PERIOD_60));
    let mut display = DisplayModel::new();
    let counts = observe(&mut display, &stamps);
    assert!(
        counts[40..].iter().all(|&k| k == Some(1)),
        "{:?}",
        &counts[..40]
    );
    assert!(period_of(&display).abs_diff(PERIOD_60) < 2_000);
}

#[test]
fn a_hidden_window_drops_the_lattice_and_a_whole_window_finds_it_again() {
    let mut stamps: Vec<u64> = (0..100).map(|k| refresh(k, PERIOD_60)).collect();
    let back = stamps[99] + 5_000_000_000; // five seconds hidden
    stamps.extend((0..100).map(|k| back + k * PERIOD_60));
    let mut display = DisplayModel::new();
    let counts = observe(&mut display, &stamps);
    assert_eq!(counts[100], None, "no phase survives five seconds");
    // The frame after the gap starts the window; 32 deltas fill it.
    assert!(
        counts[100..132].iter().all(Option::is_none),
        "a lattice lost is found again only from a whole window"
    );
    assert!(counts[132..].iter().all(|&k| k == Some(1)));
}

#[test]
fn a_display_that_changes_rate_is_found_anew() {
    let mut stamps: Vec<u64> = (0..200).map(|k| refresh(k, PERIOD_60)).collect();
    let switch = stamps[199];
    stamps.extend((1..400).map(|k| switch + k * 6_944_444 + (k % 2) * 200_000)); // 144 Hz
    let mut display = DisplayModel::new();
    observe(&mut display, &stamps);
    assert!(period_of(&display).abs_diff(6_944_444) < 2_000);
}

#[test]
fn zero_and_backwards_deltas_teach_nothing() {
    let stamps: Vec<u64> = (0..50).map(|k| refresh(k, PERIOD_60)).collect();
    let mut display = DisplayModel::new();
    observe(&mut display, &stamps);
    let before = display.clone();
    assert_eq!(
        display.observe(at(stamps[49])),
        None,
        "the same stamp again"
    );
    assert_eq!(
        display.observe(at(stamps[40])),
        None,
        "a stamp from the past"
    );
    assert_eq!(display.rhythm(), before.rhythm());
}

#[test]
fn the_planner_reports_the_refresh_period_under_locked_and_snapped_pacing_only() {
    let stamps: Vec<u64> = (1..100).map(|k| refresh(k, PERIOD_60)).collect();
    let snapped = Pacing::snapped(core::time::Duration::from_millis(2)).unwrap();
    for (pacing, learns) in [
        (Pacing::LOCKED, true),
        (snapped, true),
        (Pacing::CENTRED, false),
        (Pacing::OFF, false),
    ] {
        let mut frames = FrameLoop::new(
            Timestep::HZ_60,
            StepBudget::DEFAULT,
            at(refresh(0, PERIOD_60)),
        )
        .with_pacing(pacing);
        for &t in &stamps {
            let _ = frames.begin_frame(at(t));
        }
        let expected = learns.then_some(Nanos::from_nanos(PERIOD_60));
        assert_eq!(frames.refresh_period(), expected, "{pacing:?}");
    }
}

#[test]
fn a_hinted_period_answers_until_the_model_measures_its_own() {
    let mut display = DisplayModel::new();
    display.set_period_hint(Some(Nanos::from_millis(7))); // a 144 Hz claim
    assert_eq!(display.period(), None);
    assert_eq!(display.period_or_hint(), Some(Nanos::from_millis(7)));
    let stamps: Vec<u64> = (0..10).map(|k| refresh(k, PERIOD_60)).collect();
    let _ = observe(&mut display, &stamps);
    // Measured, the frames' own period wins over what the display said.
    assert_eq!(display.period_or_hint(), Some(Nanos::from_nanos(PERIOD_60)));
    display.reset();
    assert_eq!(display.period_or_hint(), Some(Nanos::from_millis(7)));
}

#[test]
fn a_wrong_hint_changes_nothing_the_frames_show() {
    let stamps: Vec<u64> = (0..300).map(|k| refresh(k, PERIOD_60)).collect();
    let mut unhinted = DisplayModel::new();
    let mut wrong = DisplayModel::new();
    wrong.set_period_hint(Some(Nanos::from_millis(7))); // a 144 Hz claim
    assert_eq!(
        observe(&mut unhinted, &stamps),
        observe(&mut wrong, &stamps)
    );
    assert_eq!(period_of(&wrong), PERIOD_60);
}

#[test]
fn the_planner_keeps_its_refresh_hint_across_a_reset_and_a_pacing_change_and_ignores_zero() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    assert_eq!(frames.refresh_hint(), None);
    frames.set_refresh_hint(Some(Nanos::from_nanos(PERIOD_60)));
    frames.reset(Timestamp::ZERO);
    frames.set_pacing(Pacing::OFF);
    frames.set_pacing(Pacing::LOCKED);
    assert_eq!(frames.refresh_hint(), Some(Nanos::from_nanos(PERIOD_60)));
    frames.set_refresh_hint(Some(Nanos::ZERO));
    assert_eq!(frames.refresh_hint(), None);
}

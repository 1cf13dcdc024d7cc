//! The second baseline, Godot's physics jitter fix: it keeps a steady
//! display on its typical step count where the plain accumulator flickers,
//! gives back every second it holds over (the deficit stays within the jitter
//! fix), and drops steps past the budget as Godot's main loop does.

use std::time::Duration;

use evenstep_lab::{Config, GODOT_JITTER_FIX, GodotJitterFix, Planner, Settings};

const STEP: f64 = 1.0 / 60.0;

#[test]
fn stamps_swinging_two_milliseconds_around_60_hz_run_one_step_each_where_the_plain_accumulator_flickers()
 {
    // Refresh k at k/60 s, each stamp 2 ms early or late in turn.
    let stamps: Vec<u64> = (1..=600_u64)
        .map(|k| {
            (k * 1_000_000_000 / 60 + 100_000_000).saturating_add_signed(if k % 2 == 0 {
                2_000_000
            } else {
                -2_000_000
            })
        })
        .collect();
    let mut godot = GodotJitterFix::new(60.0, 5);
    let mut last = 100_000_000;
    let godot_steps: Vec<u64> = stamps
        .iter()
        .map(|&t| {
            let delta = Duration::from_nanos(t - std::mem::replace(&mut last, t));
            godot.advance(delta.as_secs_f64())
        })
        .collect();
    // Its history of typical counts fills over the first dozen frames.
    assert!(
        godot_steps[24..].iter().all(|&s| s == 1),
        "{:?}",
        &godot_steps[..48]
    );
    // The plain accumulator, its step boundaries on the refreshes, runs 0
    // and 2.
    let mut naive = Planner::new(Config::NaiveF64, &Settings::default(), 100_000_000);
    let naive_steps: Vec<u64> = stamps.iter().map(|&t| naive.frame(t)).collect();
    assert!(naive_steps[12..].iter().filter(|&&s| s != 1).count() > 200);
}

#[test]
fn over_a_long_run_it_runs_the_steps_the_time_pays_for_to_within_the_jitter_fix() {
    let mut godot = GodotJitterFix::new(60.0, 5);
    let mut seconds = 0.0;
    let mut steps = 0;
    for k in 0..10_000_u64 {
        let delta = STEP * (1.0 + 0.1 * ((k * 7 % 13) as f64 - 6.0) / 6.0);
        seconds += delta;
        steps += godot.advance(delta);
    }
    let owed = seconds / STEP - steps as f64;
    assert!(
        owed.abs() <= 1.0 + GODOT_JITTER_FIX,
        "{owed} steps behind the time"
    );
}

#[test]
fn a_stall_runs_the_budget_and_drops_the_rest_as_godots_main_loop_does() {
    let mut godot = GodotJitterFix::new(60.0, 5);
    for _ in 0..30 {
        godot.advance(STEP);
    }
    // Twelve steps' worth; the jitter fix keeps the frame near its typical
    // count, so 11 are due now (the rest is carried): 5 run, 6 dropped.
    let (steps, dropped) = godot.advance_reporting(0.2);
    assert_eq!((steps, dropped), (5, 6));
}

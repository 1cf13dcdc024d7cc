//! Input latency: from an input's stamp to the pump whose steps read it,
//! stamps spread uniformly over wall time, per configuration and start
//! phase (median and 99th percentile, exact to the 10 µs bin), on
//! hand-built traces whose step ends are known.

use core::time::Duration;

use evenstep_lab::{Config, Measured, Rate, Settings, Sweep, SweepReport};

const MS: u64 = 1_000_000;

/// 50 steps a second: a step is exactly 20 ms.
fn settings() -> Settings {
    Settings::new(Rate::hz(50).unwrap(), 5, Duration::from_millis(2)).unwrap()
}

/// `frames` frames presented every `gap_ms` and shown 30 ms later, judged
/// at 50 Hz over `phases` start phases.
fn steady(frames: u64, gap_ms: u64, phases: u32) -> SweepReport {
    let mut sweep = Sweep::new(
        "steady",
        settings(),
        Measured::given(Rate::hz(50).unwrap()),
        phases,
    );
    for k in 0..frames {
        sweep.push(k * gap_ms * MS, Some(k * gap_ms * MS + 30 * MS));
    }
    sweep.finish()
}

fn close(got: Option<f64>, want: f64, within: f64) -> bool {
    got.is_some_and(|got| (got - want).abs() <= within)
}

#[test]
fn pacing_off_on_a_perfect_display_waits_half_a_frame_at_the_median_from_phase_zero() {
    let report = steady(500, 20, 2);
    let off = report.latency(Config::Off);
    // Phase 0: every step ends at its pump, stamps wait 0 to 20 ms.
    assert_eq!(off.median_ms[0], Some(10.0));
    assert_eq!(off.p99_ms[0], Some(19.8));
    // Phase 1/2: the bank keeps 10 ms, each step ends 10 ms before its
    // pump, stamps wait 10 to 30 ms.
    assert_eq!(off.median_ms[1], Some(20.0));
    assert_eq!(off.p99_ms[1], Some(29.8));
    assert_eq!(off.median_mean(), Some(15.0));
    assert_eq!(off.median_spread(), Some((10.0, 20.0)));
}

#[test]
fn a_bank_started_half_full_waits_a_whole_step_at_the_median() {
    let report = steady(500, 20, 2);
    let centred = report.latency(Config::Centred);
    // Phase 0: centred pacing starts the bank at 10 ms, so every step
    // after the first ends 10 ms before its pump (the first, filled from
    // the start, a little later).
    assert!(close(centred.median_ms[0], 20.0, 0.02), "{centred:?}");
    // The negative control: pacing off from phase 0 waits half as long.
    assert_eq!(report.latency(Config::Off).median_ms[0], Some(10.0));
    // Phase 1/2: the anchor's half step fills the centred bank to a whole
    // step, and from then on its steps end at their pumps.
    assert!(close(centred.median_ms[1], 10.0, 0.05), "{centred:?}");
}

#[test]
fn the_naive_accumulator_follows_the_same_rule_with_its_own_accumulator() {
    let report = steady(500, 20, 2);
    let naive = report.latency(Config::NaiveF64);
    assert!(close(naive.median_ms[0], 10.0, 1e-5), "{naive:?}");
    assert!(close(naive.median_ms[1], 20.0, 1e-5), "{naive:?}");
    assert!(close(naive.p99_ms[1], 29.8, 1e-5), "{naive:?}");
}

#[test]
fn a_frame_that_runs_no_step_makes_its_stamps_wait_for_the_next_one() {
    // 100 Hz frames, 50 Hz steps: every other frame runs a step, at its
    // pump from phase 0, so stamps wait 0 to 20 ms, as at 50 Hz.
    let report = steady(1_000, 10, 2);
    let off = report.latency(Config::Off);
    assert_eq!(off.median_ms[0], Some(10.0));
    assert_eq!(off.p99_ms[0], Some(19.8));
    // Phase 1/2 moves the anchor by a whole frame: steps end at the pumps
    // again (all but the first), the frames between run none.
    assert!(close(off.median_ms[1], 10.0, 0.05), "{off:?}");
}

#[test]
fn the_default_minus_off_is_the_mean_of_the_phases_median_differences_in_steps() {
    let report = steady(500, 20, 2);
    let (mean, worst) = report.latency_default_minus_off_steps.unwrap();
    let default = &report.latency(Config::Locked).median_ms;
    let off = &report.latency(Config::Off).median_ms;
    let steps: Vec<f64> = default
        .iter()
        .zip(off)
        .map(|(d, o)| (d.unwrap() - o.unwrap()) / 20.0)
        .collect();
    assert!((mean - f64::midpoint(steps[0], steps[1])).abs() < 1e-12);
    assert!((worst - steps[0].max(steps[1])).abs() < 1e-12);
}

#[test]
fn the_latency_and_its_default_minus_off_are_in_the_table_and_the_json() {
    let report = steady(200, 20, 2);
    let block = report.table();
    assert!(block.contains("input latency (stamp to the pump that reads it)"));
    let off: Vec<&str> = block
        .lines()
        .find(|line| line.trim_start().starts_with("evenstep off") && line.contains('-'))
        .map(|line| line.split_whitespace().collect())
        .unwrap_or_default();
    assert_eq!(
        off.get(2..5),
        Some(&["15.00", "10.00-20.00", "24.80"][..]),
        "{block}"
    );
    assert!(block.contains("default minus off, median latency:"));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["latency"][2]["config"], "off");
    assert_eq!(json["latency"][2]["median_ms"][0], 10.0);
    assert!(json["latency_default_minus_off_steps"].is_array());
}

//! Judder of the drawn time: for a game that draws interpolated, each
//! shown frame's change in drawn simulation time (steps plus blend factor,
//! times the step) against its change in display time, `|Δdrawn -
//! Δdisplay|`, judged on shown frames only.

use core::time::Duration;

use evenstep_lab::{Config, Measured, Rate, Settings, Sweep, SweepReport};

const MS: u64 = 1_000_000;

fn settings() -> Settings {
    Settings::new(Rate::hz(50).unwrap(), 5, Duration::from_millis(2)).unwrap()
}

/// Judges `(present, display)` rows at 50 Hz, at start phase 0 only.
fn judge(rows: impl IntoIterator<Item = (u64, Option<u64>)>) -> SweepReport {
    let mut sweep = Sweep::new(
        "hand-built",
        settings(),
        Measured::given(Rate::hz(50).unwrap()),
        1,
    );
    for (present, display) in rows {
        sweep.push(present, display);
    }
    sweep.finish()
}

/// Presents 1 ms late and 1 ms early by turns, shown on the refresh.
fn jittered() -> SweepReport {
    judge((0..400_u64).map(|k| {
        let present = k * 20 * MS + if k % 2 == 0 { MS } else { 0 };
        (present + 5 * MS, Some(k * 20 * MS + 30 * MS))
    }))
}

fn mean(report: &SweepReport, config: Config) -> f64 {
    report.judder(config).mean_ms[0].unwrap()
}

#[test]
fn a_naive_accumulator_draws_its_stamps_jitter_and_a_display_fed_one_draws_none() {
    let report = jittered();
    // Its drawn time moves as its stamps do, 19 and 21 ms a frame, on a
    // display that moves 20.
    assert!((mean(&report, Config::NaiveF64) - 1.0).abs() < 1e-6);
    assert!((report.judder(Config::NaiveF64).p99_ms[0].unwrap() - 1.0).abs() < 1e-6);
    assert!((mean(&report, Config::Off) - 1.0).abs() < 1e-6);
    let fed = report.display_fed_judder.mean_ms[0].unwrap();
    assert!(fed < 1e-6, "{fed}");
}

#[test]
fn godot_draws_its_smoothed_clock_not_its_stamps() {
    // Godot's jitter fix hands on a process step pulled toward whole
    // steps, and its interpolation fraction follows that clock.
    let report = jittered();
    assert!(
        mean(&report, Config::Godot) < 0.05,
        "{:?}",
        report.judder(Config::Godot)
    );
}

#[test]
fn only_shown_frames_are_judged_and_a_frame_shown_a_refresh_late_judders_twice() {
    // Perfect stamps; frame 10 is shown a refresh late, frame 11 on the
    // same refresh (so not shown), frame 30 never.
    let rows = (0..100_u64).map(|k| {
        let on_time = k * 20 * MS + 30 * MS;
        let display = match k {
            10 | 11 => Some(on_time + 20 * MS),
            30 => None,
            _ => Some(on_time),
        };
        (k * 20 * MS, display)
    });
    let report = judge(rows);
    let off = report.judder(Config::Off);
    // Frame 10: drawn +20 ms, shown +40; frame 12: drawn +40 (11's step
    // carries), shown +20; frame 31: drawn +40, shown +40. 97 judged.
    assert_eq!(report.judged, 97);
    assert!(
        (off.mean_ms[0].unwrap() - 40.0 / 97.0).abs() < 1e-9,
        "{off:?}"
    );
    assert_eq!(off.p99_ms[0], Some(20.0));
}

#[test]
fn the_judder_is_in_the_table_and_the_json() {
    let report = jittered();
    assert!(report.table().contains("judder mean"));
    let json = serde_json::to_value(&report).unwrap();
    assert_eq!(json["judder"][0]["config"], "naive_f64");
    assert!(json["display_fed_judder"]["mean_ms"][0].as_f64().unwrap() < 1e-6);
}

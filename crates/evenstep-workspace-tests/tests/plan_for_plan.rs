//! Contract: over recorded and synthetic frame traces, under every pacing,
//! the plugin runs exactly the steps a standalone `FrameLoop` given the same
//! timestamps plans, frame for frame: the same plan, as many `FixedUpdate`
//! runs, `Time<Fixed>` at the plan's simulation time and its overstep
//! fraction at the plan's alpha.

// The plugin's own test app, from its tests.
#[path = "../../evenstep-bevy/tests/support/mod.rs"]
mod support;

use core::time::Duration;

use evenstep_bevy::{Budget, EvenstepSettings};
use evenstep_core::{FrameLoop, Pacing, StepBudget, Timestamp, Timestep};

fn pacings() -> [Pacing; 4] {
    [
        Pacing::OFF,
        Pacing::CENTRED,
        Pacing::LOCKED,
        Pacing::snapped(Duration::from_millis(2)).unwrap(),
    ]
}

/// Runs `stamps` (nanoseconds) through the plugin and a standalone planner
/// side by side, at `Time<Fixed>` of `hz` (the planner at `timestep`), and
/// checks every frame. Returns the steps run.
fn run_side_by_side(stamps: &[u64], hz: f64, timestep: Timestep, pacing: Pacing) -> u64 {
    let budget = Budget::Steps(StepBudget::DEFAULT);
    let settings = EvenstepSettings {
        timestep: None,
        budget,
        pacing,
    };
    let mut app = support::app(hz, Some(settings));
    let start = Timestamp::from_nanos(stamps[0]);
    let mut alone = FrameLoop::new(timestep, StepBudget::DEFAULT, start).with_pacing(pacing);
    let mut steps = 0;
    for (frame, &stamp) in stamps.iter().enumerate() {
        let ran = support::frame_at(&mut app, Duration::from_nanos(stamp - stamps[0]));
        let expected = alone.begin_frame(Timestamp::from_nanos(stamp));
        let published = support::plan(&app);
        assert_eq!(*published.plan(), expected, "{pacing:?}, frame {frame}");
        assert_eq!(
            ran as u64,
            expected.steps_run(),
            "{pacing:?}, frame {frame}"
        );
        let fixed = support::fixed(&app);
        assert_eq!(
            fixed.elapsed(),
            expected.sim_time().as_duration(),
            "frame {frame}"
        );
        let alpha = expected.alpha().as_f32();
        assert!(
            (fixed.overstep_fraction() - alpha).abs() <= 2.0 * f32::EPSILON,
            "{pacing:?}, frame {frame}: {} against {alpha}",
            fixed.overstep_fraction()
        );
        steps += expected.steps_run();
    }
    steps
}

#[test]
fn the_plugin_runs_the_planners_steps_over_a_60_hz_capture() {
    let stamps = capture("csgo_60hz_composed.csv");
    assert_eq!(stamps.len(), 4_265);
    for pacing in pacings() {
        run_side_by_side(&stamps, 60.0, Timestep::HZ_60, pacing);
    }
}

#[test]
fn the_plugin_runs_the_planners_steps_over_120_hz_captures() {
    for name in [
        "dwm_120hz_vsync.csv",
        "farcrynewdawn_120hz_composed.csv",
        "residentevil2_120hz_composed.csv",
    ] {
        let stamps = capture(name);
        for pacing in pacings() {
            run_side_by_side(&stamps, 60.0, Timestep::HZ_60, pacing);
        }
    }
}

#[test]
fn the_plugin_runs_the_planners_steps_over_synthetic_traces() {
    let mut hitches = support::jittered(30, 1, 300, 2_000_000, 7);
    for frame in [40, 41, 150] {
        for stamp in &mut hitches[frame..] {
            *stamp += 300_000_000;
        }
    }
    let traces = [
        (
            support::jittered(60, 1, 600, 1_500_000, 1),
            60.0,
            Timestep::HZ_60,
        ),
        (
            support::jittered(144, 1, 600, 500_000, 2),
            60.0,
            Timestep::HZ_60,
        ),
        (
            support::jittered(60_000, 1_001, 600, 300_000, 3),
            60_000.0 / 1_001.0,
            Timestep::HZ_59_94,
        ),
        (
            support::jittered(60, 1, 600, 1_000_000, 4),
            20.0,
            Timestep::HZ_20,
        ),
        (hitches, 64.0, Timestep::HZ_64),
    ];
    for (stamps, hz, timestep) in &traces {
        for pacing in pacings() {
            assert!(run_side_by_side(stamps, *hz, *timestep, pacing) > 0);
        }
    }
}

#[test]
fn a_clock_that_goes_back_plans_as_the_planner_does() {
    // `Time<Real>` takes a backwards instant as a zero delta and measures
    // the next frame from it, as the planner does.
    let stamps = [
        0,
        100_000_000,
        50_000_000,
        120_000_000,
        120_000_000,
        140_000_000,
    ];
    for pacing in pacings() {
        // 100 ms: 6 due, 5 run; 0; 70 ms: 4; 0; 20 ms: 1.
        assert_eq!(run_side_by_side(&stamps, 60.0, Timestep::HZ_60, pacing), 10);
    }
}

/// The `present_ms` column of one of the lab's captures, in nanoseconds:
/// milliseconds with four decimals, so each is exact.
fn capture(name: &str) -> Vec<u64> {
    let path = format!(
        "{}/../evenstep-lab/traces/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|error| panic!("{path}: {error}"));
    text.lines()
        .skip(1)
        .map(|row| {
            let present = row.split(',').next().unwrap_or_default();
            let (whole, fraction) = present.split_once('.').unwrap_or((present, ""));
            let fraction = format!("{fraction:0<6}");
            whole.parse::<u64>().unwrap() * 1_000_000 + fraction.parse::<u64>().unwrap()
        })
        .collect()
}

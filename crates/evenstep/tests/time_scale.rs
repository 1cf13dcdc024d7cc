//! The time-scale law through the loop, under every pacing: the steps a
//! loop runs are the speed times the time its planner accounted for, plus
//! queued steps, less dropped time, within one step; and the time accounted
//! for stays within the display's rate error of the wall time the loop ran
//! at each speed (pauses and the zero delta after a resume included), plus
//! a step for each change of speed and each time snapping starts or stands
//! down.

mod common;

use std::time::Duration;

use evenstep::{Loop, ManualClock, Pacing, PumpKind, Speed, StepBudget, Timestep};
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

/// What the test does before a paint.
#[derive(Clone, Copy, Debug)]
enum Control {
    Speed(u16, u16),
    Pause,
    Resume,
    Queue(u32),
}

fn control() -> impl Strategy<Value = Control> {
    prop_oneof![
        3 => prop::sample::select(vec![(1_u16, 4_u16), (1, 2), (3, 4), (1, 1), (3, 2), (2, 1), (1, 3)])
            .prop_map(|(n, d)| Control::Speed(n, d)),
        1 => Just(Control::Pause),
        1 => Just(Control::Resume),
        1 => (1_u32..4).prop_map(Control::Queue),
    ]
}

/// The outcome of one run through a loop.
struct Run {
    per_step: f64,
    /// Ticks run, in units.
    simulated: i128,
    /// Σ scaled + Σ phase shift + queued − dropped, in units.
    booked: i128,
    /// Σ scaled + Σ phase shift, in units.
    accounted: f64,
    /// The wall time the loop ran at each speed, scaled by it, in units.
    wall_scaled: f64,
    /// Changes of speed, pauses, resumes, snapping starting or standing down.
    moves: u64,
}

/// Paints a display of `period` ns with stamps jittered by up to `jitter`
/// ns (an xorshift of `noise_seed`), applying `controls` before the paints they
/// name.
fn run(
    timestep: Timestep,
    pacing: Pacing,
    period: u64,
    jitter: u64,
    frames: usize,
    noise_seed: u64,
    controls: &[(usize, Control)],
) -> Run {
    let clock = ManualClock::new();
    let mut game_loop = Loop::<()>::builder()
        .clock(clock.clone())
        .timestep(timestep)
        .budget(StepBudget::DEFAULT)
        .pacing(pacing)
        .build()
        .unwrap();
    game_loop.start();
    let _ = game_loop.pump(&mut (), PumpKind::Paint);
    let per_step = timestep.units_per_step();
    let per_nano = f64::from(u32::try_from(timestep.units_per_nanosecond()).unwrap());
    let (mut speed, mut paused, mut resumed) = ((1_u16, 1_u16), false, false);
    let mut run = Run {
        per_step: per_step as f64,
        simulated: 0,
        booked: 0,
        accounted: 0.0,
        wall_scaled: 0.0,
        moves: 0,
    };
    let (mut rng, mut lattice, mut previous, mut snapping) = (noise_seed | 1, 0_u64, 0_u64, false);
    let first_tick = game_loop.tick();
    for k in 0..frames {
        for &(_, control) in controls.iter().filter(|(at, _)| *at == k) {
            match control {
                Control::Speed(n, d) => {
                    run.moves += u64::from((n, d) != speed);
                    speed = (n, d);
                    game_loop.set_speed(Speed::new(n, d).unwrap());
                }
                Control::Pause => {
                    run.moves += u64::from(!paused);
                    paused = true;
                    game_loop.pause();
                }
                Control::Resume => {
                    run.moves += u64::from(paused);
                    resumed |= paused;
                    paused = false;
                    game_loop.resume();
                }
                Control::Queue(n) => game_loop.queue_steps(n),
            }
        }
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        lattice += period;
        let stamp = (lattice + rng % (2 * jitter + 1))
            .saturating_sub(jitter)
            .max(previous);
        let delta = stamp - previous;
        previous = stamp;
        clock.advance(Duration::from_nanos(delta));
        let report = game_loop.pump(&mut (), PumpKind::Paint).report().unwrap();
        let plan = report.plan;
        // The pump after a resume starts with a zero delta; paused pumps
        // bank nothing.
        if !paused && !std::mem::take(&mut resumed) {
            run.wall_scaled += delta as f64 * per_nano * f64::from(speed.0) / f64::from(speed.1);
        }
        run.moves += u64::from(plan.snapped() != snapping);
        snapping = plan.snapped();
        let accounted = i128::try_from(plan.scaled_units()).unwrap() + plan.phase_shift_units();
        run.accounted += accounted as f64;
        run.booked += accounted + i128::from(plan.steps_queued()) * i128::from(per_step)
            - i128::try_from(plan.dropped_units()).unwrap();
    }
    run.simulated = i128::from(game_loop.tick() - first_tick) * i128::from(per_step);
    run
}

proptest! {
    #![proptest_config(Config {
        cases: 64,
        rng_seed: RngSeed::Fixed(0x0e7e_57e9),
        failure_persistence: None,
        ..Config::default()
    })]

    #[test]
    fn a_loops_steps_track_speed_times_accounted_time_under_every_pacing(
        timestep in prop::sample::select(vec![Timestep::HZ_20, Timestep::HZ_60, Timestep::HZ_120]),
        pacing in 0_usize..4,
        display in prop::sample::select(vec![
            (16_666_667_u64, 1e-4),
            (8_333_333, 1e-4),
            (6_944_444, 1e-4),
            (16_683_350, 1.1e-3),
        ]),
        jitter in 0_u64..=1_500_000,
        frames in 100_usize..600,
        seed in any::<u64>(),
        controls in prop::collection::vec((0_usize..600, control()), 0..6),
    ) {
        let (period, rate_error) = display;
        let run = run(timestep, common::pacings()[pacing], period, jitter, frames, seed, &controls);
        let step = run.per_step;
        prop_assert!(
            ((run.simulated - run.booked).abs() as f64) < step,
            "simulated {} units, booked {}", run.simulated, run.booked
        );
        let drift = (run.accounted - run.wall_scaled).abs();
        let allowed = rate_error * run.wall_scaled + (3 + run.moves) as f64 * step + frames as f64;
        prop_assert!(
            drift <= allowed,
            "accounted time drifted {:.3} steps from speed × wall time; allowed {:.3}",
            drift / step, allowed / step
        );
    }
}

#[test]
fn a_loop_slowed_to_a_quarter_on_a_steady_sixty_hertz_display_runs_a_quarter_of_its_steps() {
    for pacing in common::pacings() {
        let controls = [(120, Control::Speed(1, 4))];
        let run = run(Timestep::HZ_60, pacing, 16_666_667, 0, 360, 1, &controls);
        // 120 steps at full speed, then a quarter of 240.
        assert_eq!(
            run.simulated / i128::from(Timestep::HZ_60.units_per_step()),
            180,
            "{pacing:?}"
        );
    }
}

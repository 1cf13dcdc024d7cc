//! Exactness: a display that shows frames for `n` seconds makes a loop run
//! exactly `rate · n` steps, with no drift, because the step is an exact
//! rational number of nanoseconds; with pacing off and centred alike.

mod common;

use common::config;
use evenstep_core::{FrameLoop, Nanos, Pacing, StepBudget, Timestamp, Timestep};
use proptest::prelude::*;

/// Runs `seconds` of frames from a display at `display_hz`, stamped as
/// displays stamp them (rounded down to the nanosecond), and returns the steps
/// run and the planner.
fn run(
    timestep: Timestep,
    display_hz: u64,
    seconds: u64,
    start: u64,
    pacing: Pacing,
) -> (u64, FrameLoop) {
    let mut frames = FrameLoop::new(timestep, StepBudget::DEFAULT, Timestamp::from_nanos(start))
        .with_pacing(pacing);
    let mut steps = 0;
    for k in 1..=display_hz * seconds {
        let t = start + k * 1_000_000_000 / display_hz;
        let plan = frames.begin_frame(Timestamp::from_nanos(t));
        assert!(!plan.clamped());
        steps += plan.steps_run();
    }
    (steps, frames)
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn n_seconds_of_frames_run_exactly_rate_times_n_steps(
        seconds in 1_u64..=20,
        display_hz in prop::sample::select(vec![30_u64, 50, 60, 75, 120, 144, 165, 240]),
        start in 0_u64..=1 << 60,
        centred in any::<bool>(),
    ) {
        let pacing = if centred { Pacing::CENTRED } else { Pacing::OFF };
        for (hz, timestep) in [
            (30, Timestep::HZ_30),
            (50, Timestep::HZ_50),
            (60, Timestep::HZ_60),
            (120, Timestep::HZ_120),
            (144, Timestep::HZ_144),
        ] {
            // The budget must cover the display's longest frame.
            if hz > display_hz * 5 { continue; }
            let (steps, frames) = run(timestep, display_hz, seconds, start, pacing);
            prop_assert_eq!(steps, hz * seconds, "{} Hz on a {} Hz display", hz, display_hz);
            prop_assert_eq!(frames.simulated(), Nanos::from_secs(seconds));
            let start_bank = if centred { timestep.units_per_step() / 2 } else { 0 };
            prop_assert_eq!(frames.remainder_units(), u128::from(start_bank), "no drift");
        }
    }

    #[test]
    fn ntsc_rate_runs_exactly_sixty_thousand_steps_every_thousand_and_one_seconds(
        seconds in 1_u64..=30,
        display_hz in prop::sample::select(vec![60_u64, 120, 144]),
    ) {
        let (steps, frames) = run(Timestep::HZ_59_94, display_hz, seconds, 0, Pacing::OFF);
        // floor(seconds · 60000 / 1001), exactly.
        prop_assert_eq!(steps, seconds * 60_000 / 1_001);
        prop_assert_eq!(
            frames.remainder_units(),
            u128::from(seconds * 1_000_000_000 * 3 - steps * Timestep::HZ_59_94.units_per_step())
        );
    }
}

#[test]
fn a_thousand_and_one_seconds_at_ntsc_rate_is_sixty_thousand_steps_on_the_dot() {
    let (steps, frames) = run(Timestep::HZ_59_94, 60, 1_001, 0, Pacing::OFF);
    assert_eq!(steps, 60_000);
    assert_eq!(frames.simulated(), Nanos::from_secs(1_001));
    assert_eq!(frames.remainder_units(), 0);
}

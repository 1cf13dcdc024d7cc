//! Contract: the `headless` example draws its body where it stands from
//! the first frame on (no frame blends it up from the ground before the
//! first step); while `Time<Virtual>` is paused it runs no step and draws
//! the body where it was; at half speed it runs half the steps, and the
//! blend factor it reads from `overstep_fraction` grows half as fast.

#[allow(dead_code, reason = "the example's `main` runs in real time")]
#[path = "../examples/headless.rs"]
mod headless;

use core::time::Duration;

use bevy_app::App;
use bevy_diagnostic::FrameCountPlugin;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use evenstep_bevy::FixedPlan;

/// What a frame of the demo did: the steps it ran, the height it drew the
/// body at, and `overstep_fraction` after it.
#[derive(Debug, Clone, Copy)]
struct Frame {
    steps: u64,
    drawn: f64,
    fraction: f32,
}

/// The demo's first `count` frames, at 60 frames a second of manual time.
fn run(count: usize) -> Vec<Frame> {
    let mut app = App::new();
    app.add_plugins((FrameCountPlugin, TimePlugin))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(
            16_666_667,
        )));
    headless::demo(&mut app);
    app.finish();
    app.cleanup();
    (0..count)
        .map(|_| {
            app.update();
            let world = app.world_mut();
            let mut query = world.query::<&headless::Drawn>();
            let drawn = query.single(world).unwrap().0;
            Frame {
                steps: world.resource::<FixedPlan>().steps_run(),
                drawn,
                fraction: world.resource::<Time<Fixed>>().overstep_fraction(),
            }
        })
        .collect()
}

#[test]
fn every_height_drawn_in_the_first_ten_frames_is_within_a_metre_of_100_m() {
    for frame in run(10) {
        assert!(
            (frame.drawn - 100.0).abs() <= 1.0,
            "drawn at {} m",
            frame.drawn
        );
    }
}

#[test]
fn while_paused_no_step_runs_and_the_body_is_drawn_where_it_was() {
    let frames = run(40);
    // Paused in frame 20's `Update`: frames 21 to 35 are paused, and 36,
    // the first after the resume, plans a zero delta.
    let before = frames[20];
    for frame in &frames[21..=36] {
        assert_eq!(frame.steps, 0);
        assert_eq!(frame.drawn.to_bits(), before.drawn.to_bits());
        assert_eq!(frame.fraction.to_bits(), before.fraction.to_bits());
    }
    assert_ne!(frames[37].drawn, before.drawn);
    assert_eq!(headless::PAUSED, 20..35);
}

#[test]
fn at_half_speed_half_the_steps_run_and_the_blend_grows_half_as_fast() {
    let frames = run(121);
    let steps = |range: core::ops::RangeInclusive<usize>| -> u64 {
        frames[range].iter().map(|frame| frame.steps).sum()
    };
    // Half speed from frame 61 to 90: 30 frames of 60 Hz play a quarter
    // second, 5 steps of 20 Hz; the next 30 frames, at normal speed, 10.
    assert_eq!(steps(61..=90), 5);
    assert_eq!(steps(91..=120), 10);
    let growth = |frame: usize| frames[frame].fraction - frames[frame - 1].fraction;
    for frame in 64..=67 {
        assert!(
            (growth(frame) - 1.0 / 6.0).abs() < 1e-6,
            "{}",
            growth(frame)
        );
    }
    for frame in [50, 51] {
        assert!(
            (growth(frame) - 1.0 / 3.0).abs() < 1e-6,
            "{}",
            growth(frame)
        );
    }
    assert_eq!(headless::HALF_SPEED, 60..90);
}

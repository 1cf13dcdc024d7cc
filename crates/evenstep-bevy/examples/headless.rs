//! A headless Bevy app on evenstep's planner: the plugins `MinimalPlugins`
//! stands for, composed from Bevy's sub-crates (it lives in the `bevy`
//! umbrella), a 20 Hz physics step, an interpolation system of the shape
//! interpolation crates have, and each frame's plan printed. It stops by
//! itself after 90 frames at about 60 frames a second; frame 45 stalls for
//! 300 ms, so the budget drops time and says so.
//!
//! `cargo run -p evenstep-bevy --example headless`

#![allow(
    clippy::needless_pass_by_value,
    reason = "Bevy systems take their parameters by value"
)]

use std::time::Duration;

use bevy_app::{
    App, AppExit, FixedUpdate, RunFixedMainLoop, RunFixedMainLoopSystems, ScheduleRunnerPlugin,
    Startup, TaskPoolPlugin, Update,
};
use bevy_diagnostic::{FrameCount, FrameCountPlugin};
use bevy_ecs::prelude::*;
use bevy_time::{Fixed, Time, TimePlugin};
use evenstep_bevy::{EvenstepPlugin, FixedPlan, Stall};

const FRAMES: u32 = 90;

/// A body falling under gravity, simulated at the fixed step.
#[derive(Component)]
struct Body {
    height: f64,
    speed: f64,
    /// Where the body stood before the last step: drawing blends from it.
    previous: f64,
}

impl Body {
    /// A body at rest at `height`. Its `previous` height is `height` too:
    /// left at 0, the frames before the first step would draw it blended
    /// up from the ground, a teleport.
    const fn at_rest(height: f64) -> Body {
        Body {
            height,
            speed: 0.0,
            previous: height,
        }
    }
}

/// Where the body is drawn, between its last two steps.
#[derive(Component, Default)]
pub(crate) struct Drawn(pub(crate) f64);

fn main() -> AppExit {
    let mut app = App::new();
    // What `MinimalPlugins` is, less the CI testing plugin.
    app.add_plugins((
        TaskPoolPlugin::default(),
        FrameCountPlugin,
        TimePlugin,
        ScheduleRunnerPlugin::run_loop(Duration::from_secs_f64(1.0 / 60.0)),
    ));
    demo(&mut app).run()
}

/// The demo, on an app that has `TimePlugin` and `FrameCountPlugin`: the
/// plugin, the 20 Hz step, the body, and the systems that move, draw and
/// report it.
pub(crate) fn demo(app: &mut App) -> &mut App {
    app.add_plugins(EvenstepPlugin)
        // The physics step: 20 Hz, as the app configures it for Bevy's loop.
        .insert_resource(Time::<Fixed>::from_hz(20.0))
        .add_systems(Startup, |mut commands: Commands| {
            commands.spawn((Body::at_rest(100.0), Drawn::default()));
        })
        .add_systems(FixedUpdate, fall)
        .add_systems(
            RunFixedMainLoop,
            interpolate.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
        )
        .add_systems(Update, (stall_once, print_plan, stop_after_frames).chain())
}

/// One physics step: every step gets the same `dt`.
fn fall(time: Res<Time<Fixed>>, mut bodies: Query<&mut Body>) {
    let dt = time.delta_secs_f64();
    for mut body in &mut bodies {
        body.previous = body.height;
        body.speed -= 9.81 * dt;
        body.height += body.speed * dt;
    }
}

/// Blends each body between its last two steps by `overstep_fraction`, as
/// interpolation crates do; with the plugin it is the plan's alpha.
fn interpolate(time: Res<Time<Fixed>>, mut bodies: Query<(&Body, &mut Drawn)>) {
    let alpha = f64::from(time.overstep_fraction());
    for (body, mut drawn) in &mut bodies {
        drawn.0 = body.previous + (body.height - body.previous) * alpha;
    }
}

/// Frame 45 takes 300 ms: a hitch the budget clamps.
fn stall_once(frames: Res<FrameCount>) {
    if frames.0 == 45 {
        std::thread::sleep(Duration::from_millis(300));
    }
}

fn print_plan(
    frames: Res<FrameCount>,
    plan: Res<FixedPlan>,
    mut stalls: MessageReader<Stall>,
    bodies: Query<&Drawn>,
) {
    let drawn = bodies.iter().next().map_or(0.0, |drawn| drawn.0);
    println!(
        "frame {:>2}: {} step(s), alpha {:.3}, snapped {:>5}, body drawn at {drawn:7.3} m",
        frames.0,
        plan.steps_run(),
        plan.alpha().as_f64(),
        plan.snapped(),
    );
    for stall in stalls.read() {
        println!(
            "          stall: {:?} since the last frame, {} steps due, {} run, {} ({:?}) dropped",
            stall.frame_delta, stall.steps_due, stall.steps_run, stall.steps_dropped, stall.dropped
        );
    }
}

fn stop_after_frames(frames: Res<FrameCount>, mut exit: MessageWriter<AppExit>) {
    if frames.0 + 1 >= FRAMES {
        exit.write(AppExit::Success);
    }
}

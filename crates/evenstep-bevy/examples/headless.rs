//! A headless Bevy app on evenstep's planner: the plugins `MinimalPlugins`
//! stands for, composed from Bevy's sub-crates (it lives in the `bevy`
//! umbrella), a 20 Hz physics step, interpolation read the way
//! `bevy_transform_interpolation` reads it (start and end of each step
//! kept in `FixedFirst` and `FixedLast`, blended by `overstep_fraction` in
//! `RunFixedMainLoopSystems::AfterFixedMainLoop`), and each frame's plan
//! printed. It stops by itself after 120 frames at about 60 frames a
//! second: frames 20 to 35 are paused, frames 60 to 90 run at half speed,
//! and frame 100 stalls for 300 ms, so the budget drops time and says so.
//!
//! `cargo run -p evenstep-bevy --example headless`

#![allow(
    clippy::needless_pass_by_value,
    reason = "Bevy systems take their parameters by value"
)]

use std::time::Duration;

use bevy_app::{
    App, AppExit, FixedFirst, FixedLast, FixedUpdate, RunFixedMainLoop, RunFixedMainLoopSystems,
    ScheduleRunnerPlugin, Startup, TaskPoolPlugin, Update,
};
use bevy_diagnostic::{FrameCount, FrameCountPlugin};
use bevy_ecs::prelude::*;
use bevy_time::{Fixed, Time, TimePlugin, Virtual};
use evenstep_bevy::{EvenstepPlugin, FixedPlan, Stall};

const FRAMES: u32 = 120;
/// The frames `Time<Virtual>` is paused for: from the pause to the resume.
pub(crate) const PAUSED: core::ops::Range<u32> = 20..35;
/// The frames played at half speed.
pub(crate) const HALF_SPEED: core::ops::Range<u32> = 60..90;
/// The frame that stalls, under `main` only (it sleeps).
const STALL: u32 = 100;

/// A body falling under gravity, simulated at the fixed step: the game's
/// state, which only fixed steps change.
#[derive(Component)]
pub(crate) struct Body {
    pub(crate) height: f64,
    speed: f64,
}

/// The body's height at the start and the end of the last step, kept as
/// `bevy_transform_interpolation` keeps a translation's.
#[derive(Component, Default)]
struct Easing {
    start: Option<f64>,
    end: Option<f64>,
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
    demo(&mut app)
        .add_systems(Update, stall_once.before(print_plan))
        .run()
}

/// The demo, on an app that has `TimePlugin` and `FrameCountPlugin`: the
/// plugin, the 20 Hz step, the body, the pause and the change of speed,
/// and the systems that move, draw and report it.
pub(crate) fn demo(app: &mut App) -> &mut App {
    app.add_plugins(EvenstepPlugin)
        // The physics step: 20 Hz, as the app configures it for Bevy's loop.
        .insert_resource(Time::<Fixed>::from_hz(20.0))
        .add_systems(Startup, |mut commands: Commands| {
            let body = Body {
                height: 100.0,
                speed: 0.0,
            };
            // Drawn where it stands until the first step ends: left at
            // 0, the frames before it would blend the body up from the
            // ground, a teleport.
            commands.spawn((body, Easing::default(), Drawn(100.0)));
        })
        .add_systems(FixedFirst, ease_from)
        .add_systems(FixedUpdate, fall)
        .add_systems(FixedLast, ease_to)
        .add_systems(
            RunFixedMainLoop,
            interpolate.in_set(RunFixedMainLoopSystems::AfterFixedMainLoop),
        )
        .add_systems(Update, (print_plan, direct, stop_after_frames).chain())
}

/// One physics step: every step gets the same `dt`.
fn fall(time: Res<Time<Fixed>>, mut bodies: Query<&mut Body>) {
    let dt = time.delta_secs_f64();
    for mut body in &mut bodies {
        body.speed -= 9.81 * dt;
        body.height += body.speed * dt;
    }
}

/// Each step starts from where the body stands.
fn ease_from(mut bodies: Query<(&Body, &mut Easing)>) {
    for (body, mut easing) in &mut bodies {
        easing.start = Some(body.height);
    }
}

/// Each step ends where it moved the body.
fn ease_to(mut bodies: Query<(&Body, &mut Easing)>) {
    for (body, mut easing) in &mut bodies {
        easing.end = Some(body.height);
    }
}

/// Blends each body from the start to the end of its last step by
/// `overstep_fraction`, an `f32`, as interpolation crates read it: with
/// the plugin it is the plan's alpha. Paused, no step runs and the
/// fraction stays, so the body is drawn where it was; at half speed the
/// fraction grows half as fast.
fn interpolate(time: Res<Time<Fixed>>, mut bodies: Query<(&Easing, &mut Drawn)>) {
    let overstep = f64::from(time.overstep_fraction());
    for (easing, mut drawn) in &mut bodies {
        if let (Some(start), Some(end)) = (easing.start, easing.end) {
            drawn.0 = start + (end - start) * overstep;
        }
    }
}

/// Pauses, resumes and changes speed on the frames the demo names, as a
/// game's pause menu or slow-motion effect does, through `Time<Virtual>`.
fn direct(frames: Res<FrameCount>, mut virt: ResMut<Time<Virtual>>) {
    match frames.0 {
        frame if frame == PAUSED.start => virt.pause(),
        frame if frame == PAUSED.end => virt.unpause(),
        frame if frame == HALF_SPEED.start => virt.set_relative_speed(0.5),
        frame if frame == HALF_SPEED.end => virt.set_relative_speed(1.0),
        _ => {}
    }
}

/// Frame 100 takes 300 ms: a hitch the budget clamps.
fn stall_once(frames: Res<FrameCount>) {
    if frames.0 == STALL {
        std::thread::sleep(Duration::from_millis(300));
    }
}

fn print_plan(
    frames: Res<FrameCount>,
    plan: Res<FixedPlan>,
    virt: Res<Time<Virtual>>,
    mut stalls: MessageReader<Stall>,
    bodies: Query<&Drawn>,
) {
    let drawn = bodies.iter().next().map_or(0.0, |drawn| drawn.0);
    let state = if virt.is_paused() {
        "paused".to_string()
    } else {
        format!("x{}", virt.relative_speed())
    };
    println!(
        "frame {:>3} {state:>6}: {} step(s), alpha {:.3}, snapped {:>5}, body drawn at {drawn:7.3} m",
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

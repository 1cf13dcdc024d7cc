//! Contract: `EvenstepSettings::bevy_compatible()` runs Bevy's own fixed
//! loop on the planner: side by side with Bevy's runner, at a step Bevy
//! holds exactly (64 Hz, Bevy's default), the same steps each frame, the
//! same `Time<Fixed>` elapsed time and overstep (so the same
//! `overstep_fraction`, to the bit) at 10 frames a second, through a
//! 400 ms hitch that `Time<Virtual>::max_delta` clamps, at double speed
//! and after `max_delta` changes; and what `max_delta` cut off is reported.

#![allow(
    clippy::needless_pass_by_value,
    reason = "Bevy systems take their parameters by value"
)]

mod support;

use core::time::Duration;

use bevy_app::{App, Update};
use bevy_ecs::message::MessageReader;
use bevy_ecs::resource::Resource;
use bevy_ecs::system::ResMut;
use bevy_time::{Time, Virtual};
use evenstep_bevy::{Budget, EvenstepSettings, Stall};

#[derive(Resource, Default)]
struct Stalls(Vec<Stall>);

fn collect(mut stalls: MessageReader<Stall>, mut seen: ResMut<Stalls>) {
    seen.0.extend(stalls.read().copied());
}

/// Bevy's own loop and the plugin under `settings`, both at `hz`, each
/// after its zero-delta first frame.
fn pair(hz: f64, settings: EvenstepSettings) -> (App, App) {
    let mut bevy = support::app(hz, None);
    let mut plugin = support::app(hz, Some(settings));
    plugin
        .init_resource::<Stalls>()
        .add_systems(Update, collect);
    support::frame(&mut bevy, Duration::ZERO);
    support::frame(&mut plugin, Duration::ZERO);
    (bevy, plugin)
}

/// What a frame left in `Time<Fixed>`: the steps it ran, the elapsed time,
/// the overstep and the bits of `overstep_fraction`.
#[derive(Debug, PartialEq, Eq)]
struct Left {
    steps: usize,
    elapsed: Duration,
    overstep: Duration,
    fraction: u32,
}

/// Runs a frame of `delta` on `app`.
fn frame(app: &mut App, delta: Duration) -> Left {
    let steps = support::frame(app, delta);
    let fixed = support::fixed(app);
    Left {
        steps,
        elapsed: fixed.elapsed(),
        overstep: fixed.overstep(),
        fraction: fixed.overstep_fraction().to_bits(),
    }
}

/// Runs the frames of `deltas` on both apps; returns what each frame left
/// in each, and checks every step saw the same `Time<Fixed>`.
fn side_by_side(bevy: &mut App, plugin: &mut App, deltas: &[Duration]) -> (Vec<Left>, Vec<Left>) {
    let ran: (Vec<Left>, Vec<Left>) = deltas
        .iter()
        .map(|&delta| (frame(bevy, delta), frame(plugin, delta)))
        .unzip();
    let seen = |app: &App| {
        app.world()
            .resource::<support::Seen>()
            .fixed_elapsed
            .clone()
    };
    assert_eq!(seen(bevy), seen(plugin));
    ran
}

const fn ms(millis: u64) -> Duration {
    Duration::from_millis(millis)
}

#[test]
fn at_10_fps_the_preset_runs_bevys_steps_and_overstep_fraction() {
    let (mut bevy, mut plugin) = pair(64.0, EvenstepSettings::bevy_compatible());
    let (theirs, ours) = side_by_side(&mut bevy, &mut plugin, &[ms(100); 20]);
    assert_eq!(ours, theirs);
    // 6.4 steps a frame: 6, 6, 7, 6, 7, and so on.
    let steps: Vec<usize> = ours.iter().map(|left| left.steps).collect();
    assert_eq!(steps, [6, 6, 7, 6, 7].repeat(4));
    assert_eq!(ours[0].overstep, Duration::from_micros(6_250));
    assert_eq!(f32::from_bits(ours[0].fraction), 0.4);
    assert_eq!(ours[19].elapsed, Duration::from_secs(2));
}

#[test]
fn at_10_fps_the_default_drops_what_bevys_loop_runs() {
    // The control: evenstep's default budget of five steps.
    let (mut bevy, mut plugin) = pair(64.0, EvenstepSettings::default());
    let (theirs, ours) = side_by_side_unchecked(&mut bevy, &mut plugin, &[ms(100); 5]);
    assert_eq!(theirs.iter().map(|l| l.steps).sum::<usize>(), 32);
    assert_eq!(ours.iter().map(|l| l.steps).sum::<usize>(), 25);
}

fn side_by_side_unchecked(
    bevy: &mut App,
    plugin: &mut App,
    deltas: &[Duration],
) -> (Vec<Left>, Vec<Left>) {
    deltas
        .iter()
        .map(|&delta| (frame(bevy, delta), frame(plugin, delta)))
        .unzip()
}

#[test]
fn a_400_ms_hitch_catches_up_as_bevys_loop_does_and_reports_the_cut() {
    let (mut bevy, mut plugin) = pair(64.0, EvenstepSettings::bevy_compatible());
    let deltas = [ms(10), ms(10), ms(10), ms(400), ms(10), ms(16)];
    let (theirs, ours) = side_by_side(&mut bevy, &mut plugin, &deltas);
    assert_eq!(ours, theirs);
    // 30 ms banked 14.375 ms past a step; the hitch plays 250 ms of it:
    // 264.375 ms is 16 steps and 14.375 ms.
    assert_eq!(ours[3].steps, 16);
    assert_eq!(ours[3].overstep, Duration::from_micros(14_375));
    let plan = support::plan(&plugin);
    assert_eq!(plan.beyond_max_delta(), ms(0));
    assert_eq!(
        plugin.world().resource::<Stalls>().0,
        [Stall {
            frame_delta: ms(400),
            beyond_max_delta: ms(150),
            steps_due: 16,
            steps_run: 16,
            steps_dropped: 0,
            dropped: Duration::ZERO,
            first_tick: 1,
        }]
    );
}

#[test]
fn the_hitch_frame_plan_says_what_max_delta_cut() {
    let (_, mut plugin) = pair(64.0, EvenstepSettings::bevy_compatible());
    support::frame(&mut plugin, ms(400));
    let plan = support::plan(&plugin);
    assert_eq!(plan.beyond_max_delta(), ms(150));
    assert_eq!((plan.steps_due(), plan.steps_dropped()), (16, 0));
}

#[test]
fn a_span_budget_of_250_ms_runs_the_steps_but_not_bevys_overstep() {
    // The control: a budget in steps drops steps, not time, so the bank
    // after the hitch is that of 430 ms, not Bevy's 280 ms.
    let settings = EvenstepSettings {
        budget: Budget::Span(ms(250)),
        ..EvenstepSettings::bevy_compatible()
    };
    let (mut bevy, mut plugin) = pair(64.0, settings);
    let deltas = [ms(10), ms(10), ms(10), ms(400)];
    let (theirs, ours) = side_by_side_unchecked(&mut bevy, &mut plugin, &deltas);
    assert_eq!((ours[3].steps, theirs[3].steps), (16, 16));
    assert_eq!(theirs[3].overstep, Duration::from_micros(14_375));
    assert_eq!(ours[3].overstep, Duration::from_micros(8_125));
}

#[test]
fn the_preset_follows_max_delta_and_speed_as_they_change() {
    let (mut bevy, mut plugin) = pair(64.0, EvenstepSettings::bevy_compatible());
    let deltas = [ms(10), ms(400), ms(20)];
    let (theirs, ours) = side_by_side(&mut bevy, &mut plugin, &deltas);
    assert_eq!(ours, theirs);
    for app in [&mut bevy, &mut plugin] {
        let mut virt = app.world_mut().resource_mut::<Time<Virtual>>();
        virt.set_max_delta(ms(100));
        virt.set_relative_speed(2.0);
    }
    let deltas = [ms(400), ms(30), ms(1_000), ms(7)];
    let (theirs, ours) = side_by_side(&mut bevy, &mut plugin, &deltas);
    assert_eq!(ours, theirs);
    // 100 ms of game time a frame at most, at double speed.
    let steps: Vec<usize> = ours.iter().map(|left| left.steps).collect();
    assert_eq!(steps, [7, 4, 6, 1]);
    assert_eq!(support::plan(&plugin).steps_dropped(), 0);
}

#[test]
fn over_a_thousand_rough_frames_the_preset_runs_bevys_loop() {
    let (mut bevy, mut plugin) = pair(64.0, EvenstepSettings::bevy_compatible());
    let mut state = 2_024_u64;
    let deltas: Vec<Duration> = (0..1_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            // 1 to 60 ms, and one frame in 50 a hitch of up to 600 ms.
            let nanos = if state % 50 == 0 {
                state % 600_000_000
            } else {
                1_000_000 + state % 59_000_000
            };
            Duration::from_nanos(nanos)
        })
        .collect();
    let (theirs, ours) = side_by_side(&mut bevy, &mut plugin, &deltas);
    assert_eq!(ours, theirs);
    let hitches = plugin.world().resource::<Stalls>().0.len();
    assert!(hitches > 0);
}

#[test]
fn at_60_hz_bevys_rounded_step_parts_from_the_preset_at_once() {
    // Bevy's 60 Hz step is 16,666,667 ns: 100 ms is 5.99999964 of them.
    // The preset keeps evenstep's exact step, six to 100 ms.
    let (mut bevy, mut plugin) = pair(60.0, EvenstepSettings::bevy_compatible());
    let (theirs, ours) = side_by_side_unchecked(&mut bevy, &mut plugin, &[ms(100)]);
    assert_eq!((theirs[0].steps, ours[0].steps), (5, 6));
}

#[test]
fn the_frame_after_a_pause_plans_nothing_where_bevys_loop_plays_it() {
    let (mut bevy, mut plugin) = pair(64.0, EvenstepSettings::bevy_compatible());
    let pause = |app: &mut App, paused: bool| {
        let mut virt = app.world_mut().resource_mut::<Time<Virtual>>();
        if paused { virt.pause() } else { virt.unpause() }
    };
    let (theirs, ours) = side_by_side(&mut bevy, &mut plugin, &[ms(20)]);
    assert_eq!(ours, theirs);
    pause(&mut bevy, true);
    pause(&mut plugin, true);
    let (theirs, ours) = side_by_side(&mut bevy, &mut plugin, &[ms(20), ms(20)]);
    assert_eq!(ours, theirs);
    pause(&mut bevy, false);
    pause(&mut plugin, false);
    let (theirs, ours) = side_by_side_unchecked(&mut bevy, &mut plugin, &[ms(20)]);
    assert_eq!((theirs[0].steps, ours[0].steps), (1, 0));
}

//! Shared by the tests: an app with `TimePlugin` on manual time, with or
//! without the plugin, that counts its fixed steps; and frame traces.

#![allow(dead_code, reason = "each test file uses part of it")]
#![allow(
    clippy::needless_pass_by_value,
    reason = "Bevy systems take their parameters by value"
)]

use core::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::resource::Resource;
use bevy_ecs::system::{Res, ResMut};
use bevy_time::{Fixed, Real, Time, TimePlugin, TimeUpdateStrategy};
use evenstep_bevy::{EvenstepPlugin, EvenstepSettings, FixedPlan};

/// The fixed steps an app ran, and `Time<Fixed>` and the generic `Time` as
/// each step saw them.
#[derive(Resource, Default, Debug)]
pub(crate) struct Seen {
    /// `Time<Fixed>::elapsed` at each step.
    pub(crate) fixed_elapsed: Vec<Duration>,
    /// `Time<Fixed>::delta` at each step.
    pub(crate) fixed_delta: Vec<Duration>,
    /// The generic `Time::elapsed` at each step.
    pub(crate) generic_elapsed: Vec<Duration>,
}

fn see(mut seen: ResMut<Seen>, fixed: Res<Time<Fixed>>, generic: Res<Time>) {
    seen.fixed_elapsed.push(fixed.elapsed());
    seen.fixed_delta.push(fixed.delta());
    seen.generic_elapsed.push(generic.elapsed());
}

/// An app of `TimePlugin` (and `EvenstepPlugin`, if `evenstep`) with
/// `Time<Fixed>` at `hz`, on manual time, ready to update.
pub(crate) fn app(hz: f64, evenstep: Option<EvenstepSettings>) -> App {
    let mut app = App::new();
    app.add_plugins(TimePlugin)
        .insert_resource(Time::<Fixed>::from_hz(hz))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::ZERO))
        .init_resource::<Seen>()
        .add_systems(FixedUpdate, see);
    if let Some(settings) = evenstep {
        app.insert_resource(settings).add_plugins(EvenstepPlugin);
    }
    app.finish();
    app.cleanup();
    app
}

/// Runs one frame `delta` after the previous one; returns the steps it ran.
pub(crate) fn frame(app: &mut App, delta: Duration) -> usize {
    app.insert_resource(TimeUpdateStrategy::ManualDuration(delta));
    update(app)
}

/// Runs one frame at `at` after `Time<Real>`'s startup; returns the steps
/// it ran.
pub(crate) fn frame_at(app: &mut App, at: Duration) -> usize {
    let startup = app.world().resource::<Time<Real>>().startup();
    app.insert_resource(TimeUpdateStrategy::ManualInstant(startup + at));
    update(app)
}

fn update(app: &mut App) -> usize {
    let before = app.world().resource::<Seen>().fixed_elapsed.len();
    app.update();
    app.world().resource::<Seen>().fixed_elapsed.len() - before
}

/// This frame's plan.
pub(crate) fn plan(app: &App) -> FixedPlan {
    *app.world().resource::<FixedPlan>()
}

/// `Time<Fixed>` now.
pub(crate) fn fixed(app: &App) -> Time<Fixed> {
    *app.world().resource::<Time<Fixed>>()
}

/// `frames` frames of a display at `events / per_seconds` Hz, from 0, each
/// stamp moved by up to `jitter_ns` either way by an xorshift of `seed`
/// (never before 0).
pub(crate) fn jittered(
    events: u64,
    per_seconds: u64,
    frames: u64,
    jitter_ns: u64,
    seed: u64,
) -> Vec<u64> {
    let mut state = seed.max(1);
    (0..frames)
        .map(|k| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let ideal = k * per_seconds * 1_000_000_000 / events;
            let offset = state % (2 * jitter_ns + 1);
            (ideal + offset).saturating_sub(jitter_ns)
        })
        .collect()
}

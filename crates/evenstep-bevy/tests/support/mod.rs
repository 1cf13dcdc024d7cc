//! Shared by the tests: an app with `TimePlugin` on manual time, with or
//! without the plugin, that counts its fixed steps.

#![allow(dead_code, reason = "each test file uses part of it")]

use core::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::resource::Resource;
use bevy_ecs::system::{Res, ResMut};
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
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

/// An app of `TimePlugin` (and `EvenstepPlugin`, if `evenstep`) at a
/// `Time<Fixed>` of `hz`, on manual time, ready to update.
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
    let before = app.world().resource::<Seen>().fixed_elapsed.len();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(delta));
    app.update();
    app.world().resource::<Seen>().fixed_elapsed.len() - before
}

/// This frame's plan.
pub(crate) fn plan(app: &App) -> FixedPlan {
    *app.world().resource::<FixedPlan>()
}

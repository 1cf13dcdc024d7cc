//! Contract: one line sets the plugin up after Bevy's: it takes Bevy's
//! runner out of `RunFixedMainLoop` (so `FixedMain` runs once per planned
//! step, never twice, in an app updated with or without `finish`), follows
//! the `Time<Fixed>` the app configured, keeps settings already inserted,
//! publishes the plan from the first frame, and refuses, loudly, an app
//! without `TimePlugin` and one whose Bevy runner is still in place at the
//! first update.

mod support;

use core::time::Duration;

use bevy_app::{App, FixedUpdate};
use bevy_ecs::resource::Resource;
use bevy_ecs::system::ResMut;
use bevy_time::{Fixed, Time, TimePlugin, TimeUpdateStrategy};
use evenstep_bevy::{EvenstepPlugin, EvenstepSettings, FixedPlan};
use evenstep_core::{Pacing, Timestep};

#[test]
fn bevys_runner_no_longer_runs_fixed_main() {
    let plain = EvenstepSettings {
        pacing: Pacing::OFF,
        ..EvenstepSettings::default()
    };
    let mut app = support::app(60.0, Some(plain));
    assert_eq!(support::frame(&mut app, Duration::ZERO), 0);
    assert_eq!(support::frame(&mut app, Duration::from_millis(50)), 3);
    assert_eq!(support::fixed(&app).elapsed(), Duration::from_millis(50));
}

#[test]
fn the_step_follows_a_time_fixed_inserted_after_the_plugin() {
    let mut app = App::new();
    app.add_plugins((TimePlugin, EvenstepPlugin))
        .insert_resource(Time::<Fixed>::from_hz(20.0))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
            10,
        )));
    app.finish();
    app.cleanup();
    assert!(app.world().get_resource::<FixedPlan>().is_none());
    app.update();
    let plan = *app.world().resource::<FixedPlan>();
    assert_eq!(plan.plan().timestep(), Timestep::HZ_20);
    assert_eq!(plan.pacing(), Pacing::LOCKED);
}

#[test]
fn settings_inserted_before_the_plugin_are_kept() {
    let settings = EvenstepSettings {
        timestep: Some(Timestep::HZ_59_94),
        ..EvenstepSettings::default()
    };
    let mut app = App::new();
    app.insert_resource(settings)
        .add_plugins((TimePlugin, EvenstepPlugin));
    assert_eq!(*app.world().resource::<EvenstepSettings>(), settings);
}

#[test]
#[should_panic(expected = "add TimePlugin")]
fn an_app_without_time_plugin_is_refused() {
    let mut app = App::new();
    app.add_plugins(EvenstepPlugin);
    app.finish();
}

#[test]
#[should_panic(expected = "add TimePlugin")]
fn an_app_without_time_plugin_updated_without_finish_is_refused() {
    let mut app = App::new();
    app.add_plugins(EvenstepPlugin);
    app.update();
}

/// How many times `FixedUpdate` ran.
#[derive(Resource, Default)]
struct FixedUpdates(u64);

/// Which plugin an app adds first.
#[derive(Clone, Copy)]
enum Order {
    TimeFirst,
    EvenstepFirst,
}

/// Sixty updates of 1/60 s at 60 Hz, with or without `finish` and
/// `cleanup`: the `FixedUpdate`s that ran, and the steps the plans said.
fn sixty_updates(order: Order, finish: bool) -> (u64, u64) {
    let mut app = App::new();
    match order {
        Order::TimeFirst => app.add_plugins((TimePlugin, EvenstepPlugin)),
        Order::EvenstepFirst => app.add_plugins((EvenstepPlugin, TimePlugin)),
    };
    app.insert_resource(Time::<Fixed>::from_hz(60.0))
        .insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_nanos(
            16_666_667,
        )))
        .init_resource::<FixedUpdates>()
        .add_systems(FixedUpdate, |mut ran: ResMut<FixedUpdates>| ran.0 += 1);
    if finish {
        app.finish();
        app.cleanup();
    }
    let mut planned = 0;
    for _ in 0..60 {
        app.update();
        planned += app.world().resource::<FixedPlan>().steps_run();
    }
    (app.world().resource::<FixedUpdates>().0, planned)
}

#[test]
fn an_app_updated_without_finish_runs_only_the_planned_steps() {
    assert_eq!(sixty_updates(Order::TimeFirst, false), (59, 59));
}

#[test]
fn an_app_finished_runs_only_the_planned_steps_in_either_plugin_order() {
    assert_eq!(sixty_updates(Order::TimeFirst, true), (59, 59));
    assert_eq!(sixty_updates(Order::EvenstepFirst, true), (59, 59));
}

#[test]
#[should_panic(expected = "app.finish()")]
fn an_app_with_time_plugin_after_the_plugin_updated_without_finish_is_refused() {
    sixty_updates(Order::EvenstepFirst, false);
}

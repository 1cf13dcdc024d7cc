//! Contract: one line sets the plugin up after Bevy's: it takes Bevy's
//! runner out of `RunFixedMainLoop` (so `FixedMain` runs once per planned
//! step, never twice), follows the `Time<Fixed>` the app configured, keeps
//! settings already inserted, publishes the plan from the first frame, and
//! refuses an app without `TimePlugin`.

mod support;

use core::time::Duration;

use bevy_app::App;
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

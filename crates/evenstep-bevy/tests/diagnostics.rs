//! Contract (the `diagnostics` feature): `EvenstepDiagnosticsPlugin`
//! publishes each frame's steps, the time the budget dropped, the time
//! `max_delta` cut off, whether the frame was snapped, and the learned
//! refresh period, as `bevy_diagnostic` measurements of the frame's plan.
#![cfg(feature = "diagnostics")]

mod support;

use core::time::Duration;

use bevy_app::App;
use bevy_diagnostic::{DiagnosticPath, DiagnosticsStore};
use evenstep_bevy::{EvenstepDiagnosticsPlugin as Plugin, EvenstepSettings};

const FRAME: Duration = Duration::from_nanos(16_666_667);

fn app(settings: EvenstepSettings) -> App {
    // An app of its own: `support::app` finishes its app, and no plugin
    // can be added after that.
    let mut app = App::new();
    app.add_plugins(bevy_time::TimePlugin)
        .insert_resource(bevy_time::Time::<bevy_time::Fixed>::from_hz(60.0))
        .insert_resource(bevy_time::TimeUpdateStrategy::ManualDuration(
            Duration::ZERO,
        ))
        .insert_resource(settings)
        .add_plugins((evenstep_bevy::EvenstepPlugin, Plugin))
        .init_resource::<support::Seen>();
    app.finish();
    app.cleanup();
    app
}

fn value(app: &App, path: &DiagnosticPath) -> Option<f64> {
    app.world()
        .resource::<DiagnosticsStore>()
        .get(path)?
        .value()
}

#[test]
fn a_hitch_publishes_its_steps_and_the_time_the_budget_dropped() {
    let mut app = app(EvenstepSettings::default());
    support::frame(&mut app, Duration::ZERO);
    assert_eq!(value(&app, &Plugin::STEPS), Some(0.0));
    support::frame(&mut app, Duration::from_millis(200));
    assert_eq!(value(&app, &Plugin::STEPS), Some(5.0));
    // 7/60 s, rounded down to the nanosecond, in milliseconds.
    assert_eq!(value(&app, &Plugin::DROPPED), Some(116.666_666));
    assert_eq!(value(&app, &Plugin::BEYOND_MAX_DELTA), Some(0.0));
    support::frame(&mut app, FRAME);
    assert_eq!(value(&app, &Plugin::STEPS), Some(1.0));
    assert_eq!(value(&app, &Plugin::DROPPED), Some(0.0));
}

#[test]
fn under_the_bevy_preset_the_time_max_delta_cut_is_published() {
    let mut app = app(EvenstepSettings::bevy_compatible());
    support::frame(&mut app, Duration::ZERO);
    support::frame(&mut app, Duration::from_millis(400));
    assert_eq!(value(&app, &Plugin::STEPS), Some(15.0));
    assert_eq!(value(&app, &Plugin::DROPPED), Some(0.0));
    assert_eq!(value(&app, &Plugin::BEYOND_MAX_DELTA), Some(150.0));
}

#[test]
fn the_pacing_state_is_published_once_it_locks_onto_the_display() {
    let mut app = app(EvenstepSettings::default());
    support::frame(&mut app, Duration::ZERO);
    support::frame(&mut app, FRAME);
    assert_eq!(value(&app, &Plugin::SNAPPED), Some(0.0));
    assert_eq!(value(&app, &Plugin::REFRESH_PERIOD), None);
    for _ in 0..60 {
        support::frame(&mut app, FRAME);
    }
    let plan = support::plan(&app);
    assert!(plan.snapped());
    assert_eq!(value(&app, &Plugin::SNAPPED), Some(1.0));
    let period = plan.refresh_period().unwrap();
    assert_eq!(
        value(&app, &Plugin::REFRESH_PERIOD),
        Some(period.as_secs_f64() * 1_000.0)
    );
}

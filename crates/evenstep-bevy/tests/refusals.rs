//! Contract: what the plugin refuses (a step written to `Time<Fixed>` while
//! the settings name one, a step out of evenstep's range, a relative speed
//! above 65535) is written as a `Refusal` message at the frame it is
//! refused, once, so that an app without a logger sees it too.

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
use bevy_time::{Fixed, Time, Virtual};
use evenstep_bevy::{EvenstepSettings, Refusal, Speed, Timestep};

/// The refusals read in `Update`, frame by frame.
#[derive(Resource, Default)]
struct Read(Vec<Vec<Refusal>>);

fn read(mut refusals: MessageReader<Refusal>, mut read: ResMut<Read>) {
    read.0.push(refusals.read().copied().collect());
}

fn app(hz: f64, settings: EvenstepSettings) -> App {
    let mut app = support::app(hz, Some(settings));
    app.init_resource::<Read>().add_systems(Update, read);
    app
}

fn frames(app: &mut App, count: usize) -> Vec<Vec<Refusal>> {
    for _ in 0..count {
        support::frame(app, Duration::from_millis(20));
    }
    core::mem::take(&mut app.world_mut().resource_mut::<Read>().0)
}

#[test]
fn a_step_written_to_time_fixed_against_the_settings_is_refused_in_a_message() {
    let named = EvenstepSettings {
        timestep: Some(Timestep::HZ_60),
        ..EvenstepSettings::default()
    };
    let mut app = app(60.0, named);
    assert_eq!(frames(&mut app, 2), [vec![], vec![]]);
    app.world_mut()
        .resource_mut::<Time<Fixed>>()
        .set_timestep(Duration::from_millis(50));
    let refused = Refusal::FixedStep {
        requested: Duration::from_millis(50),
        kept: Timestep::HZ_60,
        nominal: Duration::from_nanos(16_666_667),
    };
    assert_eq!(frames(&mut app, 2), [vec![refused], vec![]]);
    assert_eq!(
        support::fixed(&app).timestep(),
        Duration::from_nanos(16_666_667)
    );
    let message = refused.to_string();
    assert!(message.contains("EvenstepSettings::timestep"), "{message}");
}

#[test]
fn a_time_fixed_step_over_an_hour_is_refused_in_a_message() {
    let mut app = app(1.0 / 3_601.0, EvenstepSettings::default());
    let refused = Refusal::StepOutOfRange {
        requested: Duration::from_secs(3_601),
        taken: Timestep::from_duration(Duration::from_hours(1)).unwrap(),
    };
    assert_eq!(frames(&mut app, 2), [vec![refused], vec![]]);
    assert!(refused.to_string().contains("1 ns to 1 hour"));
}

#[test]
fn a_relative_speed_above_65535_is_refused_in_a_message() {
    // Steps of 100 s, so that 65535× runs a few steps a frame, not 80,000.
    let mut app = app(0.01, EvenstepSettings::default());
    assert_eq!(frames(&mut app, 1), [vec![]]);
    app.world_mut()
        .resource_mut::<Time<Virtual>>()
        .set_relative_speed_f64(100_000.0);
    let refused = Refusal::Speed {
        requested: 100_000.0,
        taken: Speed::MAX,
    };
    assert_eq!(frames(&mut app, 2), [vec![refused], vec![]]);
    assert_eq!(support::plan(&app).plan().speed(), Speed::MAX);
    assert!(refused.to_string().contains("0 to 65535"));
}

//! Contract: the step budget clamps a stall and reports what it dropped, in
//! the plan and as a `Stall` message, measured on `Time<Real>`, so
//! `Time<Virtual>`'s `max_delta` no longer hides it.

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

const FRAME: Duration = Duration::from_nanos(16_666_667);

#[derive(Resource, Default)]
struct Stalls(Vec<Stall>);

fn collect(mut stalls: MessageReader<Stall>, mut seen: ResMut<Stalls>) {
    seen.0.extend(stalls.read().copied());
}

/// A 60 Hz app with the plugin under `settings`, ten steady frames in.
fn warmed_up(settings: EvenstepSettings) -> App {
    let mut app = support::app(60.0, Some(settings));
    app.init_resource::<Stalls>().add_systems(Update, collect);
    support::frame(&mut app, Duration::ZERO);
    for _ in 0..10 {
        assert_eq!(support::frame(&mut app, FRAME), 1);
    }
    app
}

#[test]
fn a_200_ms_hitch_runs_the_budget_and_reports_the_rest() {
    let mut app = warmed_up(EvenstepSettings::default());
    assert_eq!(support::frame(&mut app, Duration::from_millis(200)), 5);
    let plan = support::plan(&app);
    assert_eq!(
        (plan.steps_due(), plan.steps_run(), plan.steps_dropped()),
        (12, 5, 7)
    );
    assert_eq!(plan.dropped(), Duration::from_nanos(116_666_666)); // 7/60 s
    let stalls = &app.world().resource::<Stalls>().0;
    assert_eq!(
        stalls.as_slice(),
        [Stall {
            frame_delta: Duration::from_millis(200),
            beyond_max_delta: Duration::ZERO,
            steps_due: 12,
            steps_run: 5,
            steps_dropped: 7,
            dropped: Duration::from_nanos(116_666_666),
            first_tick: 10,
        }]
    );
    // The next frame is an ordinary one, and reports nothing.
    assert_eq!(support::frame(&mut app, FRAME), 1);
    assert_eq!(app.world().resource::<Stalls>().0.len(), 1);
}

#[test]
fn bevys_own_loop_runs_a_200_ms_hitch_without_a_budget_and_reports_nothing() {
    let mut app = support::app(60.0, None);
    support::frame(&mut app, Duration::ZERO);
    for _ in 0..10 {
        support::frame(&mut app, FRAME);
    }
    // 200 ms is 11.99999 of Bevy's 16,666,667 ns steps, with no overstep
    // left: 11 run, whatever the budget a game would want.
    assert_eq!(support::frame(&mut app, Duration::from_millis(200)), 11);
}

#[test]
fn a_budget_given_as_a_span_runs_the_steps_that_cover_it() {
    let settings = EvenstepSettings {
        budget: Budget::Span(Duration::from_millis(250)),
        ..EvenstepSettings::default()
    };
    let mut app = warmed_up(settings);
    assert_eq!(support::frame(&mut app, Duration::from_millis(400)), 15);
    let plan = support::plan(&app);
    assert_eq!((plan.steps_due(), plan.steps_dropped()), (24, 9));
    assert_eq!(plan.dropped(), Duration::from_millis(150));
}

#[test]
fn max_delta_no_longer_hides_a_stall() {
    // Bevy clamps `Time<Virtual>` to `max_delta` (250 ms) and its own loop
    // drops the rest without a word; the plugin plans from `Time<Real>`.
    let mut bevy = support::app(60.0, None);
    support::frame(&mut bevy, Duration::ZERO);
    // 250 ms is 14.99999 of its steps.
    assert_eq!(support::frame(&mut bevy, Duration::from_millis(400)), 14);
    assert_eq!(
        bevy.world().resource::<Time<Virtual>>().delta(),
        Duration::from_millis(250)
    );

    let mut app = warmed_up(EvenstepSettings::default());
    assert_eq!(support::frame(&mut app, Duration::from_millis(400)), 5);
    let stall = app.world().resource::<Stalls>().0[0];
    assert_eq!((stall.steps_due, stall.steps_dropped), (24, 19));
    assert_eq!(stall.frame_delta, Duration::from_millis(400));
    assert_eq!(
        app.world().resource::<Time<Virtual>>().delta(),
        Duration::from_millis(250)
    );
}

#[test]
fn the_budget_changes_while_the_app_runs() {
    let mut app = warmed_up(EvenstepSettings::default());
    app.world_mut().resource_mut::<EvenstepSettings>().budget =
        Budget::Steps(evenstep_core::StepBudget::try_new(2).unwrap());
    assert_eq!(support::frame(&mut app, Duration::from_millis(100)), 2);
    assert_eq!(support::plan(&app).steps_dropped(), 4);
}

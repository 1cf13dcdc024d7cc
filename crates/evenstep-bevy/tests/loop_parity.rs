//! Contract: `Time<Virtual>`'s pause and relative speed, and a change of
//! step at run time (through the settings, or by user code through
//! `Time<Fixed>`), plan exactly as evenstep's `Loop` plans the same
//! requests at the same timestamps, under every pacing; and a step written
//! to `Time<Fixed>` while the settings name one is refused.

mod support;

use core::time::Duration;

use bevy_app::App;
use bevy_time::{Fixed, Time, Virtual};
use evenstep::{Loop, ManualClock, PumpKind};
use evenstep_bevy::{Budget, EvenstepSettings};
use evenstep_core::{Pacing, Speed, Timestamp, Timestep};

/// A request made before a frame, to the app and to the loop alike.
#[derive(Clone, Copy, Debug)]
enum Request {
    Pause,
    Resume,
    Speed(f64),
    /// Through `EvenstepSettings::timestep`.
    Step(Timestep),
    /// Through `Time<Fixed>`, the settings following it.
    FixedHz(f64, Timestep),
}

fn apply(app: &mut App, game_loop: &mut Loop<()>, request: Request) {
    let world = app.world_mut();
    match request {
        Request::Pause => {
            world.resource_mut::<Time<Virtual>>().pause();
            game_loop.pause();
        }
        Request::Resume => {
            world.resource_mut::<Time<Virtual>>().unpause();
            game_loop.resume();
        }
        Request::Speed(speed) => {
            world
                .resource_mut::<Time<Virtual>>()
                .set_relative_speed_f64(speed);
            game_loop.set_speed_f64(speed).unwrap();
        }
        Request::Step(timestep) => {
            world.resource_mut::<EvenstepSettings>().timestep = Some(timestep);
            game_loop.set_timestep(timestep);
        }
        Request::FixedHz(hz, timestep) => {
            world.resource_mut::<EvenstepSettings>().timestep = None;
            world.resource_mut::<Time<Fixed>>().set_timestep_hz(hz);
            game_loop.set_timestep(timestep);
        }
    }
}

const REQUESTS: [(usize, Request); 10] = [
    (40, Request::Pause),
    (70, Request::Resume),
    (100, Request::Speed(0.5)),
    (130, Request::Speed(1.5)),
    (160, Request::Step(Timestep::HZ_30)),
    (200, Request::FixedHz(120.0, Timestep::HZ_120)),
    (230, Request::Speed(0.0)),
    (250, Request::Speed(1.0)),
    (260, Request::Pause),
    (275, Request::Resume),
];

#[test]
fn pause_speed_and_step_changes_plan_as_in_evenstep_loop() {
    let stamps = support::jittered(60, 1, 300, 1_000_000, 11);
    for pacing in [
        Pacing::OFF,
        Pacing::CENTRED,
        Pacing::LOCKED,
        Pacing::snapped(Duration::from_millis(2)).unwrap(),
    ] {
        let settings = EvenstepSettings {
            timestep: None,
            budget: Budget::Span(Duration::from_millis(250)),
            pacing,
        };
        let mut app = support::app(60.0, Some(settings));
        let mut game_loop = Loop::<()>::builder()
            .clock(ManualClock::new())
            .timestep(Timestep::HZ_60)
            .budget_window(Duration::from_millis(250))
            .pacing(pacing)
            .build()
            .unwrap();
        game_loop.start();
        let mut requests = REQUESTS.iter().peekable();
        for (frame, &stamp) in stamps.iter().enumerate() {
            while let Some(&(_, request)) = requests.next_if(|(at, _)| *at == frame) {
                apply(&mut app, &mut game_loop, request);
            }
            let at = stamp - stamps[0];
            let ran = support::frame_at(&mut app, Duration::from_nanos(at));
            let pumped = game_loop.pump_at(&mut (), PumpKind::Paint, Timestamp::from_nanos(at));
            let expected = pumped.report().unwrap().plan;
            assert_eq!(
                *support::plan(&app).plan(),
                expected,
                "{pacing:?}, frame {frame}"
            );
            assert_eq!(ran as u64, expected.steps_run());
        }
        assert_eq!(support::plan(&app).plan().timestep(), Timestep::HZ_120);
        assert_eq!(
            support::fixed(&app).elapsed(),
            game_loop.sim_time().as_duration(),
            "{pacing:?}"
        );
    }
}

#[test]
fn a_pause_runs_no_step_and_its_end_replays_no_burst() {
    let mut app = support::app(60.0, Some(EvenstepSettings::default()));
    support::frame(&mut app, Duration::ZERO);
    app.world_mut().resource_mut::<Time<Virtual>>().pause();
    for _ in 0..30 {
        assert_eq!(support::frame(&mut app, Duration::from_millis(20)), 0);
    }
    app.world_mut().resource_mut::<Time<Virtual>>().unpause();
    // The frame after the resume has a zero delta, as in `Loop`.
    assert_eq!(support::frame(&mut app, Duration::from_millis(20)), 0);
    assert_eq!(support::plan(&app).plan().raw_delta().as_nanos(), 0);
    assert_eq!(support::frame(&mut app, Duration::from_millis(20)), 1);
}

#[test]
fn a_decimal_relative_speed_runs_at_the_fraction_it_names() {
    let mut app = support::app(60.0, Some(EvenstepSettings::default()));
    support::frame(&mut app, Duration::ZERO);
    app.world_mut()
        .resource_mut::<Time<Virtual>>()
        .set_relative_speed_f64(0.1);
    support::frame(&mut app, Duration::from_millis(10));
    assert_eq!(
        support::plan(&app).plan().speed(),
        Speed::new(1, 10).unwrap()
    );
    // Ten seconds at a tenth: exactly one second of simulation, 60 steps.
    for _ in 0..1_000 {
        support::frame(&mut app, Duration::from_millis(10));
    }
    assert_eq!(support::plan(&app).plan().end_tick(), 60);
}

#[test]
fn a_step_written_to_time_fixed_is_refused_while_the_settings_name_one() {
    let settings = EvenstepSettings {
        timestep: Some(Timestep::HZ_60),
        ..EvenstepSettings::default()
    };
    let mut app = support::app(20.0, Some(settings));
    support::frame(&mut app, Duration::ZERO);
    assert_eq!(
        support::fixed(&app).timestep(),
        Duration::from_nanos(16_666_667)
    );
    app.world_mut()
        .resource_mut::<Time<Fixed>>()
        .set_timestep_hz(30.0);
    assert_eq!(support::frame(&mut app, Duration::from_millis(50)), 3);
    assert_eq!(support::plan(&app).plan().timestep(), Timestep::HZ_60);
    assert_eq!(
        support::fixed(&app).timestep(),
        Duration::from_nanos(16_666_667)
    );
}

#[test]
fn a_step_written_to_time_fixed_is_followed_by_default() {
    let mut app = support::app(60.0, Some(EvenstepSettings::default()));
    support::frame(&mut app, Duration::ZERO);
    app.world_mut()
        .resource_mut::<Time<Fixed>>()
        .set_timestep_hz(20.0);
    assert_eq!(support::frame(&mut app, Duration::from_millis(100)), 2);
    assert_eq!(support::plan(&app).plan().timestep(), Timestep::HZ_20);
    assert_eq!(support::fixed(&app).timestep(), Duration::from_millis(50));
}

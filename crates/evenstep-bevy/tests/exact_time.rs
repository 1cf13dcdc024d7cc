//! Contract: `Time<Fixed>` stands at each step's exact end (sixty 60 Hz
//! steps are one second, 59.94 Hz steps are 1001/60000 s), its nominal
//! step is the exact one rounded to the nanosecond, its overstep fraction
//! is the plan's alpha, the generic `Time` is `Time<Fixed>` during the
//! steps and `Time<Virtual>` after them, as in Bevy's loop, and a
//! `Time<Fixed>` inserted anew goes on from its own elapsed time, one step
//! a step.

mod support;

use core::time::Duration;

use bevy_time::{Fixed, Time, Virtual};
use evenstep_bevy::EvenstepSettings;
use evenstep_core::{Pacing, Timestep};

fn plain() -> EvenstepSettings {
    EvenstepSettings {
        pacing: Pacing::OFF,
        ..EvenstepSettings::default()
    }
}

#[test]
fn sixty_60_hz_steps_are_exactly_one_second_of_fixed_time() {
    // Pacing off, so that the steps are exactly the frames' time: the
    // default's pacing may move game time by a step as it locks on.
    let mut app = support::app(60.0, Some(plain()));
    let mut bevy = support::app(60.0, None);
    for k in 0..=60_u64 {
        let at = Duration::from_nanos(k * 1_000_000_000 / 60);
        support::frame_at(&mut app, at);
        support::frame_at(&mut bevy, at);
    }
    let seen = app.world().resource::<support::Seen>();
    assert_eq!(seen.fixed_elapsed.len(), 60);
    assert_eq!(support::fixed(&app).elapsed(), Duration::from_secs(1));
    // Bevy's own 60 Hz steps are 16,666,667 ns: sixty are 20 ns too long,
    // so one second of 60 Hz frames runs 59 of them.
    let step = support::fixed(&bevy).timestep();
    assert_eq!(step * 60, Duration::from_nanos(1_000_000_020));
    assert_eq!(
        bevy.world().resource::<support::Seen>().fixed_elapsed.len(),
        59
    );
}

#[test]
fn fixed_deltas_are_the_whole_nanoseconds_between_exact_step_ends() {
    let mut app = support::app(60.0, Some(plain()));
    support::frame(&mut app, Duration::ZERO);
    support::frame(&mut app, Duration::from_millis(50)); // three steps
    support::frame(&mut app, Duration::from_millis(50)); // three more
    let seen = app.world().resource::<support::Seen>();
    let nanos = |d: &Vec<Duration>| d.iter().map(Duration::as_nanos).collect::<Vec<_>>();
    // Each step ends at n × 50/3 ms rounded down: 6, 7, 7, over and over.
    assert_eq!(
        nanos(&seen.fixed_delta),
        [
            16_666_666, 16_666_667, 16_666_667, 16_666_666, 16_666_667, 16_666_667
        ]
    );
    assert_eq!(
        nanos(&seen.fixed_elapsed),
        [
            16_666_666,
            33_333_333,
            50_000_000,
            66_666_666,
            83_333_333,
            100_000_000
        ]
    );
}

#[test]
fn a_59_94_hz_step_is_nominally_16_683_333_ns_and_exact_in_elapsed_time() {
    let settings = EvenstepSettings {
        timestep: Some(Timestep::HZ_59_94),
        ..plain()
    };
    let mut app = support::app(60.0, Some(settings));
    support::frame(&mut app, Duration::ZERO);
    assert_eq!(
        support::fixed(&app).timestep(),
        Duration::from_nanos(16_683_333)
    );
    support::frame(&mut app, Duration::from_micros(50_050)); // 3 × 1001/60000 s
    let seen = app.world().resource::<support::Seen>();
    let deltas: Vec<_> = seen.fixed_delta.iter().map(Duration::as_nanos).collect();
    assert_eq!(deltas, [16_683_333, 16_683_333, 16_683_334]);
    assert_eq!(
        support::fixed(&app).elapsed(),
        Duration::from_micros(50_050)
    );
    assert_eq!(support::fixed(&app).overstep(), Duration::ZERO);
}

#[test]
fn time_fixed_from_hz_of_the_ntsc_ratio_is_read_as_59_94_hz() {
    let mut app = support::app(60_000.0 / 1_001.0, Some(plain()));
    support::frame(&mut app, Duration::ZERO);
    assert_eq!(support::plan(&app).plan().timestep(), Timestep::HZ_59_94);
}

#[test]
fn the_overstep_fraction_is_the_plans_alpha() {
    for (hz, settings) in [
        (60.0, plain()),
        (20.0, plain()),
        (60.0, EvenstepSettings::default()),
    ] {
        let mut app = support::app(hz, Some(settings));
        support::frame(&mut app, Duration::ZERO);
        for k in 1..200_u64 {
            support::frame(&mut app, Duration::from_nanos(1_000_000 + k * 97_001));
            let alpha = support::plan(&app).alpha();
            let fraction = support::fixed(&app).overstep_fraction();
            assert!(
                (fraction - alpha.as_f32()).abs() <= 2.0 * f32::EPSILON,
                "{fraction} {alpha:?}"
            );
            assert!(fraction < 1.0);
        }
    }
}

#[test]
fn the_generic_time_is_fixed_time_in_the_steps_and_virtual_time_after() {
    let mut app = support::app(60.0, Some(plain()));
    support::frame(&mut app, Duration::ZERO);
    for _ in 0..5 {
        support::frame(&mut app, Duration::from_millis(40));
    }
    let seen = app.world().resource::<support::Seen>();
    assert_eq!(seen.generic_elapsed, seen.fixed_elapsed);
    let world = app.world();
    let (generic, virt) = (world.resource::<Time>(), world.resource::<Time<Virtual>>());
    assert_eq!(
        (generic.elapsed(), generic.delta()),
        (virt.elapsed(), virt.delta())
    );
    assert_eq!(virt.elapsed(), Duration::from_millis(200));
}

#[test]
fn fixed_time_runs_ahead_of_virtual_time_by_at_most_a_step_under_centred_pacing() {
    // Centred pacing starts the bank at half a step, so the first step ends
    // at 16.7 ms of simulation after 10 ms of virtual time.
    let centred = EvenstepSettings {
        pacing: Pacing::CENTRED,
        ..plain()
    };
    let mut app = support::app(60.0, Some(centred));
    support::frame(&mut app, Duration::ZERO);
    assert_eq!(support::frame(&mut app, Duration::from_millis(10)), 1);
    let world = app.world();
    assert_eq!(
        world.resource::<Time<Fixed>>().elapsed(),
        Duration::from_nanos(16_666_666)
    );
    assert_eq!(
        world.resource::<Time<Virtual>>().elapsed(),
        Duration::from_millis(10)
    );

    // Without pacing, it never does.
    let mut app = support::app(60.0, Some(plain()));
    for stamp in support::jittered(60, 1, 300, 1_500_000, 9) {
        support::frame_at(&mut app, Duration::from_nanos(stamp));
        let world = app.world();
        let (fixed, virt) = (
            world.resource::<Time<Fixed>>(),
            world.resource::<Time<Virtual>>(),
        );
        assert!(fixed.elapsed() <= virt.elapsed());
    }
}

#[test]
fn a_time_fixed_inserted_anew_goes_on_one_step_a_step_from_its_own_elapsed_time() {
    for settings in [plain(), EvenstepSettings::default()] {
        let mut app = support::app(60.0, Some(settings));
        let at = |k: u64| Duration::from_nanos(k * 1_000_000_000 / 60);
        for k in 0..=120 {
            support::frame_at(&mut app, at(k));
        }
        let before = app.world().resource::<support::Seen>().fixed_delta.len();
        // As an app does to reset its fixed clock: a new one, at 0.
        app.insert_resource(Time::<Fixed>::from_hz(60.0));
        for k in 121..=180 {
            support::frame_at(&mut app, at(k));
        }
        let seen = app.world().resource::<support::Seen>();
        let deltas = &seen.fixed_delta[before..];
        assert_eq!(deltas.len(), 60);
        for delta in deltas {
            let nanos = delta.as_nanos();
            assert!((16_666_666..=16_666_667).contains(&nanos), "{nanos} ns");
        }
        // Its clock counts from where the new one stood: 0.
        assert_eq!(seen.fixed_elapsed[before].as_nanos(), deltas[0].as_nanos());
        assert_eq!(
            support::fixed(&app).elapsed().as_nanos(),
            deltas.iter().map(Duration::as_nanos).sum::<u128>()
        );
    }
}

#[test]
fn a_time_fixed_inserted_anew_at_another_rate_steps_at_that_rate_from_its_own_clock() {
    let mut app = support::app(60.0, Some(plain()));
    support::frame(&mut app, Duration::ZERO);
    for _ in 0..40 {
        support::frame(&mut app, Duration::from_millis(50));
    }
    let before = app.world().resource::<support::Seen>().fixed_delta.len();
    app.insert_resource(Time::<Fixed>::from_hz(20.0));
    for _ in 0..4 {
        support::frame(&mut app, Duration::from_millis(50));
    }
    let seen = app.world().resource::<support::Seen>();
    assert_eq!(seen.fixed_delta[before..], [Duration::from_millis(50); 4]);
    assert_eq!(support::fixed(&app).elapsed(), Duration::from_millis(200));
}

//! The host's law: a room's plans under the host equal its plans under a
//! single runner for the same clock readings, whatever the other rooms are
//! (their rates, speeds, pacings, start times) and however rooms end (by
//! themselves, removed by another room, in any order). A property test over
//! random room sets on a manual clock, with a negative control: a host
//! that wakes a microsecond late breaks the law.

mod common;

use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use evenstep::host::{Host, Room, RoomId};
use evenstep::runner::ManualSleep;
use evenstep::{Clock, FramePlan, Loop, ManualClock, Runner, Speed, Timestamp, Timestep};
use proptest::prelude::*;

/// One room of a random set.
#[derive(Clone, Copy, Debug)]
struct Spec {
    hz: u32,
    speed: (u16, u16),
    pacing: usize,
    /// When the lobby adds it (a real timer: at least 1 ms).
    start_ms: u64,
    end: End,
}

#[derive(Clone, Copy, Debug)]
enum End {
    /// It stops its loop after this many steps.
    Steps(u64),
    /// The lobby removes it this long after it started.
    RemovedAfterMs(u64),
}

/// A room's plans, as a hook saw them at the top of each pump.
type Plans = Arc<Mutex<Vec<FramePlan>>>;

/// The spec's loop on `clock`, recording its plans into `plans`.
fn spec_loop(spec: Spec, clock: impl Clock + 'static, plans: &Plans) -> Loop<u64> {
    let (num, den) = spec.speed;
    let mut game = Loop::<u64>::builder()
        .clock(clock)
        .timestep(Timestep::from_hz(spec.hz).unwrap())
        .speed(Speed::new(num, den).unwrap())
        .pacing(common::pacings()[spec.pacing])
        .build()
        .unwrap();
    let plans = Arc::clone(plans);
    game.on_before_steps(move |_, plan| plans.lock().unwrap().push(*plan));
    if let End::Steps(last) = spec.end {
        game.on_update(move |steps, step| {
            *steps += 1;
            if *steps == last {
                step.control().stop();
            }
        });
    }
    game
}

/// Runs `specs` under one host on a manual clock whose wake-ups are
/// `oversleep` late: a lobby room adds each at its start and removes those
/// that are removed, then drains the host. Each room's start and plans.
fn under_the_host(specs: &[Spec], oversleep: Duration) -> Vec<(Timestamp, Plans)> {
    let clock = ManualClock::new();
    let host = Host::builder()
        .clock(clock.clone())
        .sleeper(ManualSleep::new(clock, oversleep))
        .build()
        .unwrap();
    let rooms: Vec<(Arc<OnceLock<Timestamp>>, Plans)> = specs
        .iter()
        .map(|_| (Arc::default(), Plans::default()))
        .collect();
    let for_lobby: Vec<_> = specs.iter().copied().zip(rooms.clone()).collect();
    host.handle()
        .add(move |setup| {
            let mut lobby = Loop::<u64>::builder()
                .clock(setup.clock())
                .timestep(Timestep::HZ_30)
                .build()
                .unwrap();
            let last_start = for_lobby.iter().map(|(s, _)| s.start_ms).max().unwrap();
            for (spec, (start, plans)) in for_lobby {
                arrange(&mut lobby, &setup, spec, start, plans);
            }
            let handle = setup.handle();
            let drain_at = Duration::from_millis(last_start + 1);
            lobby
                .real()
                .after(drain_at, move |_: &mut u64, _| handle.drain())
                .unwrap();
            // The lobby outlives every removal: starts are under 1.5 s,
            // removals under 3 s after.
            lobby.on_update(|steps, step| {
                *steps += 1;
                if *steps == 150 {
                    step.control().stop();
                }
            });
            Ok::<_, String>(Room::new(lobby, 0))
        })
        .unwrap();
    host.run().unwrap();
    rooms
        .into_iter()
        .map(|(start, plans)| (*start.get().unwrap(), plans))
        .collect()
}

/// Arms the lobby's timers for one room: add it at its start, and remove
/// it later if it is removed.
fn arrange(
    lobby: &mut Loop<u64>,
    setup: &evenstep::host::RoomSetup,
    spec: Spec,
    start: Arc<OnceLock<Timestamp>>,
    plans: Plans,
) {
    let handle = setup.handle();
    let id: Arc<OnceLock<RoomId>> = Arc::default();
    let added = Arc::clone(&id);
    lobby
        .real()
        .after(
            Duration::from_millis(spec.start_ms),
            move |_: &mut u64, _| {
                let (start, plans) = (Arc::clone(&start), Arc::clone(&plans));
                let room = handle.add(move |setup| {
                    start.set(setup.clock().now()).unwrap();
                    Ok::<_, String>(Room::new(spec_loop(spec, setup.clock(), &plans), 0))
                });
                added.set(room.unwrap()).unwrap();
            },
        )
        .unwrap();
    if let End::RemovedAfterMs(after) = spec.end {
        let handle = setup.handle();
        let at = Duration::from_millis(spec.start_ms + after);
        lobby
            .real()
            .after(at, move |_: &mut u64, _| handle.remove(*id.get().unwrap()))
            .unwrap();
    }
}

/// The same room alone under a runner on a manual clock that starts at
/// `start`, for `pumps` pumps.
fn under_a_runner(spec: Spec, start: Timestamp, pumps: usize) -> Vec<FramePlan> {
    let clock = ManualClock::starting_at(start);
    let plans = Plans::default();
    let mut game = spec_loop(spec, clock.clone(), &plans);
    let mut runner = Runner::with_sleeper(ManualSleep::new(clock, Duration::ZERO));
    let (stop, seen) = (runner.stop_handle(), Arc::clone(&plans));
    game.on_before_steps(move |_, _| {
        if seen.lock().unwrap().len() == pumps {
            stop.stop(); // after this pump
        }
    });
    if pumps > 0 {
        let _ = runner.run(&mut game, &mut 0);
    }
    plans.lock().unwrap().clone()
}

/// Each room's plans under the host, and alone under a runner, side by side.
fn side_by_side(specs: &[Spec], oversleep: Duration) -> Vec<(Vec<FramePlan>, Vec<FramePlan>)> {
    under_the_host(specs, oversleep)
        .into_iter()
        .zip(specs)
        .map(|((start, plans), &spec)| {
            let hosted = plans.lock().unwrap().clone();
            let alone = under_a_runner(spec, start, hosted.len());
            (hosted, alone)
        })
        .collect()
}

fn spec() -> impl Strategy<Value = Spec> {
    let end = prop_oneof![
        (1..200_u64).prop_map(End::Steps),
        (0..3_000_u64).prop_map(End::RemovedAfterMs), // 0: before its first pump,
    ];
    (
        prop::sample::select(vec![10, 20, 30, 50, 60, 64, 144]),
        prop::sample::select(vec![(1, 1), (1, 2), (2, 1), (3, 2), (2, 3)]),
        0..4_usize,
        1..1_500_u64,
        end,
    )
        .prop_map(|(hz, speed, pacing, start_ms, end)| Spec {
            hz,
            speed,
            pacing,
            start_ms,
            end,
        })
}

proptest! {
    #![proptest_config(common::config(48))]

    #[test]
    fn a_rooms_plans_under_the_host_equal_its_plans_under_a_single_runner(
        specs in prop::collection::vec(spec(), 1..10),
    ) {
        for (n, (hosted, alone)) in side_by_side(&specs, Duration::ZERO).into_iter().enumerate() {
            prop_assert_eq!(hosted, alone, "room {}: {:?}", n, specs[n]);
        }
    }
}

#[test]
fn the_law_is_broken_by_a_host_that_wakes_a_microsecond_late() {
    let specs = [
        Spec {
            hz: 30,
            speed: (1, 1),
            pacing: 0,
            start_ms: 1,
            end: End::Steps(30),
        },
        Spec {
            hz: 60,
            speed: (1, 1),
            pacing: 1,
            start_ms: 7,
            end: End::RemovedAfterMs(500),
        },
    ];
    // On time, the law holds for this set...
    for (hosted, alone) in side_by_side(&specs, Duration::ZERO) {
        assert_eq!(hosted, alone);
    }
    // ...and a microsecond late, every room's plans differ from a runner's
    // that wakes on time.
    for (hosted, alone) in side_by_side(&specs, Duration::from_micros(1)) {
        assert_eq!(hosted.len(), alone.len());
        assert_ne!(hosted, alone);
    }
}

//! The host's contract for its rooms: each room is pumped when it falls due
//! and only then, on time, without drift; rooms end when their loop stops,
//! when a handle removes them, when the host stops, or when they panic (that
//! room alone, with its id); a drained host takes no more rooms and returns
//! when the last one ends; rooms go to the worker with the fewest and never
//! move. Driven on a manual clock by a sleeper that moves it.

use std::collections::BTreeSet;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use evenstep::host::{Host, HostError, HostHandle, Room, RoomEnd, RoomReport, RoomSetup};
use evenstep::runner::ManualSleep;
use evenstep::{Loop, ManualClock, Nanos, Pacing, Timestep};

/// Rooms' reports in the order they ended.
type Ended = Arc<Mutex<Vec<RoomReport>>>;

fn host(clock: &ManualClock, oversleep: Duration, workers: usize) -> (Host<ManualSleep>, Ended) {
    let ended = Ended::default();
    let log = Arc::clone(&ended);
    let host = Host::builder()
        .workers(workers)
        .clock(clock.clone())
        .sleeper(ManualSleep::new(clock.clone(), oversleep))
        .on_room_end(move |report| log.lock().unwrap().push(report.clone()))
        .build()
        .unwrap();
    (host, ended)
}

/// A room at `hz` that ends itself after `steps` steps.
fn room(setup: &RoomSetup, hz: u32, steps: u64) -> Loop<u64> {
    let mut game = Loop::<u64>::builder()
        .clock(setup.clock())
        .timestep(Timestep::from_hz(hz).unwrap())
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    game.on_update(move |count, step| {
        *count += 1;
        if *count == steps {
            step.control().stop();
        }
    });
    game
}

fn add(handle: &HostHandle, hz: u32, steps: u64) {
    handle
        .add(move |setup| Ok::<_, String>(Room::new(room(&setup, hz, steps), 0)))
        .unwrap();
}

fn ends(ended: &Ended) -> Vec<(u64, RoomEnd)> {
    let ended = ended.lock().unwrap();
    ended.iter().map(|r| (r.id.get(), r.end.clone())).collect()
}

#[test]
fn rooms_at_three_rates_each_run_every_step_on_time_one_pump_a_step() {
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    for hz in [20, 30, 60] {
        add(&handle, hz, u64::from(hz) * 10); // ten seconds each
    }
    handle.drain();
    let stats = host.run().unwrap();
    let ended = ended.lock().unwrap();
    for (report, hz) in ended.iter().zip([20, 30, 60]) {
        assert_eq!(report.end, RoomEnd::Finished);
        assert_eq!(report.stats.steps, hz * 10);
        assert_eq!(report.stats.pumps, hz * 10, "one pump a step, none between");
        assert_eq!(report.stats.lateness.steps, hz * 10);
        assert_eq!(report.stats.lateness.max, Nanos::ZERO);
    }
    assert_eq!(stats.totals.steps, 1_100);
    assert_eq!(stats.totals.pumps, 1_100);
    assert_eq!((stats.started, stats.ended, stats.rooms), (3, 3, 0));
    assert_eq!(stats.wall, Duration::from_secs(10));
}

#[test]
fn rooms_due_at_the_same_instant_share_one_wake_up() {
    let clock = ManualClock::new();
    let (host, _) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    for _ in 0..100 {
        add(&handle, 30, 30);
    }
    handle.drain();
    let stats = host.run().unwrap();
    assert_eq!(stats.totals.steps, 3_000);
    // One wake-up a step for all hundred rooms, and the first, which built
    // them.
    assert_eq!(stats.wakes, 31);
}

#[test]
fn each_step_is_as_late_as_the_wake_up_that_ran_it_and_no_room_drifts() {
    let clock = ManualClock::new();
    // Every wake-up 3 ms late: the rooms bank it and lose no step.
    let (host, ended) = host(&clock, Duration::from_millis(3), 1);
    let handle = host.handle();
    add(&handle, 30, 1_800);
    add(&handle, 60, 3_600);
    handle.drain();
    let stats = host.run().unwrap();
    let ended = ended.lock().unwrap();
    assert_eq!(ended[0].stats.steps, 1_800);
    assert_eq!(ended[1].stats.steps, 3_600);
    for report in ended.iter() {
        // A room's histogram is coarser than the host's, and still exact
        // when its steps were all as late.
        let late = report.stats.lateness;
        let three = Nanos::from_millis(3);
        assert_eq!((late.p50, late.p99, late.max), (three, three, three));
    }
    assert_eq!(stats.totals.dropped_steps, 0);
    assert_eq!(stats.totals.lateness.p50, Nanos::from_millis(3));
    assert_eq!(stats.totals.lateness.max, Nanos::from_millis(3));
    // Sixty seconds of 30 Hz and 60 Hz, and the last wake-up's 3 ms.
    assert_eq!(stats.wall, Duration::from_millis(60_003));
}

#[test]
fn a_room_removed_by_a_handle_ends_removed_and_the_others_run_on() {
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    let victim = Arc::new(OnceLock::new());
    let target = Arc::clone(&victim);
    // Room 0 removes room 1 after one second of its own steps.
    handle
        .add(move |setup| {
            let mut game = room(&setup, 30, 60);
            let handle = setup.handle();
            game.real()
                .after(Duration::from_secs(1), move |_: &mut u64, _| {
                    handle.remove(*target.get().unwrap());
                })
                .unwrap();
            Ok::<_, String>(Room::new(game, 0))
        })
        .unwrap();
    let id = handle
        .add(|setup| Ok::<_, String>(Room::new(room(&setup, 30, u64::MAX), 0)))
        .unwrap();
    victim.set(id).unwrap();
    handle.drain();
    host.run().unwrap();
    assert_eq!(
        ends(&ended),
        [(1, RoomEnd::Removed), (0, RoomEnd::Finished)]
    );
    let ended = ended.lock().unwrap();
    // Room 1 was pumped for its 30th step at 1 s, after room 0's timer:
    // the removal takes effect before its next pump.
    assert_eq!(ended[0].stats.steps, 30);
    assert_eq!(ended[1].stats.steps, 60);
}

#[test]
fn a_room_that_removes_itself_ends_after_the_pump_in_progress() {
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    host.handle()
        .add(|setup| {
            let mut game = room(&setup, 30, u64::MAX);
            let (handle, me) = (setup.handle(), setup.id());
            game.on_update(move |count, _| {
                if *count == 5 {
                    handle.remove(me);
                }
            });
            Ok::<_, String>(Room::new(game, 0))
        })
        .unwrap();
    host.handle().drain();
    host.run().unwrap();
    assert_eq!(ends(&ended), [(0, RoomEnd::Removed)]);
    assert_eq!(ended.lock().unwrap()[0].stats.steps, 5);
}

#[test]
fn a_panicking_room_ends_with_its_id_and_message_and_the_others_run_on() {
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    add(&handle, 30, 90);
    handle
        .add(|setup| {
            let mut game = room(&setup, 30, u64::MAX);
            game.on_update(|count, _| assert!(*count < 10, "the match broke at {count}"));
            Ok::<_, String>(Room::new(game, 0))
        })
        .unwrap();
    add(&handle, 60, 180);
    handle.drain();
    let stats = host.run().unwrap();
    assert_eq!(
        ends(&ended),
        [
            (1, RoomEnd::Panicked("the match broke at 10".into())),
            (0, RoomEnd::Finished),
            (2, RoomEnd::Finished),
        ]
    );
    // The pump that panicked is not counted: nine whole pumps ran.
    assert_eq!(ended.lock().unwrap()[0].stats.steps, 9);
    assert_eq!((stats.panicked, stats.ended), (1, 3));
    assert_eq!(stats.totals.steps, 9 + 90 + 180);
}

#[test]
fn a_factory_that_fails_or_panics_ends_its_room_refused_and_the_host_runs_on() {
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    handle
        .add(|_| Err::<Room, _>(evenstep::Timestep::from_hz(0).unwrap_err()))
        .unwrap();
    handle
        .add(|_| -> Result<Room, String> { panic!("no map") })
        .unwrap();
    add(&handle, 30, 30);
    handle.drain();
    let stats = host.run().unwrap();
    let ends = ends(&ended);
    assert!(
        matches!(&ends[0], (0, RoomEnd::Refused(why)) if why.contains("rate")),
        "{ends:?}"
    );
    assert_eq!(ends[1], (1, RoomEnd::Refused("no map".into())));
    assert_eq!(ends[2], (2, RoomEnd::Finished));
    assert_eq!((stats.started, stats.refused, stats.ended), (1, 2, 3));
}

#[test]
fn a_drained_host_refuses_new_rooms_and_returns_when_the_last_room_ends() {
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    add(&handle, 30, 300);
    add(&handle, 30, 30);
    handle.drain();
    assert!(!handle.is_open());
    assert_eq!(
        handle.add(|_| Err::<Room, _>("late")).unwrap_err(),
        HostError::Closed
    );
    let stats = host.run().unwrap();
    assert_eq!(
        ends(&ended),
        [(1, RoomEnd::Finished), (0, RoomEnd::Finished)]
    );
    assert_eq!(stats.wall, Duration::from_secs(10));
}

#[test]
fn a_stopped_host_ends_every_room_stopped_after_the_pump_in_progress() {
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    add(&handle, 30, u64::MAX);
    handle
        .add(|setup| {
            let mut game = room(&setup, 60, u64::MAX);
            let handle = setup.handle();
            game.on_update(move |count, _| {
                if *count == 120 {
                    handle.stop();
                }
            });
            Ok::<_, String>(Room::new(game, 0))
        })
        .unwrap();
    let stats = host.run().unwrap();
    assert_eq!(ends(&ended), [(0, RoomEnd::Stopped), (1, RoomEnd::Stopped)]);
    let ended = ended.lock().unwrap();
    assert_eq!(ended[0].stats.steps, 60);
    assert_eq!(ended[1].stats.steps, 120);
    assert_eq!(stats.wall, Duration::from_secs(2));
}

#[test]
fn a_room_paused_with_nothing_due_is_looked_at_every_idle_wake() {
    let clock = ManualClock::new();
    let host = Host::builder()
        .clock(clock.clone())
        .sleeper(ManualSleep::new(clock.clone(), Duration::ZERO))
        .idle_wake(Duration::from_secs(5))
        .build()
        .unwrap();
    let handle = host.handle();
    handle
        .add(|setup| {
            let mut game = room(&setup, 30, u64::MAX);
            game.pause();
            let (handle, start) = (setup.handle(), setup.clock());
            game.on_after_steps(move |_, _| {
                if evenstep::Clock::now(&start) >= evenstep::Timestamp::from_nanos(20_000_000_000) {
                    handle.stop();
                }
            });
            Ok::<_, String>(Room::new(game, 0))
        })
        .unwrap();
    let stats = host.run().unwrap();
    // The pause is taken at the first pump (at once), then one every 5 s.
    assert_eq!(stats.totals.pumps, 5);
    assert_eq!(stats.totals.steps, 0);
}

#[test]
fn a_worker_count_outside_one_to_256_is_refused_naming_the_range() {
    for given in [0, 257, usize::MAX] {
        let error = Host::builder().workers(given).build().unwrap_err();
        assert_eq!(error, HostError::Workers { given });
        assert_eq!(
            error.to_string(),
            format!("a host has 1 to 256 workers, not {given}")
        );
    }
    assert_eq!(Host::new(256).unwrap().workers(), 256);
}

#[test]
fn a_wake_slack_over_100_ms_is_refused_naming_the_range() {
    let given = Duration::from_micros(100_001);
    let error = Host::builder().wake_slack(given).build().unwrap_err();
    assert_eq!(error, HostError::WakeSlack { given });
    assert_eq!(
        error.to_string(),
        "a host's wake slack is 0 to 100ms, not 100.001ms"
    );
    assert!(
        Host::builder()
            .wake_slack(Duration::from_millis(100))
            .build()
            .is_ok()
    );
}

#[test]
fn rooms_due_within_the_wake_slack_share_a_wake_up_and_run_that_late_without_drift() {
    let clock = ManualClock::new();
    let ended = Ended::default();
    let log = Arc::clone(&ended);
    let host = Host::builder()
        .clock(clock.clone())
        .sleeper(ManualSleep::new(clock.clone(), Duration::ZERO))
        .wake_slack(Duration::from_millis(15))
        .on_room_end(move |report| log.lock().unwrap().push(report.clone()))
        .build()
        .unwrap();
    let handle = host.handle();
    add(&handle, 100, 100); // due every 10 ms
    add(&handle, 50, 50); // due every 20 ms
    handle.drain();
    let stats = host.run().unwrap();
    // The first step is due at 10 ms: the worker wakes at 25 and runs the
    // fast room's steps due at 10 and 20 (15 and 5 ms late) and the slow
    // room's at 20 (5 ms late). Both are next due 5 ms later than a step
    // after that, so every wake-up is 20 ms after the last, to 1,005 ms.
    // Without the slack: a wake-up every 10 ms, 100 of them.
    assert_eq!(stats.wakes, 1 + 50, "the first wake-up built the rooms");
    assert_eq!(stats.wall, Duration::from_millis(1_005));
    let ended = ended.lock().unwrap();
    let (fast, slow) = (ended[0].stats, ended[1].stats);
    assert_eq!(
        (fast.steps, fast.pumps, slow.steps, slow.pumps),
        (100, 50, 50, 50)
    );
    assert_eq!(stats.totals.dropped_steps, 0);
    let ms = Nanos::from_millis;
    assert_eq!((fast.lateness.p50, fast.lateness.max), (ms(5), ms(15)));
    assert_eq!((slow.lateness.p50, slow.lateness.max), (ms(5), ms(5)));
}

#[test]
fn rooms_go_to_the_worker_with_the_fewest_and_every_step_runs_on_that_one() {
    let clock = ManualClock::new();
    let (host, _) = host(&clock, Duration::ZERO, 3);
    let handle = host.handle();
    let threads = Arc::new(Mutex::new(vec![BTreeSet::new(); 7]));
    for n in 0..7 {
        let threads = Arc::clone(&threads);
        handle
            .add(move |setup| {
                let mut game = room(&setup, 30, 30);
                game.on_update(move |_, _| {
                    let name = std::thread::current().name().unwrap().to_owned();
                    threads.lock().unwrap()[n].insert(name);
                });
                Ok::<_, String>(Room::new(game, 0))
            })
            .unwrap();
    }
    handle.drain();
    let stats = host.spawn().unwrap().join().unwrap();
    assert_eq!(stats.totals.steps, 7 * 30);
    let threads = threads.lock().unwrap();
    let workers: Vec<String> = threads
        .iter()
        .map(|names| {
            assert_eq!(names.len(), 1, "a room's steps on one thread: {names:?}");
            names.first().unwrap().clone()
        })
        .collect();
    // Nothing had ended when they were added: round robin.
    let expected: Vec<String> = [0, 1, 2, 0, 1, 2, 0]
        .iter()
        .map(|w| format!("evenstep-host-{w}"))
        .collect();
    assert_eq!(workers, expected);
}

#[test]
fn a_worker_that_has_fallen_behind_still_takes_a_stop_between_rounds() {
    // A room whose every step costs two steps of the clock: it is due again
    // as soon as it is pumped, so the worker never catches up. The stop it
    // asks for at its 100th step is still taken, after the pump in progress.
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    let ticking = clock.clone();
    host.handle()
        .add(move |setup| {
            let mut game = room(&setup, 60, u64::MAX);
            game.on_update(move |count, _| {
                ticking.advance(Duration::from_nanos(2 * 16_666_667));
                if *count == 100 {
                    handle.stop();
                }
            });
            Ok::<_, String>(Room::new(game, 0))
        })
        .unwrap();
    let threads = host.spawn().unwrap();
    // Bounded, so that a worker that never takes the stop fails the test
    // rather than hanging it.
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || done.send(threads.join().is_ok()));
    let joined = finished.recv_timeout(Duration::from_secs(60));
    assert_eq!(joined, Ok(true), "the host never took the stop");
    assert_eq!(ends(&ended), [(0, RoomEnd::Stopped)]);
    // Pumps of 1, 2, 4, then the budget's 5 steps: 7, 12, ... 97, 102; the
    // stop asked at the 100th ends the room after its pump.
    assert_eq!(ended.lock().unwrap()[0].stats.steps, 102);
}

#[test]
fn rooms_added_in_a_burst_are_built_between_the_pumps_of_rooms_due_and_none_drops_a_step() {
    // Fifty rooms asked for at once, each taking 10 ms of the clock to build,
    // behind a 60 Hz room: building them all before its next pump would leave
    // it half a second (30 steps) behind, past its budget of 5 steps. The
    // worker builds rooms only until one is due, pumps it, and goes on.
    let clock = ManualClock::new();
    let (host, ended) = host(&clock, Duration::ZERO, 1);
    let handle = host.handle();
    add(&handle, 60, 60);
    for _ in 0..50 {
        let building = clock.clone();
        handle
            .add(move |setup| {
                building.advance(Duration::from_millis(10));
                Ok::<_, String>(Room::new(room(&setup, 60, 1), 0))
            })
            .unwrap();
    }
    handle.drain();
    host.spawn().unwrap().join().unwrap();
    let ended = ended.lock().unwrap();
    assert_eq!(ended.len(), 51);
    let first = ended.iter().find(|r| r.id.get() == 0).unwrap();
    assert_eq!(first.stats.steps, 60);
    assert_eq!(first.stats.dropped_steps, 0);
    // Never later than one room's build.
    assert!(
        first.stats.lateness.max < Nanos::from_millis(10),
        "{:?}",
        first.stats.lateness
    );
    assert!(ended.iter().all(|r| r.stats.dropped_steps == 0));
}

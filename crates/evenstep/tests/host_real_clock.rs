//! The host on the real clock: a hundred rooms on two workers keep their
//! rate without drifting, and a stop from another thread wakes a worker
//! that has nothing due. Real time, so ignored in the default run; run it
//! with `cargo test -p evenstep --test host_real_clock -- --ignored`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use evenstep::host::{Host, Room, RoomEnd};
use evenstep::{Loop, Nanos, Pacing, Timestep};

#[test]
#[ignore = "real clock: cargo test -p evenstep --test host_real_clock -- --ignored"]
fn a_hundred_rooms_on_two_workers_run_two_seconds_at_30_hz_without_drift() {
    let steps = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&steps);
    let host = Host::builder()
        .workers(2)
        .on_room_end(move |report| log.lock().unwrap().push(report.clone()))
        .build()
        .unwrap();
    for _ in 0..100 {
        host.handle()
            .add(|setup| {
                let mut game = Loop::<u64>::builder()
                    .clock(setup.clock())
                    .timestep(Timestep::HZ_30)
                    .pacing(Pacing::OFF)
                    .build()?;
                game.on_update(|steps, step| {
                    *steps += 1;
                    if *steps == 60 {
                        step.control().stop();
                    }
                });
                Ok::<_, evenstep::ConfigError>(Room::new(game, 0))
            })
            .unwrap();
    }
    host.handle().drain();
    let stats = host.spawn().unwrap().join().unwrap();
    let ended = steps.lock().unwrap();
    assert_eq!(ended.len(), 100);
    assert!(
        ended
            .iter()
            .all(|r| r.end == RoomEnd::Finished && r.stats.steps == 60)
    );
    // Sixty steps took two seconds, not more: no drift. Generous on a
    // shared machine, where a thread can be held off its core for
    // milliseconds.
    assert!(stats.wall < Duration::from_millis(2_100), "{stats:?}");
    assert!(
        stats.totals.lateness.p50 < Nanos::from_millis(2),
        "{stats:?}"
    );
}

#[test]
#[ignore = "real clock: cargo test -p evenstep --test host_real_clock -- --ignored"]
fn a_stop_from_another_thread_wakes_a_worker_with_nothing_due_at_once() {
    let host = Host::builder()
        .idle_wake(Duration::from_secs(60))
        .build()
        .unwrap();
    let handle = host.handle();
    let threads = host.spawn().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    handle.stop();
    let stats = threads.join().unwrap();
    assert!(stats.wall < Duration::from_secs(5), "{stats:?}");
}

//! The headless runner on the real clock: it keeps the step rate without
//! drifting and wakes from its sleep at once when stopped from another
//! thread. Real time, so ignored in the default run; run it with
//! `cargo test -p evenstep --test runner_real_clock -- --ignored`.

use std::time::Duration;

use evenstep::{Clock, Loop, MonotonicClock, Nanos, Pacing, Runner, Timestep};

#[test]
#[ignore = "real clock: cargo test -p evenstep --test runner_real_clock -- --ignored"]
fn two_seconds_at_30_hz_run_sixty_steps_on_time_without_drift() {
    let mut server = Loop::<u64>::builder()
        .timestep(Timestep::HZ_30)
        .pacing(Pacing::OFF)
        .build()
        .unwrap();
    server.on_update(|steps, _| *steps += 1);
    let mut runner = Runner::new();
    let stop = runner.stop_handle();
    server
        .real()
        .after(Duration::from_secs(2), move |_: &mut u64, _| stop.stop())
        .unwrap();
    let mut steps = 0;
    let report = runner.run(&mut server, &mut steps);
    assert_eq!(steps, 60);
    assert_eq!(report.lateness.steps, 60);
    // Generous: a shared machine can hold a thread off its core for
    // milliseconds; a drifting loop would be tens of milliseconds out.
    assert!(report.lateness.p50 < Nanos::from_millis(2), "{report:?}");
    assert!(
        report.cpu_share().is_none_or(|share| share < 0.5),
        "{report:?}"
    );
}

#[test]
#[ignore = "real clock: cargo test -p evenstep --test runner_real_clock -- --ignored"]
fn a_stop_from_another_thread_wakes_a_runner_that_has_nothing_due_for_a_minute() {
    let clock = MonotonicClock::new();
    let thread = Runner::new()
        .spawn(move |runner| {
            let mut server = Loop::<u64>::builder().clock(clock).build().unwrap();
            server.pause(); // nothing is ever due
            runner.set_idle_wake(Duration::from_secs(60));
            let report = runner.run(&mut server, &mut 0);
            (report, clock.now())
        })
        .unwrap();
    std::thread::sleep(Duration::from_millis(200));
    thread.stop();
    let (report, ended) = thread.join().unwrap();
    assert!(report.stopped_by_handle);
    assert!(
        ended < evenstep::Timestamp::ZERO + Nanos::from_secs(5),
        "{ended:?}"
    );
}

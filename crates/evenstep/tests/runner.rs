//! The headless runner: it wakes for each step when it falls due, pumps,
//! and reports how late each step ran; a stop handle or a callback ends a
//! run after the current pump with the loop stopped and restartable; late
//! wake-ups never make the loop drift. Driven on a manual clock by a
//! sleeper that moves it, so nothing really sleeps.

use std::time::Duration;

use evenstep::{
    Clock, Loop, ManualClock, Nanos, Pacing, Runner, Timestamp, Timestep,
    runner::{ManualSleep, Sleep, StopHandle},
};

#[derive(Default)]
struct Server {
    steps: u64,
    saves: u64,
}

fn server_loop(clock: &ManualClock, timestep: Timestep) -> Loop<Server> {
    let mut server = Loop::<Server>::builder()
        .clock(clock.clone())
        .timestep(timestep)
        // The exact figures below are centred pacing's (half a step banked
        // at the start), pinned when it was the default.
        .pacing(Pacing::CENTRED)
        .build()
        .unwrap();
    server.on_update(|server, _| server.steps += 1);
    server
}

/// A real timer that stops the runner through its handle at `at`.
fn stop_at(server: &mut Loop<Server>, stop: StopHandle, at: Duration) {
    server
        .real()
        .after(at, move |_: &mut Server, _| stop.stop())
        .unwrap();
}

fn runner(clock: &ManualClock, oversleep: Duration) -> Runner<ManualSleep> {
    Runner::with_sleeper(ManualSleep::new(clock.clone(), oversleep))
}

#[test]
fn a_runner_that_wakes_on_time_runs_every_step_zero_late_one_pump_each() {
    let clock = ManualClock::new();
    let mut server = server_loop(&clock, Timestep::HZ_60);
    let mut runner = runner(&clock, Duration::ZERO);
    stop_at(&mut server, runner.stop_handle(), Duration::from_secs(10));
    let mut state = Server::default();
    let report = runner.run(&mut server, &mut state);

    // Centred pacing banks half a step at the start: the 600th step fell
    // due at 9.991667 s, the 601st at 10.008333 s.
    assert_eq!(state.steps, 600);
    assert_eq!(report.steps, 600);
    assert_eq!(report.pumps, 601); // one per step, and the timer's
    assert_eq!(report.lateness.steps, 600);
    assert_eq!(report.lateness.p50, Nanos::ZERO);
    assert_eq!(report.lateness.p99, Nanos::ZERO);
    assert_eq!(report.lateness.max, Nanos::ZERO);
    assert_eq!(report.wall, Duration::from_secs(10));
    assert!(report.stopped_by_handle);
}

#[test]
fn each_step_is_as_late_as_the_wake_up_that_ran_it() {
    let clock = ManualClock::new();
    let mut server = server_loop(&clock, Timestep::HZ_30);
    let mut runner = runner(&clock, Duration::from_micros(150));
    stop_at(&mut server, runner.stop_handle(), Duration::from_secs(60));
    let mut state = Server::default();
    let report = runner.run(&mut server, &mut state);
    assert_eq!(report.lateness.steps, 1_800);
    assert_eq!(report.lateness.p50, Nanos::from_micros(150));
    assert_eq!(report.lateness.p99, Nanos::from_micros(150));
    assert_eq!(report.lateness.max, Nanos::from_micros(150));
}

#[test]
fn late_wake_ups_never_make_the_loop_drift() {
    let clock = ManualClock::new();
    let mut server = server_loop(&clock, Timestep::HZ_60);
    // Every wake-up 3 ms late: a sleep-per-step loop would lose 1.8 s a
    // minute; the planner banks the lateness and loses nothing.
    let mut runner = runner(&clock, Duration::from_millis(3));
    stop_at(&mut server, runner.stop_handle(), Duration::from_secs(60));
    let mut state = Server::default();
    let report = runner.run(&mut server, &mut state);
    assert_eq!(state.steps, 3_600);
    assert_eq!(report.lateness.max, Nanos::from_millis(3));
    assert_eq!(report.dropped_steps, 0);
}

#[test]
fn a_wake_up_later_than_a_step_runs_both_steps_each_measured_against_its_own_due_time() {
    let clock = ManualClock::new();
    let mut server = server_loop(&clock, Timestep::from_hz(50).unwrap());
    // 30 ms late at 20 ms a step: each wake-up runs two steps, 30 ms and
    // 10 ms late.
    let mut runner = runner(&clock, Duration::from_millis(30));
    stop_at(&mut server, runner.stop_handle(), Duration::from_secs(2));
    let mut state = Server::default();
    let report = runner.run(&mut server, &mut state);
    assert_eq!(report.lateness.steps, report.steps);
    assert_eq!(report.lateness.max, Nanos::from_millis(30));
    assert_eq!(report.lateness.p50, Nanos::from_millis(10));
    assert_eq!(report.dropped_steps, 0);
}

#[test]
fn a_stop_from_a_callback_ends_the_run_and_the_next_run_carries_on_the_tick() {
    let clock = ManualClock::new();
    let mut server = server_loop(&clock, Timestep::HZ_30);
    server.on_update(|_, step| {
        if step.tick() == 29 {
            step.control().stop();
        }
    });
    let mut runner = runner(&clock, Duration::ZERO);
    let mut state = Server::default();
    let first = runner.run(&mut server, &mut state);
    assert_eq!(state.steps, 30);
    assert!(!first.stopped_by_handle);
    assert!(!server.is_running());

    stop_at(&mut server, runner.stop_handle(), Duration::from_secs(1));
    let second = runner.run(&mut server, &mut state);
    assert!(second.stopped_by_handle);
    assert!(!server.is_running());
    // The tick carried on from 30; a second of steps from the restart.
    assert_eq!(server.tick(), 60);
    assert_eq!(second.steps, 30);
}

#[test]
fn a_stop_asked_for_between_runs_ends_the_next_run_at_once_and_only_that_one() {
    let clock = ManualClock::new();
    let mut server = server_loop(&clock, Timestep::HZ_30);
    let mut runner = runner(&clock, Duration::ZERO);
    runner.stop_handle().stop();
    let mut state = Server::default();
    let report = runner.run(&mut server, &mut state);
    assert!(report.stopped_by_handle);
    assert_eq!(report.pumps, 0);
    assert!(!runner.stop_handle().is_stopped());

    stop_at(&mut server, runner.stop_handle(), Duration::from_secs(2));
    let report = runner.run(&mut server, &mut state);
    assert_eq!(report.steps, 60);
}

#[test]
fn a_paused_server_keeps_its_real_timers_and_runs_no_step() {
    let clock = ManualClock::new();
    let mut server = server_loop(&clock, Timestep::HZ_30);
    server
        .real()
        .every(Duration::from_secs(30), |server: &mut Server, _| {
            server.saves += 1;
        })
        .unwrap();
    server.pause();
    let mut runner = runner(&clock, Duration::ZERO);
    stop_at(&mut server, runner.stop_handle(), Duration::from_secs(95));
    let mut state = Server::default();
    let report = runner.run(&mut server, &mut state);
    assert_eq!(state.saves, 3);
    assert_eq!(state.steps, 0);
    assert_eq!(report.lateness.steps, 0);
    // Nothing is due between the timers: one pump for the pause request,
    // and one per timer.
    assert_eq!(report.pumps, 5);
}

/// Moves the clock to each deadline, noting it, and stops the runner at
/// the fourth.
struct CountingSleep {
    clock: ManualClock,
    deadlines: Vec<Timestamp>,
}

impl Sleep for CountingSleep {
    fn sleep_until(&mut self, _: &dyn Clock, deadline: Timestamp, stop: &StopHandle) {
        self.clock.set(deadline);
        self.deadlines.push(deadline);
        if self.deadlines.len() == 4 {
            stop.stop();
        }
    }
}

#[test]
fn a_runner_with_nothing_due_looks_again_after_its_idle_wake() {
    let clock = ManualClock::new();
    let mut server = server_loop(&clock, Timestep::HZ_30);
    server.pause();
    let mut runner = Runner::with_sleeper(CountingSleep {
        clock: clock.clone(),
        deadlines: Vec::new(),
    });
    runner.set_idle_wake(Duration::from_millis(250));
    let mut state = Server::default();
    let report = runner.run(&mut server, &mut state);
    assert!(report.stopped_by_handle);
    assert_eq!(state.steps, 0);
    // The pause request is due at once; then nothing is, and the runner
    // looks again every 250 ms.
    assert_eq!(report.pumps, 3);
    assert_eq!(report.wall, Duration::from_millis(750));
}

#[test]
fn a_stop_from_another_thread_ends_a_run_on_a_spawned_runner() {
    let clock = ManualClock::new();
    let sleeper = ManualSleep::new(clock.clone(), Duration::ZERO);
    let thread = Runner::with_sleeper(sleeper)
        .spawn(move |runner| {
            let mut server = server_loop(&clock, Timestep::HZ_30);
            let mut state = Server::default();
            let report = runner.run(&mut server, &mut state);
            (state.steps, report, server.is_running())
        })
        .unwrap();
    thread.stop();
    let (steps, report, running) = thread.join().unwrap();
    assert!(report.stopped_by_handle);
    assert_eq!(steps, report.steps);
    assert!(!running);
}

#[test]
fn dropped_steps_past_what_a_u64_counts_saturate_as_the_statistics_do() {
    // A 1 GHz step at the fastest speed, and a sleeper that oversleeps two
    // days: each wake-up drops about 1.1 · 10¹⁹ steps, and two of them
    // drop more than a `u64` counts.
    let clock = ManualClock::new();
    let mut server = Loop::<Server>::builder()
        .clock(clock.clone())
        .timestep(Timestep::from_hz(1_000_000_000).unwrap())
        .speed(evenstep::Speed::MAX)
        .build()
        .unwrap();
    server.on_update(|server, _| server.steps += 1);
    let two_days = Duration::from_secs(2 * 86_400);
    let mut runner = runner(&clock, two_days);
    stop_at(&mut server, runner.stop_handle(), 3 * two_days / 2);
    let mut state = Server::default();
    let report = runner.run(&mut server, &mut state);
    assert_eq!(report.pumps, 2);
    assert_eq!(report.dropped_steps, u64::MAX);
    assert_eq!(server.stats().dropped_steps(), u64::MAX);
    // The budget, five steps scaled by the speed, on each of the two pumps.
    assert_eq!(report.steps, 2 * 5 * 65_535);
    assert_eq!(state.steps, report.steps);
    assert_eq!(report.lateness.steps, report.steps);
}

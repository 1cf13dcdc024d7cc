//! The cost curve of hosting many rooms, on the real clock: 1 to 10,000
//! rooms at 30 Hz and at 60 Hz, each room's starts spread uniformly over a
//! step and each step doing about a microsecond of hashing, run four ways
//! side by side in one process:
//!
//! - `host`: one `evenstep::host::Host` worker thread, sleeping with
//!   `PreciseSleep`'s default margin;
//! - `host, 1 ms slack`: the same, waking a millisecond after its earliest
//!   room's deadline (`HostBuilder::wake_slack`), so that the rooms due
//!   within it share the wake-up;
//! - `host on tokio`: the same host's worker on a current-thread tokio
//!   runtime, woken by tokio's timers (`Host::spawn_tokio`);
//! - `thread per room`: a thread and a `Runner` per room, up to 1,000 rooms;
//! - `tokio interval`: a `tokio::time::interval` task per room on one
//!   current-thread runtime, pumping the room's loop on each tick: what a
//!   server developer writes today.
//!
//! For each: CPU per room-step (the process's CPU over the measured window
//! divided by the steps in it), the host's scheduling overhead per
//! room-step (its CPU less the time in the rooms' pumps), the CPU share of
//! one core, how late steps ran (p50, p99, max: when a step's update ran
//! against when it fell due, measured the same way in every variant) and
//! the rooms that drifted (at some step in the window, more than one step
//! behind their rate times their age). A reference line times one `Loop::pump` doing the same
//! work in a tight loop.
//!
//! `cargo run --release --bin host_bench` from `bench/experiments` (every
//! size at both rates, 10 s a run, about 12 minutes); `-- --quick` for a
//! CI-size look (up to 1,000 rooms at 30 Hz, 2 s a run). `--rooms 1,100
//! --hz 30 --seconds 5 --loops host,intervals` chooses (the loops among
//! `host`, `host-slack`, `tokio-host`, `threads` and `intervals`);
//! `--workers 2` spreads the host variants over two worker threads. The results are in
//! `bench/README.md`, "Many rooms on one host".

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use evenstep::host::{Host, Room};
use evenstep::runner::process_cpu_time;
use evenstep::{Clock, Loop, MonotonicClock, Nanos, Pacing, PumpKind, Runner, Timestamp, Timestep};

/// More threads than this and a thread per room is left out: a thousand
/// threads already cost more to schedule than the rooms do, and ten
/// thousand would be 10,000 stacks and wake-ups for the OS to juggle.
const MAX_THREADS: usize = 1_000;

/// What the rooms of one variant share: whether the window is open, the
/// steps in it, their lateness, and the rooms that drifted.
#[derive(Default)]
struct Probe {
    measuring: AtomicBool,
    steps: AtomicU64,
    late: Mutex<Vec<u64>>,
    drifted: AtomicU64,
    rooms: AtomicU64,
}

thread_local! {
    /// The lateness of the steps run on this thread, in the order they ran.
    /// One record a thread, not one a room: every room's step appends where
    /// the last one did, in cache, as the tight-loop pump's does; a record a
    /// room would add a cache miss a step at thousands of rooms, a cost of
    /// the measuring, not of the host.
    static LATE: std::cell::RefCell<Vec<u64>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// One room's world: a hash to keep busy, and what it measures of itself.
struct RoomState {
    probe: Arc<Probe>,
    clock: MonotonicClock,
    /// When the room's first step counts from.
    start: Timestamp,
    hz: u64,
    rounds: u32,
    hash: u64,
    steps: u64,
    /// Whether a step in the window ran more than one step behind the
    /// room's rate times its age.
    drifted: bool,
}

impl RoomState {
    fn new(probe: &Arc<Probe>, clock: MonotonicClock, hz: u32, rounds: u32) -> RoomState {
        RoomState {
            probe: Arc::clone(probe),
            clock,
            start: clock.now(),
            hz: u64::from(hz),
            rounds,
            hash: 0xcbf2_9ce4_8422_2325,
            steps: 0,
            drifted: false,
        }
    }

    /// One step: the work, and how late it ran against its due time.
    fn step(&mut self) {
        self.hash = hash(self.hash, std::hint::black_box(self.rounds));
        self.steps += 1;
        if self.probe.measuring.load(Ordering::Relaxed) {
            let due = self.start.saturating_add(self.age_of(self.steps));
            let now = self.clock.now();
            LATE.with_borrow_mut(|late| late.push(now.saturating_since(due).as_nanos()));
            // More than one step behind: the step after next was already due.
            self.drifted |= now >= self.start.saturating_add(self.age_of(self.steps + 2));
            self.probe.steps.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// When `steps` steps have fallen due, from the start.
    fn age_of(&self, steps: u64) -> Nanos {
        Nanos::from_nanos((u128::from(steps) * 1_000_000_000).div_ceil(u128::from(self.hz)) as u64)
    }
}

impl Drop for RoomState {
    /// Hands the room's figures to the probe when the room ends.
    fn drop(&mut self) {
        // Judged at the steps, not here: a host ends its rooms one after
        // another, and the last ones end well after their last step.
        if self.drifted {
            self.probe.drifted.fetch_add(1, Ordering::Relaxed);
        }
        self.probe.rooms.fetch_add(1, Ordering::Relaxed);
        // The thread's record so far: its last room to end hands the rest.
        LATE.with_borrow_mut(|late| self.probe.late.lock().unwrap().append(late));
        std::hint::black_box(self.hash);
    }
}

/// `rounds` rounds of FNV-1a over the hash's own bytes.
fn hash(mut h: u64, rounds: u32) -> u64 {
    for _ in 0..rounds {
        for byte in h.to_le_bytes() {
            h = (h ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// The rounds of `hash` that take about a microsecond here: the fastest of
/// five trials, so that a trial slowed by the machine does not shrink every
/// step's work for the whole run.
fn calibrate(clock: MonotonicClock) -> u32 {
    let trial = 100_000;
    let per_round = (0..5)
        .map(|_| {
            let start = clock.now();
            std::hint::black_box(hash(std::hint::black_box(1), std::hint::black_box(trial)));
            clock.now().saturating_since(start).as_nanos() as f64 / f64::from(trial)
        })
        .fold(f64::INFINITY, f64::min);
    #[allow(clippy::cast_sign_loss, reason = "at least 1")]
    let rounds = (1_000.0 / per_round).round().max(1.0) as u32;
    rounds
}

/// A room's loop: its rate, pacing off (step n falls due n steps after
/// the start, as every variant counts it), its update the work.
fn room_loop(clock: MonotonicClock, hz: u32) -> Loop<RoomState> {
    let mut game = Loop::<RoomState>::builder()
        .clock(clock)
        .timestep(Timestep::from_hz(hz).expect("a valid rate"))
        .pacing(Pacing::OFF)
        .build()
        .expect("a valid loop");
    game.on_update(|state, _| state.step());
    game
}

/// What one variant did in one run.
struct Sample {
    steps: u64,
    cpu: Duration,
    wall: Duration,
    /// The host's CPU outside its rooms' pumps, for the host variants.
    overhead: Option<Duration>,
    p50: u64,
    p99: u64,
    max: u64,
    drifted: u64,
    rooms: u64,
}

/// The window every variant is measured over: warm up, then open the
/// probe for `seconds`. `reset` runs as the window opens.
fn window(
    probe: &Probe,
    warm_up: Duration,
    seconds: Duration,
    reset: impl FnOnce(),
) -> (Duration, Duration) {
    std::thread::sleep(warm_up);
    reset();
    let clock = MonotonicClock::new();
    let cpu_start = process_cpu_time().unwrap_or_default();
    probe.measuring.store(true, Ordering::SeqCst);
    std::thread::sleep(seconds);
    probe.measuring.store(false, Ordering::SeqCst);
    let cpu = process_cpu_time()
        .unwrap_or_default()
        .saturating_sub(cpu_start);
    (
        cpu,
        clock.now().saturating_since(Timestamp::ZERO).as_duration(),
    )
}

/// Sleeps until `clock` reads `at`.
fn sleep_until(clock: MonotonicClock, at: Timestamp) {
    let left = at.saturating_since(clock.now());
    if left > Nanos::ZERO {
        std::thread::sleep(left.as_duration());
    }
}

/// When room `i` of `rooms` starts: spread uniformly over one step.
fn start_of(base: Timestamp, i: usize, rooms: usize, hz: u32) -> Timestamp {
    base.saturating_add(Nanos::from_nanos(
        1_000_000_000 * i as u64 / (rooms as u64 * u64::from(hz)),
    ))
}

/// A run's figures, from the probe once every room has ended.
fn sample(probe: &Probe, cpu: Duration, wall: Duration, overhead: Option<Duration>) -> Sample {
    let mut late = std::mem::take(&mut *probe.late.lock().unwrap());
    late.sort_unstable();
    let at = |per_mille: usize| {
        late.get((late.len() * per_mille).div_ceil(1_000).max(1) - 1)
            .copied()
            .unwrap_or(0)
    };
    Sample {
        steps: probe.steps.load(Ordering::SeqCst),
        cpu,
        wall,
        overhead,
        p50: at(500),
        p99: at(990),
        max: late.last().copied().unwrap_or(0),
        drifted: probe.drifted.load(Ordering::SeqCst),
        rooms: probe.rooms.load(Ordering::SeqCst),
    }
}

/// The host, its worker on a thread (`PreciseSleep`) or on tokio, waking
/// `slack` after its earliest room's deadline.
fn run_host(run: &Run, on_tokio: bool, slack: Duration) -> Sample {
    let probe = Arc::new(Probe::default());
    let host = Host::builder()
        .clock(run.clock)
        .workers(run.workers)
        .wake_slack(slack)
        .build()
        .expect("1 to 64 workers");
    let handle = host.handle();
    let threads = if on_tokio {
        host.spawn_tokio()
    } else {
        host.spawn()
    }
    .expect("a worker thread");
    let base = run.clock.now();
    for i in 0..run.rooms {
        sleep_until(run.clock, start_of(base, i, run.rooms, run.hz));
        let (probe, clock, hz, rounds) = (Arc::clone(&probe), run.clock, run.hz, run.rounds);
        handle
            .add(move |_| {
                Ok::<_, String>(Room::new(
                    room_loop(clock, hz),
                    RoomState::new(&probe, clock, hz, rounds),
                ))
            })
            .expect("an open host");
    }
    let (cpu, wall) = window(&probe, run.warm_up, run.seconds, || handle.reset_stats());
    let stats = handle.stats();
    handle.stop();
    threads.join().expect("the host's worker");
    let steps = stats.totals.steps.max(1);
    let overhead = stats
        .overhead()
        .map(|o| o.mul_f64(probe.steps.load(Ordering::SeqCst) as f64 / steps as f64));
    sample(&probe, cpu, wall, overhead)
}

/// A thread and a `Runner` per room.
fn run_threads(run: &Run) -> Sample {
    let probe = Arc::new(Probe::default());
    let base = run.clock.now();
    let threads: Vec<_> = (0..run.rooms)
        .map(|i| {
            let (probe, clock, hz, rounds) = (Arc::clone(&probe), run.clock, run.hz, run.rounds);
            let start = start_of(base, i, run.rooms, run.hz);
            Runner::new()
                .spawn(move |runner| {
                    sleep_until(clock, start);
                    let mut game = room_loop(clock, hz);
                    let mut state = RoomState::new(&probe, clock, hz, rounds);
                    let _ = runner.run(&mut game, &mut state);
                })
                .expect("a thread")
        })
        .collect();
    let (cpu, wall) = window(&probe, run.warm_up, run.seconds, || ());
    for thread in &threads {
        thread.stop();
    }
    for thread in threads {
        thread.join().expect("a room's thread");
    }
    sample(&probe, cpu, wall, None)
}

/// A `tokio::time::interval` task per room on one current-thread runtime.
fn run_intervals(run: &Run) -> Sample {
    let probe = Arc::new(Probe::default());
    let stop = Arc::new(AtomicBool::new(false));
    let (rooms, clock, hz, rounds) = (run.rooms, run.clock, run.hz, run.rounds);
    let (task_probe, task_stop) = (Arc::clone(&probe), Arc::clone(&stop));
    let runtime = std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .expect("a runtime");
        tokio::task::LocalSet::new().block_on(&runtime, async move {
            let period = Duration::from_nanos(1_000_000_000 / u64::from(hz));
            let tokio_base = tokio::time::Instant::now();
            let base = clock.now();
            let tasks: Vec<_> = (0..rooms)
                .map(|i| {
                    let offset = start_of(base, i, rooms, hz)
                        .saturating_since(base)
                        .as_duration();
                    let stop = Arc::clone(&task_stop);
                    let probe = Arc::clone(&task_probe);
                    tokio::task::spawn_local(async move {
                        // The room's loop, pumped on each tick. Centred
                        // pacing (half a step banked) runs one step a tick
                        // however late a tick is, up to half a step; each
                        // step is late by its tick's lateness.
                        let mut game = room_loop(clock, hz);
                        game.set_pacing(Pacing::CENTRED);
                        let mut state = RoomState::new(&probe, clock, hz, rounds);
                        state.start = base.saturating_add(Nanos::from_duration(offset));
                        let mut interval = tokio::time::interval_at(tokio_base + offset, period);
                        interval.tick().await;
                        game.start();
                        while !stop.load(Ordering::Relaxed) {
                            interval.tick().await;
                            let _ = game.pump(&mut state, PumpKind::Tick);
                        }
                    })
                })
                .collect();
            for task in tasks {
                task.await.expect("a room's task");
            }
        });
    });
    let (cpu, wall) = window(&probe, run.warm_up, run.seconds, || ());
    stop.store(true, Ordering::SeqCst);
    runtime.join().expect("the runtime's thread");
    sample(&probe, cpu, wall, None)
}

/// One `Loop::pump` doing a room's step, timed in a tight loop: the pump
/// runs exactly one step each time.
fn tight_pump(clock: MonotonicClock, hz: u32, rounds: u32) -> f64 {
    let probe = Arc::new(Probe::default());
    probe.measuring.store(true, Ordering::SeqCst);
    let mut game = room_loop(clock, hz);
    let mut state = RoomState::new(&probe, clock, hz, rounds);
    game.start();
    let pumps = 200_000_u64;
    let begin = clock.now();
    let mut at = begin;
    for n in 1..=pumps {
        at = begin.saturating_add(state.age_of(n));
        let _ = game.pump_at(&mut state, PumpKind::Tick, at);
    }
    let _ = at;
    assert_eq!(state.steps, pumps, "one step a pump");
    clock.now().saturating_since(begin).as_nanos() as f64 / pumps as f64
}

/// One size at one rate.
struct Run {
    clock: MonotonicClock,
    rooms: usize,
    hz: u32,
    rounds: u32,
    warm_up: Duration,
    seconds: Duration,
    /// The host variants' worker threads.
    workers: usize,
}

fn main() -> Result<(), String> {
    let args = args()?;
    let clock = MonotonicClock::new();
    let rounds = calibrate(clock);
    println!(
        "{} s a run after {:.1} s of warm-up; {rounds} rounds of hashing a step (about 1 µs); \
         lateness in ms; CPU per room-step and overhead in ns; CPU in % of one core; \
         the host on {} worker thread(s)",
        args.seconds.as_secs_f64(),
        args.warm_up.as_secs_f64(),
        args.workers
    );
    for &hz in &args.hz {
        println!();
        println!(
            "{hz} Hz: one `Loop::pump` of a step in a tight loop: {:.0} ns",
            tight_pump(clock, hz, rounds)
        );
        println!();
        println!(
            "| rooms | loop | CPU/room-step | overhead/room-step | CPU % | p50 | p99 | max | drifted rooms |"
        );
        println!("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for &rooms in &args.rooms {
            let run = Run {
                clock,
                rooms,
                hz,
                rounds,
                warm_up: args.warm_up,
                seconds: args.seconds,
                workers: args.workers,
            };
            let runs: [(&str, &str, &Variant); 5] = [
                ("host", "host", &|run| {
                    Some(run_host(run, false, Duration::ZERO))
                }),
                ("host-slack", "host, 1 ms slack", &|run| {
                    Some(run_host(run, false, Duration::from_millis(1)))
                }),
                ("tokio-host", "host on tokio", &|run| {
                    Some(run_host(run, true, Duration::ZERO))
                }),
                ("threads", "thread per room", &|run| {
                    (run.rooms <= MAX_THREADS).then(|| run_threads(run))
                }),
                ("intervals", "tokio interval", &|run| {
                    Some(run_intervals(run))
                }),
            ];
            for (flag, name, variant) in runs {
                if !args.loops.iter().any(|l| l == flag) {
                    continue;
                }
                if let Some(s) = variant(&run) {
                    print_row(rooms, name, &s);
                }
            }
        }
    }
    Ok(())
}

fn print_row(rooms: usize, name: &str, s: &Sample) {
    let per_step = |d: Duration| d.as_nanos() as f64 / s.steps.max(1) as f64;
    let overhead = s
        .overhead
        .map_or_else(|| "–".to_owned(), |o| format!("{:.0}", per_step(o)));
    let ms = |ns: u64| ns as f64 / 1e6;
    println!(
        "| {rooms} | {name} | {:.0} | {overhead} | {:.1} | {:.3} | {:.3} | {:.3} | {} of {} |",
        per_step(s.cpu),
        100.0 * s.cpu.as_secs_f64() / s.wall.as_secs_f64().max(1e-9),
        ms(s.p50),
        ms(s.p99),
        ms(s.max),
        s.drifted,
        s.rooms
    );
}

/// One variant: a run's sample, or `None` where it is not run.
type Variant = dyn Fn(&Run) -> Option<Sample>;

/// What to run.
struct Args {
    rooms: Vec<usize>,
    hz: Vec<u32>,
    seconds: Duration,
    warm_up: Duration,
    /// The variants to run, by their flag names.
    loops: Vec<String>,
    /// The host variants' worker threads.
    workers: usize,
}

/// The variants' names for `--loops`.
const LOOPS: [&str; 5] = ["host", "host-slack", "tokio-host", "threads", "intervals"];

/// `--quick`, or `--rooms A,B,... --hz A,B --seconds S`.
fn args() -> Result<Args, String> {
    let usage = "usage: host_bench [--quick] [--rooms N,N,...] [--hz N,N] [--seconds S] \
                 [--loops NAME,...] [--workers N] (rooms 1 to 100000, rates 1 to 1000 Hz, \
                 seconds 1 to 3600, workers 1 to 64, loops among host, host-slack, tokio-host, threads, intervals)";
    let mut args = Args {
        rooms: vec![1, 10, 100, 1_000, 10_000],
        hz: vec![30, 60],
        seconds: Duration::from_secs(10),
        warm_up: Duration::from_secs(1),
        loops: LOOPS.iter().map(|&l| l.to_owned()).collect(),
        workers: 1,
    };
    let mut given = std::env::args().skip(1);
    while let Some(flag) = given.next() {
        if flag == "--quick" {
            args.rooms = vec![1, 10, 100, 1_000];
            args.hz = vec![30];
            args.seconds = Duration::from_secs(2);
            args.warm_up = Duration::from_millis(500);
            continue;
        }
        let value = given.next().ok_or(usage)?;
        let list = |max: u64| -> Result<Vec<u64>, String> {
            value
                .split(',')
                .map(|v| {
                    v.parse::<u64>()
                        .ok()
                        .filter(|v| (1..=max).contains(v))
                        .ok_or_else(|| usage.to_owned())
                })
                .collect()
        };
        match flag.as_str() {
            "--rooms" => args.rooms = list(100_000)?.into_iter().map(|v| v as usize).collect(),
            "--hz" => args.hz = list(1_000)?.into_iter().map(|v| v as u32).collect(),
            "--loops" => {
                args.loops = value.split(',').map(str::to_owned).collect();
                if !args.loops.iter().all(|l| LOOPS.contains(&l.as_str())) {
                    return Err(usage.into());
                }
            }
            "--workers" => args.workers = *list(64)?.first().ok_or(usage)? as usize,
            "--seconds" => args.seconds = Duration::from_secs(*list(3_600)?.first().ok_or(usage)?),
            _ => return Err(usage.into()),
        }
    }
    Ok(args)
}

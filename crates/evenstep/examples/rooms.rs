//! A match server: one host of many rooms on the real clock, rooms starting
//! and ending at random (each match lasts 5 to 60 s, and a new one starts
//! whenever one ends), each room a small world stepped at the given rate.
//! Every 5 s, and on the way out, it prints the host's statistics: rooms,
//! steps, dropped time, lateness p50/p99/max and CPU. Ctrl-C or SIGTERM
//! drains it (no new rooms; the running ones end, then it exits); a second
//! one stops it at once.
//!
//! `cargo run --release -p evenstep --example rooms -- --rooms 1000 --hz 30`
//! (`--workers N` for more threads, `--seconds S` to stop by itself).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use evenstep::host::{Host, HostHandle, HostStats, Room, RoomSetup};
use evenstep::{Loop, Timestep};

/// A few bodies in a box, and how many steps the match lasts.
struct Match {
    bodies: [([f64; 2], [f64; 2]); 16],
    steps_left: u64,
}

impl Match {
    /// The bodies drift across a box whose sides wrap around.
    fn step(&mut self, dt: f64) {
        for (position, velocity) in &mut self.bodies {
            *position = [
                (position[0] + velocity[0] * dt).rem_euclid(100.0),
                (position[1] + velocity[1] * dt).rem_euclid(100.0),
            ];
        }
    }
}

/// A xorshift step: matches' lengths need no better randomness.
fn next_random(seed: &AtomicU64) -> u64 {
    let mut x = seed.load(Ordering::Relaxed);
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    seed.store(x, Ordering::Relaxed);
    x
}

/// Adds a match of random length; when it ends, it starts another, so the
/// room count holds while rooms come and go.
fn add_match(rooms: &HostHandle, hz: u32, seed: Arc<AtomicU64>) {
    // A refusal means the host drains: no new match, as asked.
    let _ = rooms.add(move |setup: RoomSetup| {
        let seconds = 5 + next_random(&seed) % 56;
        let mut game = Loop::<Match>::builder()
            .clock(setup.clock())
            .timestep(Timestep::from_hz(hz)?)
            .build()?;
        let (handle, again) = (setup.handle(), Arc::clone(&seed));
        game.on_update(move |world, step| {
            world.step(step.dt_secs_f64());
            world.steps_left -= 1;
            if world.steps_left == 0 {
                step.control().stop(); // the match is over: the room ends
                add_match(&handle, hz, Arc::clone(&again));
            }
        });
        let mut bodies = [([0.0; 2], [0.0; 2]); 16];
        for (i, body) in bodies.iter_mut().enumerate() {
            let i = i as f64;
            *body = ([i * 6.0, 50.0], [1.0 + i / 8.0, 0.5 - i / 32.0]);
        }
        let steps_left = seconds * u64::from(hz);
        Ok::<_, Box<dyn std::error::Error>>(Room::new(game, Match { bodies, steps_left }))
    });
}

fn print(stats: &HostStats) {
    let late = stats.totals.lateness;
    let ms = |n: evenstep::Nanos| n.as_secs_f64() * 1e3;
    println!(
        "{} rooms ({} started, {} ended, {} panicked); {} steps, {:.3} s dropped; \
         lateness p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms; CPU {}",
        stats.rooms,
        stats.started,
        stats.ended,
        stats.panicked,
        stats.totals.steps,
        stats.totals.dropped.as_secs_f64(),
        ms(late.p50),
        ms(late.p99),
        ms(late.max),
        stats.cpu_share().map_or_else(
            || "not readable".into(),
            |s| format!("{:.1}% of a core", s * 100.0)
        ),
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse()?;
    let host = Host::new(args.workers)?;
    let rooms = host.handle();
    // Ctrl-C and SIGTERM (the `termination` feature): drain, as an
    // orchestrator asks of a server it retires.
    // A second signal stops at once.
    let on_signal = rooms.clone();
    ctrlc::set_handler(move || {
        if on_signal.is_open() {
            eprintln!("draining: no new rooms; the running ones end (Ctrl-C again stops now)");
            on_signal.drain();
        } else {
            on_signal.stop();
        }
    })?;
    let seed = Arc::new(AtomicU64::new(0x9e37_79b9_7f4a_7c15));
    // Starts spread over one step, as a server's rooms come in.
    let spread = Duration::from_secs(1) / args.hz / u32::try_from(args.rooms)?.max(1);
    for _ in 0..args.rooms {
        add_match(&rooms, args.hz, Arc::clone(&seed));
        std::thread::sleep(spread);
    }
    println!(
        "hosting {} rooms at {} Hz on {} worker(s); Ctrl-C or SIGTERM stops",
        args.rooms, args.hz, args.workers
    );
    let threads = host.spawn()?;
    let mut waited = Duration::ZERO;
    while rooms.is_open() {
        std::thread::sleep(Duration::from_millis(100));
        waited += Duration::from_millis(100);
        if waited.as_millis() % 5_000 == 0 {
            print(&rooms.stats());
        }
        if args.seconds.is_some_and(|s| waited >= s) {
            rooms.stop();
        }
    }
    let stats = threads.join().map_err(|_| "a worker panicked")?;
    println!("stopped:");
    print(&stats);
    Ok(())
}

/// `--rooms N --hz N --workers N --seconds S`.
struct Args {
    rooms: usize,
    hz: u32,
    workers: usize,
    seconds: Option<Duration>,
}

impl Args {
    fn parse() -> Result<Args, String> {
        let usage = "usage: rooms [--rooms N (1 to 100000)] [--hz N (1 to 1000)] \
                     [--workers N (1 to 256)] [--seconds S (a positive number)]";
        let mut args = Args {
            rooms: 1_000,
            hz: 30,
            workers: 1,
            seconds: None,
        };
        let mut given = std::env::args().skip(1);
        while let Some(flag) = given.next() {
            let value: f64 = given.next().and_then(|v| v.parse().ok()).ok_or(usage)?;
            #[allow(
                clippy::cast_sign_loss,
                reason = "checked: a whole number from 1 to max"
            )]
            let whole = |max: f64| {
                (value.fract() == 0.0 && (1.0..=max).contains(&value))
                    .then_some(value as usize)
                    .ok_or(usage)
            };
            match flag.as_str() {
                "--rooms" => args.rooms = whole(100_000.0)?,
                "--hz" => args.hz = whole(1_000.0)? as u32,
                "--workers" => args.workers = whole(256.0)?,
                "--seconds" if value > 0.0 && value < 1e9 => {
                    args.seconds = Some(Duration::from_secs_f64(value));
                }
                _ => return Err(usage.into()),
            }
        }
        Ok(args)
    }
}

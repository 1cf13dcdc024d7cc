//! A soak test: ten million pumps of a loop that does everything at once,
//! on a hand-driven clock, reporting the process's resident memory before
//! and after. Memory must stay flat: it fails if resident memory grows by a
//! megabyte or more.
//!
//! Every pump exercises something: timers armed, cancelled and re-armed from
//! inside callbacks and from outside, repeating timers cancelling themselves,
//! coalesced jobs, tweens displacing each other in a slot, pacing changes,
//! pause and resume, speed changes, explicit catch-up, queued steps, and
//! stop and start cycles. The clock runs at an uneven 60 Hz with a stall now
//! and then, so the step budget drops time too.
//!
//! Run it from `bench/experiments` with `cargo run --release --bin soak`
//! (about a minute), or give the number of pumps:
//! `cargo run --release --bin soak -- 1000000`. Linux only: resident memory
//! is read from `/proc/self/status`.

use std::process::ExitCode;
use std::time::Duration;

use evenstep::{
    Ease, JobHandle, Loop, ManualClock, Pacing, PumpKind, Speed, TimerHandle, Timestep, Tween,
    Tweens,
};

/// The pumps of a full run.
const PUMPS: u64 = 10_000_000;
/// Pumps before the first reading: every buffer reaches its working size.
const WARM_UP: u64 = 200_000;
/// The most resident memory may grow between the readings.
const LIMIT_KIB: u64 = 1_024;

/// What the tweens move.
#[derive(Default)]
struct Panel {
    x: f32,
    arrivals: u64,
}

struct Game {
    panel: Panel,
    tweens: Tweens<Panel, f32>,
    /// A day-long one-shot, cancelled and re-armed from a repeating timer
    /// every 10 ms of real time.
    far: Option<TimerHandle>,
    /// A short sim one-shot, cancelled and re-armed from an update.
    near: Option<TimerHandle>,
    fired: u64,
    jobs_run: u64,
    updates: u64,
    rebuild: Option<JobHandle>,
}

/// Resident memory in KiB, from `/proc/self/status`.
fn resident_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|line| line.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

fn main() -> ExitCode {
    let pumps = match std::env::args().nth(1).map(|arg| arg.parse::<u64>()) {
        None => PUMPS,
        Some(Ok(pumps)) if pumps > WARM_UP => pumps,
        Some(_) => {
            eprintln!("the number of pumps must be a whole number above {WARM_UP}");
            return ExitCode::FAILURE;
        }
    };
    let clock = ManualClock::new();
    let Ok(mut game_loop) = Loop::<Game>::builder()
        .clock(clock.clone())
        .timestep(Timestep::HZ_60)
        .build()
    else {
        eprintln!("the loop's configuration is valid");
        return ExitCode::FAILURE;
    };
    let mut game = Game {
        panel: Panel::default(),
        tweens: Tweens::new(Timestep::HZ_60),
        far: None,
        near: None,
        fired: 0,
        jobs_run: 0,
        updates: 0,
        rebuild: None,
    };

    subscribe(&mut game_loop, &mut game);
    game_loop.start();

    let at_start = resident_kib();
    let mut before = None;
    for pump in 0..pumps {
        // An uneven 60 Hz, and a 300 ms stall every 10,000 frames.
        let stall = if pump % 10_000 == 9_999 { 300_000 } else { 0 };
        clock.advance(Duration::from_micros(15_900 + pump * 7_919 % 1_600 + stall));
        let kind = if pump % 5 == 4 {
            PumpKind::Tick
        } else {
            PumpKind::Paint
        };
        let _ = game_loop.pump(&mut game, kind);

        from_outside(&mut game_loop, &mut game, pump);
        if pump + 1 == WARM_UP {
            before = resident_kib();
        }
    }
    let after = resident_kib();
    let stats = game_loop.stats();
    println!(
        "{pumps} pumps: {} updates, {} timer calls, {} jobs, {} arrivals, \
         {} steps dropped, {} real timers and {} sim timers armed",
        game.updates,
        game.fired,
        game.jobs_run,
        game.panel.arrivals,
        stats.dropped_steps(),
        game_loop.real().len(),
        game_loop.sim().len(),
    );
    let (Some(at_start), Some(before), Some(after)) = (at_start, before, after) else {
        eprintln!("resident memory cannot be read: /proc/self/status has no VmRSS line");
        return ExitCode::FAILURE;
    };
    let growth = after.saturating_sub(before);
    println!(
        "resident memory: {at_start} KiB at the start, {before} KiB after {WARM_UP} pumps, \
         {after} KiB at the end: {growth} KiB more (limit {LIMIT_KIB} KiB)"
    );
    if growth >= LIMIT_KIB {
        eprintln!("resident memory grew by {growth} KiB: something is kept that should not be");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}

/// The timers, job and subscribers that act from inside the loop.
fn subscribe(game_loop: &mut Loop<Game>, game: &mut Game) {
    let rebuild = game_loop.coalesce(|game: &mut Game| game.jobs_run += 1);
    game.rebuild = Some(rebuild.clone());
    // Cancel and re-arm a day-long one-shot from inside a repeating timer.
    let _ = game_loop.real().every(ms(10), |game: &mut Game, fire| {
        if let Some(handle) = game.far.take() {
            fire.cancel(handle);
        }
        game.far = fire
            .after(Duration::from_secs(86_400), |game: &mut Game, _| {
                game.fired += 1;
            })
            .ok();
        if let Some(job) = &game.rebuild {
            job.request();
        }
    });
    game_loop.on_update(|game, step| {
        game.updates += 1;
        game.tweens.step(&mut game.panel);
        if step.tick() % 30 == 0 {
            // Retarget the panel: the new tween displaces the old one.
            let to = if step.tick() % 60 == 0 { 100.0 } else { -100.0 };
            game.tweens.start(
                Tween::new(game.panel.x, to, ms(400), |panel: &mut Panel, x| {
                    panel.x = x;
                })
                .ease(Ease::CubicOut)
                .slot("panel")
                .on_complete(|panel: &mut Panel| panel.arrivals += 1),
            );
        }
        if step.tick() % 7 == 0 {
            game.near = None; // re-armed from outside, between pumps
        }
    });
    game_loop.on_render(|game, render| {
        let _ = (game.panel.x, render.alpha_f32());
    });
}

/// What the game does between pumps: timers armed from outside, and a
/// control call every so often.
fn from_outside(game_loop: &mut Loop<Game>, game: &mut Game, pump: u64) {
    // From outside: re-arm the near sim timer, and a repeating sim
    // timer that cancels itself on its third call.
    if game.near.is_none() {
        game.near = game_loop
            .sim()
            .after(ms(50), |game: &mut Game, _| game.fired += 1)
            .ok();
    }
    if pump % 1_000 == 0 {
        let mut calls = 0;
        let _ = game_loop.sim().every(ms(20), move |game: &mut Game, fire| {
            game.fired += 1;
            calls += 1;
            if calls == 3 {
                fire.cancel_self();
            }
        });
    }
    match pump % 100_000 {
        10_000 => game_loop.set_pacing(Pacing::CENTRED),
        20_000 => {
            game_loop.set_pacing(Pacing::snapped(ms(2)).unwrap_or(Pacing::CENTRED));
        }
        30_000 => game_loop.set_pacing(Pacing::OFF),
        40_000 => game_loop.pause(),
        41_000 => game_loop.resume(),
        50_000 => game_loop.set_speed(Speed::HALF),
        60_000 => game_loop.set_speed(Speed::DOUBLE),
        61_000 => game_loop.set_speed(Speed::NORMAL),
        70_000 => {
            let _ = game_loop.catch_up(game, Duration::from_secs(5));
        }
        80_000 => game_loop.queue_steps(3),
        90_000 => game_loop.stop(),
        90_001 => game_loop.start(),
        _ => {}
    }
}

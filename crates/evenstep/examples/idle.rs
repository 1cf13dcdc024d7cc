//! An idle economy done right, next to one done wrong.
//!
//! Gold accrues at 10 a second. The wrong way sums `rate · dt` in each update:
//! the loop runs a clamped number of updates, so every second the budget
//! drops (a hidden window, a stall) is gold the player never gets. The right
//! way stores a calendar timestamp in the game state and integrates from it
//! on read, which is exact however long the player was away. Sim-side rules
//! that need whole steps (a crafting queue) catch up with an explicit,
//! unbudgeted `catch_up` on load.
//!
//! Run it with `cargo run --example idle`.

use std::time::Duration;

use evenstep::{Clock, Loop, ManualClock, Nanos, PumpKind, Timestep};

const GOLD_PER_SEC: u64 = 10;

#[derive(Default)]
struct Idle {
    /// Wrong: summed from `dt`, so it loses every dropped step.
    gold_from_dt: f64,
    /// Right: integrated from the stored calendar stamp.
    gold: u64,
    /// Calendar time the gold was last integrated to (lives in the save).
    integrated_to: Nanos,
    /// A sim-side rule that must run step by step: one widget every 2 s.
    crafting_progress: u64,
    widgets: u64,
}

/// Brings the gold up to `calendar_now`: a closed form, integrated once.
fn integrate(idle: &mut Idle, calendar_now: Nanos) {
    let away = calendar_now - idle.integrated_to;
    // Whole coins; the fraction stays in `integrated_to` for the next read.
    let coins = away.as_nanos() / (1_000_000_000 / GOLD_PER_SEC);
    idle.gold += coins;
    idle.integrated_to += Nanos::from_nanos(coins * (1_000_000_000 / GOLD_PER_SEC));
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let frames = ManualClock::new(); // the monotonic clock the loop runs on
    let calendar = ManualClock::new(); // the game's one calendar reading (epoch time)
    let timestep = Timestep::HZ_20;
    let mut game_loop = Loop::<Idle>::builder()
        .clock(frames.clone())
        .timestep(timestep)
        .build()?;
    let read_calendar = calendar.clone();
    game_loop.on_update(move |idle, step| {
        idle.gold_from_dt += GOLD_PER_SEC as f64 * step.dt_secs_f64(); // the bug
        integrate(
            idle,
            read_calendar
                .now()
                .saturating_since(evenstep::Timestamp::ZERO),
        );
        idle.crafting_progress += 1;
        if idle.crafting_progress == 40 {
            idle.crafting_progress = 0;
            idle.widgets += 1;
        }
    });

    let mut idle = Idle::default();
    let advance = |by: Duration| {
        frames.advance(by);
        calendar.advance(by);
    };
    game_loop.start();

    // A minute in the foreground at 60 fps.
    for _ in 0..3_600 {
        advance(Duration::from_nanos(16_666_667));
        let _ = game_loop.pump(&mut idle, PumpKind::Paint);
    }
    report("after a played minute", &idle);

    // A minute hidden: one tick pump a second, 5 steps (250 ms) each.
    for _ in 0..60 {
        advance(Duration::from_secs(1));
        let _ = game_loop.pump(&mut idle, PumpKind::Tick);
    }
    report("after a hidden minute", &idle);

    // The game is closed for an hour. On load, a headless catch-up runs the
    // crafting queue step by step (no budget), then play resumes.
    calendar.advance(Duration::from_secs(3_600));
    let offline = game_loop
        .catch_up(&mut idle, Duration::from_secs(3_600))
        .expect("started");
    game_loop.stop();
    game_loop.start(); // re-anchor the frame clock: the hour is not a frame
    advance(Duration::from_nanos(16_666_667));
    let _ = game_loop.pump(&mut idle, PumpKind::Paint);
    println!("offline hour caught up in {} steps", offline.steps);
    report("after an offline hour", &idle);
    println!(
        "expected gold {} (10 a second for {:.0} s of calendar time)",
        GOLD_PER_SEC * calendar.now().as_nanos() / 1_000_000_000,
        calendar.now().as_nanos() as f64 / 1e9
    );
    Ok(())
}

fn report(when: &str, idle: &Idle) {
    println!(
        "{when:<24} gold {:>6} | summed from dt {:>8.1} | widgets {}",
        idle.gold, idle.gold_from_dt, idle.widgets
    );
}

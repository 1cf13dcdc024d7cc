//! Plans one simulated minute of a 60 Hz game on a slightly jittery 60 Hz
//! display, with a 400 ms stall half-way through, twice: once with pacing off
//! (the plain accumulator) and once centred (the default), and prints both
//! tallies side by side.
//!
//! Run it with `cargo run --example planner_minute`.

use evenstep_core::{FrameLoop, FrameStats, Nanos, Pacing, StepBudget, Timestamp, Timestep};

/// What one run saw.
struct Run {
    stats: FrameStats,
    histogram: [u64; 4],
    sim: Nanos,
    banked: Nanos,
    wall: Nanos,
}

fn run(pacing: Pacing) -> Run {
    let start = Timestamp::from_nanos(2_000_000_000); // "after bring-up"
    let mut frames =
        FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start).with_pacing(pacing);
    let mut stats = FrameStats::new();
    let mut histogram = [0_u64; 4];
    // A display at 60 Hz whose timestamps jitter by up to ±0.5 ms, made by a
    // fixed pattern so every run prints the same numbers.
    let jitter = [
        0_i64, 310_000, -270_000, 450_000, -480_000, 120_000, -60_000,
    ];
    let mut now = start;
    let mut stall = Nanos::ZERO;
    for k in 1..=3_600_u64 {
        if k == 1_800 {
            // A hitch (a slow present); the display's clock runs on, so every
            // later frame is 400 ms later too.
            stall = Nanos::from_millis(400);
        }
        let ideal = start.as_nanos() + k * 1_000_000_000 / 60;
        now = Timestamp::from_nanos(ideal.saturating_add_signed(jitter[(k % 7) as usize])) + stall;
        let plan = frames.begin_frame(now);
        let steps = plan.steps().count(); // world.update(step.dt_secs_f64()) for each
        histogram[steps.min(3)] += 1;
        stats.absorb(&plan);
    }
    Run {
        stats,
        histogram,
        sim: frames.simulated(),
        banked: frames.remainder(),
        wall: now.saturating_since(start),
    }
}

fn main() {
    let off = run(Pacing::OFF);
    let centred = run(Pacing::CENTRED);
    println!("a minute of 60 Hz steps on a 60 Hz display with ±0.5 ms jitter and a 400 ms stall");
    println!("{:<22}{:>20}{:>20}", "", "pacing off", "centred (default)");
    let row = |name: &str, a: String, b: String| println!("{name:<22}{a:>20}{b:>20}");
    row(
        "frames",
        off.stats.frames().to_string(),
        centred.stats.frames().to_string(),
    );
    row(
        "steps",
        off.stats.steps().to_string(),
        centred.stats.steps().to_string(),
    );
    for (n, label) in [
        "0-step frames",
        "1-step frames",
        "2-step frames",
        "3+-step frames",
    ]
    .iter()
    .enumerate()
    {
        row(
            label,
            off.histogram[n].to_string(),
            centred.histogram[n].to_string(),
        );
    }
    row(
        "clamped frames",
        off.stats.clamped_frames().to_string(),
        centred.stats.clamped_frames().to_string(),
    );
    row(
        "dropped",
        off.stats.dropped().to_string(),
        centred.stats.dropped().to_string(),
    );
    row(
        "phase shift (units)",
        off.stats.phase_shift_units().to_string(),
        centred.stats.phase_shift_units().to_string(),
    );
    row("wall time", off.wall.to_string(), centred.wall.to_string());
    row("sim time", off.sim.to_string(), centred.sim.to_string());
    row("banked", off.banked.to_string(), centred.banked.to_string());
    row(
        "digest",
        format!("{:#018x}", off.stats.digest()),
        format!("{:#018x}", centred.stats.digest()),
    );
    println!();
    println!("Unpaced, the bank starts empty, right on a step boundary, and the jitter");
    println!("flips frames between 0 and 2 steps. Centred, it starts half a step in and");
    println!("every frame runs one step; the stall drops time either way, and reports it.");
}

//! Plans one simulated minute of a 60 Hz game on a slightly jittery 60 Hz
//! display, with a 400 ms stall half-way through, three times: with pacing
//! off (the plain accumulator), centred, and locked (the default), and
//! prints the tallies side by side.
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
    let runs = [
        ("pacing off", run(Pacing::OFF)),
        ("centred", run(Pacing::CENTRED)),
        ("locked (default)", run(Pacing::LOCKED)),
    ];
    println!("a minute of 60 Hz steps on a 60 Hz display with ±0.5 ms jitter and a 400 ms stall");
    let row = |name: &str, cell: &dyn Fn(&Run) -> String| {
        print!("{name:<22}");
        for (_, run) in &runs {
            print!("{:>20}", cell(run));
        }
        println!();
    };
    print!("{:<22}", "");
    for (name, _) in &runs {
        print!("{name:>20}");
    }
    println!();
    row("frames", &|r| r.stats.frames().to_string());
    row("steps", &|r| r.stats.steps().to_string());
    for (n, label) in [
        "0-step frames",
        "1-step frames",
        "2-step frames",
        "3+-step frames",
    ]
    .iter()
    .enumerate()
    {
        row(label, &|r| r.histogram[n].to_string());
    }
    row("clamped frames", &|r| r.stats.clamped_frames().to_string());
    row("dropped", &|r| r.stats.dropped().to_string());
    row("phase shift (units)", &|r| {
        r.stats.phase_shift_units().to_string()
    });
    row("wall time", &|r| r.wall.to_string());
    row("sim time", &|r| r.sim.to_string());
    row("banked", &|r| r.banked.to_string());
    row("digest", &|r| format!("{:#018x}", r.stats.digest()));
    println!();
    println!("Unpaced, the bank starts empty, right on a step boundary, and the jitter");
    println!("flips frames between 0 and 2 steps. Centred, it starts half a step in and");
    println!("every frame runs one step. Locked plans as pacing off until it has learnt");
    println!("the display's refreshes, then snaps each frame to them: past its first few");
    println!("frames, every frame runs one step. The stall drops time in every mode, and");
    println!("reports it.");
}

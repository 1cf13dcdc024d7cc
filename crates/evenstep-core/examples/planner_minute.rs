//! Plans one simulated minute of a 60 Hz game on a slightly jittery 60 Hz
//! display, with a 400 ms stall half-way through, and prints the tally.
//!
//! Run it with `cargo run --example planner_minute`.

use evenstep_core::{FrameLoop, FrameStats, Nanos, StepBudget, Timestamp, Timestep};

fn main() {
    let start = Timestamp::from_nanos(2_000_000_000); // "after bring-up"
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, start);
    let mut stats = FrameStats::new();
    let mut step_histogram = [0_u64; 6];

    // A display at 60 Hz whose timestamps jitter by up to ±0.5 ms, made by a
    // fixed pattern so every run prints the same numbers.
    let jitter = [
        0_i64, 310_000, -270_000, 450_000, -480_000, 120_000, -60_000,
    ];
    let mut now = start;
    let mut stall = Nanos::ZERO;
    for k in 1..=3_600_u64 {
        if k == 1_800 {
            // A hitch: a slow present, a page fault storm. The display's clock
            // runs on, so every later frame is 400 ms later too.
            stall = Nanos::from_millis(400);
        }
        let ideal = start.as_nanos() + k * 1_000_000_000 / 60;
        now = Timestamp::from_nanos(ideal.saturating_add_signed(jitter[(k % 7) as usize])) + stall;
        let plan = frames.begin_frame(now);
        let mut steps = 0;
        for _step in plan.steps() {
            steps += 1; // world.update(step.dt_secs_f64())
        }
        step_histogram[steps.min(5)] += 1;
        stats.absorb(&plan);
        if plan.clamped() {
            println!(
                "frame {:>4}: stall of {} -> {} steps due, {} run, {} dropped ({})",
                stats.frames(),
                plan.raw_delta(),
                plan.steps_due(),
                plan.steps_run(),
                plan.steps_dropped(),
                plan.dropped(),
            );
        }
    }

    let wall = now.saturating_since(start);
    println!("timestep         {}", frames.timestep());
    println!("wall time        {wall}");
    println!("sim time         {}", frames.simulated());
    println!("frames           {}", stats.frames());
    println!("steps            {}", stats.steps());
    println!(
        "steps per frame  0: {}  1: {}  2: {}  3+: {}",
        step_histogram[0],
        step_histogram[1],
        step_histogram[2],
        step_histogram[3..].iter().sum::<u64>()
    );
    println!("clamped frames   {}", stats.clamped_frames());
    println!(
        "dropped          {} steps, {}",
        stats.dropped_steps(),
        stats.dropped()
    );
    println!("largest frame    {}", stats.largest_frame());
    println!("banked           {}", frames.remainder());
    println!(
        "wall - sim       {} (the dropped time plus the banked remainder)",
        wall - frames.simulated()
    );
    println!("note             the 0- and 2-step frames are timestamp jitter at a step boundary;");
    println!("                 frame pacing, planned next, is what removes them");
    println!("digest           {:#018x}", stats.digest());
}

//! A headless server: a 30 Hz simulation on the real clock with no window,
//! an autosave every 5 s on the real timeline, stopped by Ctrl-C. On the way
//! out it prints how late its steps ran (p50, p99, max) and the CPU it used.
//!
//! Run it with `cargo run -p evenstep --example server` and stop it with
//! Ctrl-C, or give it a time to stop on its own:
//! `cargo run -p evenstep --example server -- --seconds 10`.

use std::time::Duration;

use evenstep::{Loop, Runner, Timestep};

/// A few bodies bouncing in a box: enough rules for the steps to do work.
#[derive(Default)]
struct World {
    bodies: Vec<([f64; 2], [f64; 2])>,
    saves: u32,
}

impl World {
    fn new() -> World {
        let bodies = (0..64)
            .map(|i| {
                let i = f64::from(i);
                ([i, 2.0 * i], [1.0 + i / 16.0, 0.5 - i / 64.0])
            })
            .collect();
        World { bodies, saves: 0 }
    }

    fn step(&mut self, dt: f64) {
        for (position, velocity) in &mut self.bodies {
            for axis in 0..2 {
                position[axis] += velocity[axis] * dt;
                if !(0.0..=100.0).contains(&position[axis]) {
                    velocity[axis] = -velocity[axis];
                    position[axis] = position[axis].clamp(0.0, 100.0);
                }
            }
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let seconds = seconds_from_args()?;
    let mut server = Loop::<World>::builder().timestep(Timestep::HZ_30).build()?;
    server.on_update(|world, step| world.step(step.dt_secs_f64()));
    server
        .real()
        .every(Duration::from_secs(5), |world: &mut World, fire| {
            world.saves += 1;
            println!(
                "autosave {} at {:.1} s of real time",
                world.saves,
                fire.now().as_secs_f64()
            );
        })?;

    let mut runner = Runner::new();
    let stop = runner.stop_handle();
    ctrlc::set_handler(move || stop.stop())?;
    if let Some(seconds) = seconds {
        let stop = runner.stop_handle();
        server
            .real()
            .after(seconds, move |_: &mut World, _| stop.stop())?;
    }

    println!("serving at 30 Hz; Ctrl-C stops");
    let mut world = World::new();
    let report = runner.run(&mut server, &mut world);

    println!(
        "stopped after {:.2} s: {} steps in {} pumps, {} dropped, {} autosaves",
        report.wall.as_secs_f64(),
        report.steps,
        report.pumps,
        report.dropped_steps,
        world.saves
    );
    let late = report.lateness;
    println!(
        "step lateness over {} steps: p50 {:.3} ms, p99 {:.3} ms, max {:.3} ms",
        late.steps,
        late.p50.as_secs_f64() * 1e3,
        late.p99.as_secs_f64() * 1e3,
        late.max.as_secs_f64() * 1e3
    );
    match (report.cpu, report.cpu_share()) {
        (Some(cpu), Some(share)) => println!(
            "CPU: {:.3} s, {:.2}% of one core",
            cpu.as_secs_f64(),
            share * 100.0
        ),
        _ => println!("CPU: not readable on this system"),
    }
    Ok(())
}

/// `--seconds N`: stop after N seconds of real time.
fn seconds_from_args() -> Result<Option<Duration>, String> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next()) {
        (None, _) => Ok(None),
        (Some("--seconds"), Some(n)) => n
            .parse::<f64>()
            .ok()
            .filter(|n| n.is_finite() && *n > 0.0 && *n < 1e9)
            .map(|n| Some(Duration::from_secs_f64(n)))
            .ok_or_else(|| format!("--seconds takes a positive number of seconds, got {n:?}")),
        _ => Err("usage: server [--seconds N] (N a positive number of seconds)".into()),
    }
}

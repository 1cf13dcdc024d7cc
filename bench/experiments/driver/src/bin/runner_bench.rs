//! Measures the headless runner against the two loops a server would
//! otherwise write, side by side in one process, each at 60 Hz on the real
//! clock: the runner (an OS sleep to shortly before each step, then a short
//! wait), a naive `loop { sleep(dt); update }`, and a spin loop that polls
//! the clock until each step is due. For each it reports the drift (steps
//! run against steps due over the run), how late steps ran (p50, p99, max:
//! when the update ran against when it was due) and the CPU used per second
//! of wall time, as the best and the median of several runs.
//!
//! `cargo run --release --bin runner_bench` from `bench/experiments` (five
//! runs of ten seconds each per loop, 2.5 minutes in all);
//! `-- --runs 3 --seconds 2` for a quick look. The results are in
//! `bench/README.md`, "The headless runner".

use std::time::Duration;

use evenstep::{
    Clock, Loop, MonotonicClock, Nanos, Pacing, Runner, Timestamp, Timestep,
    runner::{PreciseSleep, process_cpu_time},
};

const HZ: u64 = 60;

/// Runs one loop for a number of seconds.
type Measure = fn(u64) -> Sample;

/// What one loop did in one run.
#[derive(Clone, Copy, Debug)]
struct Sample {
    /// Steps run less steps due at the end of the run.
    drift: i64,
    p50: Nanos,
    p99: Nanos,
    max: Nanos,
    /// CPU seconds per wall second.
    cpu_share: f64,
}

/// The same work in every loop: a few hundred multiply-adds a step.
#[derive(Default)]
struct World {
    x: [f64; 32],
}

impl World {
    fn step(&mut self, dt: f64) {
        for (i, x) in self.x.iter_mut().enumerate() {
            *x = (*x + dt * i as f64) * 0.999;
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (runs, seconds) = args()?;
    let loops: [(&str, Measure); 3] = [
        ("runner", run_runner),
        ("naive sleep", run_naive),
        ("spin", run_spin),
    ];
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); loops.len()];
    for run in 1..=runs {
        for ((name, measure), samples) in loops.iter().zip(&mut samples) {
            let sample = measure(seconds);
            eprintln!("run {run}/{runs} {name:>12}: {sample:?}");
            samples.push(sample);
        }
    }
    println!(
        "{runs} runs of {seconds} s at {HZ} Hz each; best / median of the runs \
         (drift: steps run less steps due, in each run; lateness in ms; CPU in % of one core)"
    );
    println!();
    println!("| loop | drift (each run) | p50 | p99 | max | CPU |");
    println!("| --- | --- | --- | --- | --- | --- |");
    for ((name, _), samples) in loops.iter().zip(&samples) {
        let drift: Vec<String> = samples.iter().map(|s| s.drift.to_string()).collect();
        let p50 = best_median(samples, |s| ms(s.p50));
        let p99 = best_median(samples, |s| ms(s.p99));
        let max = best_median(samples, |s| ms(s.max));
        let cpu = best_median(samples, |s| s.cpu_share * 100.0);
        println!(
            "| {name} | {} | {:.3} / {:.3} | {:.3} / {:.3} | {:.3} / {:.3} | {:.2} / {:.2} |",
            drift.join(" "),
            p50.0,
            p50.1,
            p99.0,
            p99.1,
            max.0,
            max.1,
            cpu.0,
            cpu.1
        );
    }
    Ok(())
}

/// The runner, stopped by a real timer after `seconds`.
fn run_runner(seconds: u64) -> Sample {
    let mut game_loop = Loop::<World>::builder()
        .timestep(Timestep::from_hz(HZ as u32).expect("a valid rate"))
        // Step n is due n steps after the start, as in the other loops.
        .pacing(Pacing::OFF)
        .build()
        .expect("a valid loop");
    game_loop.on_update(|world, step| world.step(step.dt_secs_f64()));
    let mut runner = Runner::with_sleeper(PreciseSleep::default());
    let stop = runner.stop_handle();
    game_loop
        .real()
        .after(Duration::from_secs(seconds), move |_: &mut World, _| {
            stop.stop();
        })
        .expect("a positive delay");
    let mut world = World::default();
    let report = runner.run(&mut game_loop, &mut world);
    let due = steps_due(Nanos::from_duration(report.wall));
    Sample {
        drift: drift(report.steps, due),
        p50: report.lateness.p50,
        p99: report.lateness.p99,
        max: report.lateness.max,
        cpu_share: report.cpu_share().unwrap_or(f64::NAN),
    }
}

/// `loop { sleep(dt); update }`: each sleep oversleeps, and the error adds up.
fn run_naive(seconds: u64) -> Sample {
    let dt = Duration::from_nanos(1_000_000_000 / HZ);
    timed_loop(seconds, |_, _| std::thread::sleep(dt))
}

/// Polls the clock until each step is due: punctual, and a core at 100%.
fn run_spin(seconds: u64) -> Sample {
    timed_loop(seconds, |clock, due| {
        while clock.now() < due {
            std::hint::spin_loop();
        }
    })
}

/// Runs `wait(clock, due)` then a step, until `seconds` have passed; step
/// `n` is due `n` steps after the start.
fn timed_loop(seconds: u64, mut wait: impl FnMut(&MonotonicClock, Timestamp)) -> Sample {
    let clock = MonotonicClock::new();
    let mut world = World::default();
    let mut late = Vec::new();
    let cpu_start = process_cpu_time();
    let start = clock.now();
    let end = start.saturating_add(Nanos::from_secs(seconds));
    let mut steps: u64 = 0;
    loop {
        let due = start.saturating_add(step_time(steps + 1));
        if due > end {
            break;
        }
        wait(&clock, due);
        let now = clock.now();
        late.push(now.saturating_since(due));
        world.step(1.0 / HZ as f64);
        steps += 1;
    }
    let wall = clock.now().saturating_since(start);
    let cpu = cpu_start
        .zip(process_cpu_time())
        .map_or(f64::NAN, |(a, b)| b.saturating_sub(a).as_secs_f64());
    std::hint::black_box(&world);
    late.sort_unstable();
    Sample {
        drift: drift(steps, steps_due(wall)),
        p50: percentile(&late, 500),
        p99: percentile(&late, 990),
        max: late.last().copied().unwrap_or(Nanos::ZERO),
        cpu_share: cpu / wall.as_secs_f64(),
    }
}

/// Steps run less steps due.
fn drift(run: u64, due: u64) -> i64 {
    i64::try_from(i128::from(run) - i128::from(due)).unwrap_or(i64::MIN)
}

/// The time of `n` steps, exact to the nanosecond below.
fn step_time(n: u64) -> Nanos {
    Nanos::from_nanos(n * 1_000_000_000 / HZ)
}

/// Steps due in `wall` from the start.
fn steps_due(wall: Nanos) -> u64 {
    wall.as_nanos() * HZ / 1_000_000_000
}

fn percentile(sorted: &[Nanos], per_mille: usize) -> Nanos {
    if sorted.is_empty() {
        return Nanos::ZERO;
    }
    let rank = (sorted.len() * per_mille).div_ceil(1_000).max(1);
    sorted[rank - 1]
}

fn ms(nanos: Nanos) -> f64 {
    nanos.as_secs_f64() * 1e3
}

/// The best (smallest) and the median of a figure over the runs.
fn best_median(samples: &[Sample], figure: impl Fn(&Sample) -> f64) -> (f64, f64) {
    let mut values: Vec<f64> = samples.iter().map(figure).collect();
    values.sort_by(f64::total_cmp);
    let n = values.len();
    let median = if n % 2 == 1 {
        values[n / 2]
    } else {
        f64::midpoint(values[n / 2 - 1], values[n / 2])
    };
    (values[0], median)
}

/// `--runs N --seconds S` (defaults 5 and 10).
fn args() -> Result<(u32, u64), String> {
    let usage = "usage: runner_bench [--runs N] [--seconds S] (positive whole numbers)";
    let (mut runs, mut seconds) = (5, 10);
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value: u64 = args
            .next()
            .and_then(|v| v.parse().ok())
            .filter(|v| *v > 0)
            .ok_or(usage)?;
        match flag.as_str() {
            "--runs" => runs = u32::try_from(value).map_err(|_| usage)?,
            "--seconds" => seconds = value,
            _ => return Err(usage.into()),
        }
    }
    Ok((runs, seconds))
}

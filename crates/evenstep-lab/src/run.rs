//! Running one configuration over one trace: the steps each frame ran, and
//! how simulation time stood against the wall after it.

use crate::config::{Config, Settings};
use crate::planner::Planner;
use crate::trace::Trace;

/// One configuration's run over one trace.
///
/// The planner is anchored one refresh before the first stamp (see
/// [`Trace::lead_in`]), and times are measured from that anchor.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Config, Rate, Run, Settings, Synthetic};
///
/// let trace = Synthetic::new(Rate::hz(60)?).frames(600)?.generate();
/// let run = Run::new(&trace, Config::Centred, &Settings::default());
/// assert!(run.steps().iter().all(|&s| s == 1));
/// assert_eq!(run.simulated_nanos(), 10_000_000_000); // 600 steps of 1/60 s
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    config: Config,
    steps: Vec<u64>,
    drift: Vec<i64>,
    simulated: u64,
    dropped: u64,
    phase_shift: Option<f64>,
}

impl Run {
    /// Runs `config` over `trace` with `settings`.
    pub fn new(trace: &Trace, config: Config, settings: &Settings) -> Run {
        let mut planner = Planner::new(config, settings, 0);
        let mut run = Run::empty(config, trace.len());
        let rate = settings.step_rate();
        let mut total = 0_u64;
        for wall in trace.wall_times() {
            let steps = planner.frame(wall);
            total += steps;
            let simulated = match planner.frame_loop() {
                Some(frames) => frames.simulated().as_nanos(),
                // The simulated time its steps stand for, exactly: total / rate.
                None => rate.refresh_at(total),
            };
            run.push(steps, simulated, wall);
        }
        run.dropped = planner.dropped_nanos();
        if let Some(frames) = planner.frame_loop() {
            let per_nano = settings.timestep().units_per_nanosecond() as f64;
            run.phase_shift = Some(frames.phase_shift_units() as f64 / per_nano);
        }
        run
    }

    fn empty(config: Config, frames: usize) -> Run {
        Run {
            config,
            steps: Vec::with_capacity(frames),
            drift: Vec::with_capacity(frames),
            simulated: 0,
            dropped: 0,
            phase_shift: None,
        }
    }

    fn push(&mut self, steps: u64, simulated: u64, wall: u64) {
        self.steps.push(steps);
        self.simulated = simulated;
        let drift = i128::from(simulated) - i128::from(wall);
        self.drift
            .push(i64::try_from(drift).unwrap_or(if drift < 0 { i64::MIN } else { i64::MAX }));
    }

    /// The configuration run.
    pub const fn config(&self) -> Config {
        self.config
    }

    /// Steps run by each frame.
    pub fn steps(&self) -> &[u64] {
        &self.steps
    }

    /// Simulation time minus wall time after each frame, in nanoseconds
    /// (negative: the simulation is behind the wall).
    pub fn drift_nanos(&self) -> &[i64] {
        &self.drift
    }

    /// Simulation time at the end (steps run times the exact step), in
    /// nanoseconds, rounded down.
    pub const fn simulated_nanos(&self) -> u64 {
        self.simulated
    }

    /// Time dropped, in nanoseconds: steps the budget refused (evenstep and
    /// Godot), or time over the 0.25 s clamp (the naive accumulator).
    pub const fn dropped_nanos(&self) -> u64 {
        self.dropped
    }

    /// The pacing's total phase shift in nanoseconds (evenstep only): time
    /// added to (positive) or removed from (negative) the bank to centre it
    /// and to snap deltas.
    pub const fn phase_shift_nanos(&self) -> Option<f64> {
        self.phase_shift
    }
}

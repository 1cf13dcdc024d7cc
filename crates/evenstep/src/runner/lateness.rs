//! Lateness: how late each step ran against the instant it fell due, as
//! the runner and the host both measure it.

use evenstep_core::{FramePlan, Nanos, Speed, Timestamp, Timestep};

use crate::game_loop::{Loop, PumpKind, PumpReport};
use crate::stats::{Histogram, LogHistogram};

/// How late steps ran against when they were due, over one run: a step's
/// lateness is the pump's clock reading less the instant the step fell due.
/// A step that runs on time is 0 late.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lateness {
    /// Steps measured.
    pub steps: u64,
    /// The median, within 3.1% (a log-linear histogram's bucket; within
    /// 12.5% for one room of a host, whose histogram is coarser).
    pub p50: Nanos,
    /// The 99th percentile, within 3.1% (12.5% for one room of a host).
    pub p99: Nanos,
    /// The latest step, exactly.
    pub max: Nanos,
}

/// The lateness of steps as they are measured: percentiles from a
/// log-linear histogram (by default the fine one, about 16 KB; a host's
/// rooms keep the coarse one, about 4 KB), the latest exactly. Boxed, so
/// that a struct holding one moves cheaply.
#[derive(Clone)]
pub(crate) struct LatenessTally<H = LogHistogram> {
    histogram: Box<H>,
    latest: Nanos,
}

impl<const SUB_BITS: u32, const BUCKETS: usize> LatenessTally<Histogram<SUB_BITS, BUCKETS>> {
    pub(crate) fn new() -> Self {
        LatenessTally {
            histogram: Box::new(Histogram::new()),
            latest: Nanos::ZERO,
        }
    }

    pub(crate) fn clear(&mut self) {
        self.histogram.clear();
        self.latest = Nanos::ZERO;
    }

    pub(crate) fn record(&mut self, late: Nanos) {
        self.histogram.record(late);
        self.latest = self.latest.max(late);
    }

    pub(crate) fn lateness(&self) -> Lateness {
        Lateness {
            steps: self.histogram.total(),
            p50: self.histogram.percentile(500),
            p99: self.histogram.percentile(990),
            max: self.latest,
        }
    }
}

/// A tick pump that ran, and what its steps were due against.
#[derive(Clone, Copy, Debug)]
pub(crate) struct MeasuredPump {
    pub(crate) report: PumpReport,
    /// When the pump's first step fell due (`None`: paused, no step due).
    first_due: Option<Timestamp>,
}

impl MeasuredPump {
    /// The lateness of each step the pump ran from elapsed time (queued
    /// steps were due at once, and are not measured): the first fell due at
    /// `first_due`, each later one a step's worth of scaled time after it.
    pub(crate) fn step_lateness(&self) -> impl Iterator<Item = Nanos> + use<> {
        let (now, plan) = (self.report.now, self.report.plan);
        let timed = match self.first_due {
            Some(_) => self
                .report
                .steps
                .min(plan.steps_run().saturating_sub(plan.steps_queued())),
            None => 0,
        };
        let first_due = self.first_due.unwrap_or(now);
        (0..timed).map(move |i| {
            let due = first_due.saturating_add(scaled_steps(i, plan.timestep(), plan.speed()));
            now.saturating_since(due)
        })
    }

    /// The pump's plan.
    pub(crate) fn plan(&self) -> &FramePlan {
        &self.report.plan
    }
}

/// The instant a host of `game_loop` should pump it next: what is due next,
/// or `idle_wake` from now when nothing is (a loop paused by hand with no
/// real timer), so that it is looked at again.
pub(crate) fn wake_deadline<S>(game_loop: &Loop<S>, idle_wake: Nanos) -> Timestamp {
    game_loop
        .next_due()
        .unwrap_or_else(|| game_loop.clock().now().saturating_add(idle_wake))
}

/// Pumps a [`PumpKind::Tick`] and keeps what its lateness is measured
/// against. `None` when the pump did not run (the loop is stopped).
pub(crate) fn measured_tick<S>(game_loop: &mut Loop<S>, state: &mut S) -> Option<MeasuredPump> {
    let first_due = game_loop.next_step_due();
    let report = game_loop.pump(state, PumpKind::Tick).report()?;
    Some(MeasuredPump { report, first_due })
}

/// `count` steps of `timestep` at `speed`, in wall time, rounded up to the
/// nanosecond (the instant a pump runs the last of them).
fn scaled_steps(count: u64, timestep: Timestep, speed: Speed) -> Nanos {
    if count == 0 || speed.is_paused() {
        return Nanos::ZERO;
    }
    // Saturating: a budget of billions of steps at a long step and a fine
    // speed multiplies past 2¹²⁸; the instant is then the end of time.
    let units = (u128::from(count) * u128::from(timestep.units_per_step()))
        .saturating_mul(u128::from(speed.denominator()));
    let per_nano = u128::from(timestep.units_per_nanosecond()) * u128::from(speed.numerator());
    Nanos::from_nanos(u64::try_from(units.div_ceil(per_nano)).unwrap_or(u64::MAX))
}

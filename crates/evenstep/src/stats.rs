//! Measured statistics: what the loop observed about its own timing, from its
//! own clock readings. Unlike the planner's deterministic tally
//! ([`FrameStats`](evenstep_core::FrameStats)) these depend on how fast the
//! machine ran, so they are for HUDs, logs and performance tests, never for a
//! determinism digest. Because every number comes from the loop's
//! [`Clock`](crate::clock::Clock), a manual clock makes each of them exact.
//!
//! A [`Collector`] records each pump and hands out [`LoopStats`] snapshots.
//! It is made of one part per concept: the pumps' [`costs`], the
//! [`absences`] that are not frame gaps, the frame [`gaps`] (their window
//! and their percentiles, from a [`histogram`]), the [`drops`] of the step
//! budget, and the [`seconds`] of real time that fps counts in.

mod absences;
mod costs;
mod drops;
mod gaps;
mod histogram;
mod loop_stats;
mod seconds;

use evenstep_core::{Nanos, Timestamp, Timestep};

use crate::stats::absences::Absences;
use crate::stats::costs::Costs;
use crate::stats::drops::Drops;
use crate::stats::gaps::Gaps;
use crate::stats::seconds::{Fps, Seconds};

pub(crate) use crate::stats::gaps::MAX_GAP_WINDOW_SECS;
pub(crate) use crate::stats::histogram::{CoarseHistogram, Histogram, LogHistogram};
pub use crate::stats::loop_stats::LoopStats;

/// Settings the collector needs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct StatsConfig {
    pub(crate) warmup_frames: u32,
    pub(crate) absence: Nanos,
    pub(crate) work_budget: Nanos,
    pub(crate) gap_window_secs: u64,
}

/// What one pump measured.
pub(crate) struct PumpSample {
    pub(crate) now: Timestamp,
    pub(crate) real_time: Nanos,
    pub(crate) painted: bool,
    pub(crate) frame_cost: Nanos,
    pub(crate) update_cost: Nanos,
    pub(crate) render_cost: Nanos,
    pub(crate) steps: u64,
    pub(crate) timestep: Timestep,
    pub(crate) abandoned_steps: u64,
}

/// Accumulates measurements between resets.
#[derive(Clone)]
pub(crate) struct Collector {
    config: StatsConfig,
    seconds: Seconds,
    fps: Fps,
    costs: Costs,
    absences: Absences,
    gaps: Gaps,
    drops: Drops,
    steps_last_pump: u64,
    paints: u64,
    pumps: u64,
}

impl Collector {
    pub(crate) fn new(config: StatsConfig) -> Collector {
        Collector {
            config,
            seconds: Seconds::new(),
            fps: Fps::default(),
            costs: Costs::new(config.work_budget),
            absences: Absences::new(config.absence),
            gaps: Gaps::new(config.warmup_frames, config.gap_window_secs),
            drops: Drops::default(),
            steps_last_pump: 0,
            paints: 0,
            pumps: 0,
        }
    }

    /// Forgets every measurement. Warm-up is not restarted: it is about the
    /// start of a run, not of a measurement. The previous paint and the
    /// second of real time are kept: they are where the loop is, not what
    /// it measured.
    pub(crate) fn reset(&mut self) {
        self.fps.reset();
        self.costs = Costs::new(self.config.work_budget);
        self.absences.reset();
        self.gaps.reset(self.seconds.current());
        self.drops = Drops::default();
        self.steps_last_pump = 0;
        self.paints = 0;
        self.pumps = 0;
    }

    /// Forgets the previous paint, so the next paint starts a new gap: used
    /// when the loop restarts, so a stop is not measured as a gap.
    pub(crate) fn rebase(&mut self) {
        self.absences.rebase();
    }

    /// The frame source stopped showing frames: the gap from the last paint
    /// to the next one is an absence.
    pub(crate) fn begin_absence(&mut self) {
        self.absences.begin();
    }

    #[inline]
    pub(crate) fn record(&mut self, sample: &PumpSample) {
        self.pumps += 1;
        if self.seconds.reach(sample.real_time) {
            let second = self.seconds.current();
            self.fps.roll(second);
            self.gaps.open_second(second);
        }
        let render_cost = sample.painted.then_some(sample.render_cost);
        self.costs
            .record(sample.frame_cost, sample.update_cost, render_cost);
        self.steps_last_pump = sample.steps;
        if sample.abandoned_steps > 0 {
            self.record_abandoned(sample.abandoned_steps, sample.timestep);
        }
        if sample.painted {
            self.paints += 1;
            self.fps.paint();
            if let Some(gap) = self.absences.frame_gap(sample.now) {
                self.gaps.record(gap);
            }
        }
    }

    /// Adds time the step budget dropped.
    #[inline]
    pub(crate) fn record_dropped(&mut self, units: u128, steps: u64, timestep: Timestep) {
        if units > 0 {
            self.drops.add(units, steps, timestep);
        }
    }

    /// Reports steps a panicking pump planned but never began as dropped.
    pub(crate) fn record_abandoned(&mut self, steps: u64, timestep: Timestep) {
        self.drops.add_steps(steps, timestep);
    }

    pub(crate) fn snapshot(&self) -> LoopStats {
        let (worst_gap, cadence) = self.gaps.worst_and_cadence(self.seconds.current());
        LoopStats {
            fps: self.fps.fps(),
            frame_cost: self.costs.frame(),
            update_cost: self.costs.update(),
            render_cost: self.costs.render(),
            worst_frame: self.costs.worst(),
            best_frame: self.costs.best(),
            frame_cost_total: self.costs.total(),
            worst_gap,
            cadence,
            absences: self.absences.count(),
            warming_up: self.gaps.warming_up(),
            over_budget: self.costs.over_budget(),
            steps_last_pump: self.steps_last_pump,
            dropped: self.drops.time(),
            dropped_steps: self.drops.steps(),
            gap_p50: self.gaps.percentile(500),
            gap_p95: self.gaps.percentile(950),
            gap_p99: self.gaps.percentile(990),
            gaps: self.gaps.count(),
            paints: self.paints,
            pumps: self.pumps,
        }
    }
}

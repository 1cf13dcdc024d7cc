//! What a player sees of a loop that draws interpolated: the judder of the
//! drawn time. A frame draws the simulation at `(steps run) · dt + alpha ·
//! dt`, with `alpha` the planner's blend factor after the frame's steps;
//! between two consecutive shown frames the drawn time should move as far
//! as their display times did. Judder is `|Δdrawn - Δdisplay|` per shown
//! frame after the first (an absolute value: early and late are the same
//! stumble), counted in fixed bins (10 ns wide to 1 µs, 1 µs to 10 ms, 100 µs
//! to 100 ms, 10 ms to 10 s, then one) for its 99th percentile; the mean is exact.

use serde::Serialize;

use crate::bins::JUDDER_TIERS;
use crate::latency::{mean, spread};

/// Judder values binned at a time.
const BATCH: usize = 512;

/// The judder of one run's shown frames.
#[derive(Clone, Debug)]
pub(crate) struct JudderBook {
    step_nanos: f64,
    /// The last shown frame's display time and blend factor.
    last: Option<(u64, f64)>,
    /// Steps run since the last shown frame.
    steps: u64,
    counts: Vec<u64>,
    /// Judder not yet counted: binned a batch at a time, while this run's
    /// bins are in the cache.
    pending: Vec<f64>,
    frames: u64,
    sum: f64,
    least: f64,
    most: f64,
}

impl JudderBook {
    /// Nothing measured, for steps of `step_nanos` ns.
    pub(crate) fn new(step_nanos: f64) -> JudderBook {
        JudderBook {
            step_nanos,
            last: None,
            steps: 0,
            counts: vec![0; JUDDER_TIERS.len()],
            pending: Vec::with_capacity(BATCH),
            frames: 0,
            sum: 0.0,
            least: f64::INFINITY,
            most: 0.0,
        }
    }

    /// One presented frame: `steps` run on it, leaving the blend factor
    /// `alpha`, shown at `display` (ns; `None`, or a time not after the
    /// last shown frame's, when never shown: its steps carry to the next).
    pub(crate) fn push(&mut self, display: Option<u64>, steps: u64, alpha: f64) {
        self.steps = self.steps.saturating_add(steps);
        let Some(display) = display else {
            return;
        };
        match self.last {
            Some((shown, _)) if display <= shown => return, // judged as not shown
            Some((shown, before)) => {
                let steps = self.steps as f64;
                let drawn = (steps + alpha - before) * self.step_nanos;
                self.record((drawn - (display - shown) as f64).abs());
            }
            None => {}
        }
        self.steps = 0;
        self.last = Some((display, alpha));
    }

    fn record(&mut self, judder: f64) {
        self.frames += 1;
        self.sum += judder;
        self.least = self.least.min(judder);
        self.most = self.most.max(judder);
        self.pending.push(judder);
        if self.pending.len() >= BATCH {
            self.flush();
        }
    }

    /// Bins the judder pending.
    pub(crate) fn flush(&mut self) {
        for judder in self.pending.drain(..) {
            #[allow(clippy::cast_sign_loss, reason = "an absolute value, saturated")]
            let nanos = judder as u64;
            self.counts[JUDDER_TIERS.bin_of(nanos)] += 1;
        }
    }

    /// The mean judder, in ns, if any frame was judged.
    pub(crate) fn mean(&self) -> Option<f64> {
        (self.frames > 0).then(|| self.sum / self.frames as f64)
    }

    /// The judder at `share` of the shown frames (the smallest value with
    /// at least that share at or under it), in ns: within its bin, kept
    /// between the least and the most measured. [`flush`](JudderBook::flush)
    /// first: judder still pending is not counted.
    pub(crate) fn quantile(&self, share: f64) -> Option<f64> {
        if self.frames == 0 {
            return None;
        }
        let rank = (share * self.frames as f64).ceil().max(1.0);
        let mut seen = 0_u64;
        for (bin, &count) in self.counts.iter().enumerate() {
            if count > 0 && (seen + count) as f64 >= rank {
                let (start, width) = JUDDER_TIERS.bounds(bin);
                let within = (rank - seen as f64) / count as f64;
                let value = start as f64 + within * width.map_or(0.0, |width| width as f64);
                return Some(value.clamp(self.least, self.most));
            }
            seen += count;
        }
        Some(self.most)
    }
}

/// One configuration's judder at each start phase: the mean and the 99th
/// percentile over its shown frames, in ms (`None` for a phase with fewer
/// than two shown frames).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseJudder {
    /// The configuration's machine-readable name.
    pub config: &'static str,
    /// Its label.
    pub label: &'static str,
    /// The mean at each start phase, in ms.
    pub mean_ms: Vec<Option<f64>>,
    /// The 99th percentile at each start phase, in ms.
    pub p99_ms: Vec<Option<f64>>,
}

impl PhaseJudder {
    /// `config` and `label`'s judder measured by `books`, one a phase.
    pub(crate) fn of<'a>(
        config: &'static str,
        label: &'static str,
        books: impl Iterator<Item = &'a JudderBook>,
    ) -> PhaseJudder {
        let (mean_ms, p99_ms) = books
            .map(|book| {
                let ms = |nanos: f64| nanos / 1e6;
                (book.mean().map(ms), book.quantile(0.99).map(ms))
            })
            .unzip();
        PhaseJudder {
            config,
            label,
            mean_ms,
            p99_ms,
        }
    }

    /// The mean judder's mean over the start phases.
    pub fn mean_mean(&self) -> Option<f64> {
        mean(&self.mean_ms)
    }

    /// The 99th percentile's mean over the start phases.
    pub fn p99_mean(&self) -> Option<f64> {
        mean(&self.p99_ms)
    }

    /// The least and the most mean judder over the start phases.
    pub fn mean_spread(&self) -> Option<(f64, f64)> {
        spread(&self.mean_ms)
    }
}

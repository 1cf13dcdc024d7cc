//! The numbers reported for each configuration on each trace: the
//! steps-per-frame histogram, stutter, double updates, drift against the
//! wall, dropped time and the pacing's phase shift.

use serde::Serialize;

use crate::run::Run;
use crate::stutter::Cadence;
use crate::trace::Trace;

/// How many frames ran 0, 1, 2, 3, and 4 or more steps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Histogram {
    /// Frames that ran no step.
    #[serde(rename = "0")]
    pub zero: u64,
    /// Frames that ran one step.
    #[serde(rename = "1")]
    pub one: u64,
    /// Frames that ran two steps.
    #[serde(rename = "2")]
    pub two: u64,
    /// Frames that ran three steps.
    #[serde(rename = "3")]
    pub three: u64,
    /// Frames that ran four steps or more.
    #[serde(rename = "4+")]
    pub four_or_more: u64,
}

impl Histogram {
    /// The histogram of `steps`.
    pub fn of(steps: &[u64]) -> Histogram {
        let mut histogram = Histogram::default();
        for &s in steps {
            *match s {
                0 => &mut histogram.zero,
                1 => &mut histogram.one,
                2 => &mut histogram.two,
                3 => &mut histogram.three,
                _ => &mut histogram.four_or_more,
            } += 1;
        }
        histogram
    }

    /// The five counts, in order.
    pub const fn counts(&self) -> [u64; 5] {
        [self.zero, self.one, self.two, self.three, self.four_or_more]
    }
}

/// One configuration's verdict on one trace.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Metrics {
    /// Steps per frame, over every frame.
    pub histogram: Histogram,
    /// Steps run in all.
    pub steps: u64,
    /// Frames after the warm-up whose step count departs from the ideal
    /// [`Cadence`].
    pub stutter: u64,
    /// Frames the stutter count looked at (every frame after the warm-up).
    pub stutter_frames_checked: u64,
    /// The first stuttering frame's index, if any.
    pub first_stutter: Option<usize>,
    /// Frames spanning one refresh that ran two steps or more, over every
    /// frame.
    pub double_updates: u64,
    /// Simulation time minus wall time at the end, in milliseconds.
    pub drift_ms: f64,
    /// The same drift in parts per million of the wall time.
    pub drift_ppm: f64,
    /// Time dropped, in milliseconds (see [`Run::dropped_nanos`]).
    pub dropped_ms: f64,
    /// The pacing's total phase shift, in milliseconds (evenstep only).
    pub phase_shift_ms: Option<f64>,
}

impl Metrics {
    /// Measures `run` over `trace` against `cadence`, skipping the first
    /// `warm_up` frames for stutter.
    pub fn measure(trace: &Trace, run: &Run, cadence: &Cadence, warm_up: usize) -> Metrics {
        let deltas = trace.deltas();
        let steps = run.steps();
        let flags = cadence.stutters(&deltas, steps, warm_up);
        let double_updates = deltas
            .iter()
            .zip(steps)
            .filter(|&(&delta, &s)| cadence.refreshes(delta) == 1 && s >= 2)
            .count();
        let wall = trace.wall_times().last().copied().unwrap_or(0);
        let drift = i128::from(run.simulated_nanos()) - i128::from(wall);
        let drift_ppm = if wall == 0 {
            0.0
        } else {
            drift as f64 * 1e6 / wall as f64
        };
        Metrics {
            histogram: Histogram::of(steps),
            steps: steps.iter().sum(),
            stutter: flags.iter().filter(|&&f| f).count() as u64,
            stutter_frames_checked: flags.len().saturating_sub(warm_up) as u64,
            first_stutter: flags.iter().position(|&f| f),
            double_updates: double_updates as u64,
            drift_ms: drift as f64 / 1e6,
            drift_ppm,
            dropped_ms: run.dropped_nanos() as f64 / 1e6,
            phase_shift_ms: run.phase_shift_nanos().map(|ns| ns / 1e6),
        }
    }
}

//! The timing statistics of a trace with display times: how its present
//! gaps, display gaps and present-to-display latency are spread, and how
//! often the screen held a frame for more than one refresh. They say
//! whether a synthetic capture looks like a real one.

use core::fmt;

use crate::judge::refreshes;
use crate::trace::Trace;

/// A trace's timing statistics, in nanoseconds: percentiles are nearest
/// rank (the p99 of 100 gaps is the 99th smallest).
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Queued, Rate, TraceStats};
///
/// let trace = Queued::new(Rate::hz(60)?).frames(600)?.generate();
/// let stats = TraceStats::of(&trace).expect("a vsync capture has display times");
/// assert_eq!(stats.display_gap_median, 16_666_667);
/// assert!(stats.latency_min >= 2_000_000); // the GPU's 2 ms at least
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceStats {
    /// The median gap between consecutive present times.
    pub present_gap_median: u64,
    /// The 99th percentile of the present gaps.
    pub present_gap_p99: u64,
    /// The longest present gap.
    pub present_gap_max: u64,
    /// The median gap between consecutive shown frames' display times.
    pub display_gap_median: u64,
    /// The 99th percentile of the display gaps.
    pub display_gap_p99: u64,
    /// The shortest time from a shown frame's present to its display.
    pub latency_min: u64,
    /// The longest time from a shown frame's present to its display.
    pub latency_max: u64,
    /// Display gaps that span two refreshes or more (of the trace's
    /// typical period, rounded), in thousandths of all display gaps.
    pub long_display_gaps_per_mille: u64,
}

impl TraceStats {
    /// The statistics of `trace`, if it has display times and at least two
    /// frames presented and two shown.
    pub fn of(trace: &Trace) -> Option<TraceStats> {
        let display = trace.display()?;
        let stamps = trace.stamps();
        let mut present_gaps: Vec<u64> = stamps
            .windows(2)
            .map(|pair| pair[1].saturating_sub(pair[0]))
            .collect();
        let shown: Vec<(u64, u64)> = stamps
            .iter()
            .zip(display)
            .filter_map(|(&present, &shown)| Some((present, shown?)))
            .collect();
        let mut display_gaps: Vec<u64> = shown
            .windows(2)
            .map(|pair| pair[1].1.saturating_sub(pair[0].1))
            .collect();
        if present_gaps.is_empty() || display_gaps.is_empty() {
            return None;
        }
        let period = trace.refresh().typical_period_nanos().max(1);
        // Rounded without `gap + period / 2`, which overflows on a gap near
        // `u64::MAX`.
        let long = display_gaps
            .iter()
            .filter(|&&gap| refreshes(gap, period) >= 2)
            .count() as u64;
        let latencies = shown
            .iter()
            .map(|&(present, shown)| shown.saturating_sub(present));
        let long_display_gaps_per_mille = long * 1_000 / display_gaps.len() as u64;
        present_gaps.sort_unstable();
        display_gaps.sort_unstable();
        Some(TraceStats {
            present_gap_median: median(&present_gaps),
            present_gap_p99: p99(&present_gaps),
            present_gap_max: present_gaps[present_gaps.len() - 1],
            display_gap_median: median(&display_gaps),
            display_gap_p99: p99(&display_gaps),
            latency_min: latencies.clone().min()?,
            latency_max: latencies.max()?,
            long_display_gaps_per_mille,
        })
    }
}

impl fmt::Display for TraceStats {
    /// One line, in milliseconds to the µs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |nanos: u64| nanos as f64 / 1e6;
        write!(
            f,
            "present gaps median {:.3} / p99 {:.3} / max {:.3} ms; \
             display gaps median {:.3} / p99 {:.3} ms; latency {:.3} to {:.3} ms; \
             display gaps of 2+ refreshes {}.{}%",
            ms(self.present_gap_median),
            ms(self.present_gap_p99),
            ms(self.present_gap_max),
            ms(self.display_gap_median),
            ms(self.display_gap_p99),
            ms(self.latency_min),
            ms(self.latency_max),
            self.long_display_gaps_per_mille / 10,
            self.long_display_gaps_per_mille % 10,
        )
    }
}

/// The median of sorted, non-empty `values` (the lower of the middle two).
fn median(values: &[u64]) -> u64 {
    values[(values.len() - 1) / 2]
}

/// The 99th percentile of sorted, non-empty `values`, by nearest rank.
fn p99(values: &[u64]) -> u64 {
    let rank = (values.len() * 99).div_ceil(100).max(1);
    values[rank - 1]
}

//! Input latency: how long an input waits from its stamp to the pump whose
//! steps read it, for stamps spread uniformly over wall time.
//!
//! Steps end in order ([`StepSpan`]), and an event stamped in `(e₀, e₁]`,
//! between two consecutive step ends, is read by the step ending at `e₁`,
//! in the pump at `p`: its latency is `p - t`, so that stretch of wall time
//! holds latencies spread uniformly over `[p - e₁, p - e₀)`. The
//! distribution is the sum of those pieces, integrated exactly into fixed
//! bins (10 µs wide to 50 ms, 1 ms to 2 s, 100 ms to 60 s, 10 s to an
//! hour, then one): the share of wall time with latency at most `x`
//! is exact at every bin edge, and linear between them, so a quantile is
//! within a bin (10 µs below 50 ms) of the exact one. Stamps after the last
//! step's end, which no step of the run reads, are not counted.

use serde::Serialize;

use crate::bins::LATENCY_TIERS;
use crate::step_ends::StepSpan;

/// The distribution of input latency over one run, in fixed memory.
#[derive(Clone, Debug)]
pub(crate) struct LatencyBook {
    /// Per bin: the latencies where a piece starts (+1) or ends (-1), and
    /// those ends' offsets from the bin's start, signed the same (one pair,
    /// so that a mark touches one cache line).
    bins: Vec<[i64; 2]>,
    /// The same for the open bin past the last, whose offsets are not
    /// bounded.
    open: (i64, i128),
    /// Pieces not yet marked: marked a batch at a time, while this run's
    /// bins are in the cache.
    pending: Vec<(u64, u64)>,
    /// The last step end so far: where the next step's stamps begin.
    last_end: Option<u64>,
    /// Wall time covered, in ns.
    covered: u128,
    /// The longest latency, in ns.
    longest: u64,
}

/// Pieces marked at a time.
const BATCH: usize = 512;

impl LatencyBook {
    /// Nothing measured.
    pub(crate) fn new() -> LatencyBook {
        LatencyBook {
            bins: vec![[0; 2]; LATENCY_TIERS.len() - 1],
            open: (0, 0),
            pending: Vec::with_capacity(BATCH),
            last_end: None,
            covered: 0,
            longest: 0,
        }
    }

    /// The steps of one frame: stamps from the previous step end (for the
    /// first frame, its start) up to each step's end are read in its pump.
    pub(crate) fn frame(&mut self, span: &StepSpan) {
        let mut last = *self.last_end.get_or_insert(span.from());
        for index in 0..span.steps() {
            let end = span.end_of(index).max(last);
            let pump = span.to().max(end);
            if end > last {
                self.pending.push((pump - end, pump - last));
                self.longest = self.longest.max(pump - last);
                self.covered += u128::from(end - last);
            }
            last = end;
        }
        self.last_end = Some(last);
        if self.pending.len() >= BATCH {
            self.flush();
        }
    }

    /// Marks the pending pieces, each latencies spread uniformly over
    /// `[low, high)`.
    pub(crate) fn flush(&mut self) {
        let mut pending = core::mem::take(&mut self.pending);
        for &(low, high) in &pending {
            self.mark(low, 1);
            self.mark(high, -1);
        }
        pending.clear();
        self.pending = pending;
    }

    fn mark(&mut self, nanos: u64, sign: i64) {
        let (bin, offset) = LATENCY_TIERS.locate(nanos);
        if let Some(pair) = self.bins.get_mut(bin) {
            pair[0] += sign;
            pair[1] += sign * i64::try_from(offset).unwrap_or(i64::MAX);
        } else {
            self.open.0 += sign;
            self.open.1 += i128::from(sign) * i128::from(offset);
        }
    }

    /// The marks of `bin`: (pieces started less ended, their offsets).
    fn marks(&self, bin: usize) -> (i128, i128) {
        self.bins.get(bin).map_or(
            (i128::from(self.open.0), self.open.1),
            |&[count, offsets]| (i128::from(count), i128::from(offsets)),
        )
    }

    /// The latencies at the `shares` (each in `[0, 1]`, ascending) of wall
    /// time, in ns; `None` when no step ran.
    /// [`flush`](LatencyBook::flush) first: pieces still pending are not
    /// counted.
    pub(crate) fn quantiles<const N: usize>(&self, shares: [f64; N]) -> Option<[f64; N]> {
        if self.covered == 0 {
            return None;
        }
        let covered = self.covered as f64;
        #[allow(
            clippy::cast_possible_truncation,
            reason = "a share of a u128, rounded up"
        )]
        let targets = shares.map(|share| (share * covered).ceil() as i128);
        let mut found = [f64::NAN; N];
        let mut next = 0;
        // At a bin edge x: the wall time with latency at most x is
        // x · (pieces open) - (their starts, less their ends).
        let (mut open, mut starts) = (0_i128, 0_i128);
        for bin in 0..LATENCY_TIERS.len() {
            let (start, width) = LATENCY_TIERS.bounds(bin);
            let before = i128::from(start) * open - starts;
            let (count, offsets) = self.marks(bin);
            open += count;
            starts += count * i128::from(start) + offsets;
            let end = width.map_or(self.longest.max(start) + 1, |width| start + width);
            let after = i128::from(end) * open - starts;
            while next < N && after >= targets[next] {
                let share = (targets[next] - before) as f64 / (after - before).max(1) as f64;
                found[next] = start as f64 + share.clamp(0.0, 1.0) * (end - start) as f64;
                next += 1;
            }
            if next == N {
                break;
            }
        }
        Some(found)
    }
}

/// One configuration's input latency at each start phase: the median and
/// the 99th percentile over stamps spread uniformly over wall time, in ms
/// (`None` for a phase that ran no step).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PhaseLatency {
    /// The configuration's machine-readable name.
    pub config: &'static str,
    /// Its label.
    pub label: &'static str,
    /// The median at each start phase, in ms.
    pub median_ms: Vec<Option<f64>>,
    /// The 99th percentile at each start phase, in ms.
    pub p99_ms: Vec<Option<f64>>,
}

impl PhaseLatency {
    /// `config` and `label`'s latencies measured by `books`, one a phase.
    pub(crate) fn of<'a>(
        config: &'static str,
        label: &'static str,
        books: impl Iterator<Item = &'a LatencyBook>,
    ) -> PhaseLatency {
        let (median_ms, p99_ms) = books
            .map(|book| match book.quantiles([0.5, 0.99]) {
                Some([median, p99]) => (Some(median / 1e6), Some(p99 / 1e6)),
                None => (None, None),
            })
            .unzip();
        PhaseLatency {
            config,
            label,
            median_ms,
            p99_ms,
        }
    }

    /// The median's mean over the start phases that ran a step.
    pub fn median_mean(&self) -> Option<f64> {
        mean(&self.median_ms)
    }

    /// The 99th percentile's mean over the start phases that ran a step.
    pub fn p99_mean(&self) -> Option<f64> {
        mean(&self.p99_ms)
    }

    /// The least and the most median over the start phases.
    pub fn median_spread(&self) -> Option<(f64, f64)> {
        spread(&self.median_ms)
    }
}

/// The mean of the values present.
pub(crate) fn mean(values: &[Option<f64>]) -> Option<f64> {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    (!present.is_empty()).then(|| present.iter().sum::<f64>() / present.len() as f64)
}

/// The least and the most of the values present.
pub(crate) fn spread(values: &[Option<f64>]) -> Option<(f64, f64)> {
    let mut present = values.iter().flatten().copied();
    let first = present.next()?;
    Some(present.fold((first, first), |(low, high), v| (low.min(v), high.max(v))))
}

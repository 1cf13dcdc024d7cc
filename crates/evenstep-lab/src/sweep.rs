//! Judging every configuration by what the player saw, over a sweep of
//! start phases: each planner is fed the present times of a capture (every
//! row, shown or not) and judged on its shown frames by the [`Rule`], once
//! for each start phase (the planner's anchor moved back by `i/n` of a
//! step), because where a game's first frame falls against the step decides
//! what a plain accumulator does for the rest of the run. Beside them, a
//! naive accumulator fed the display times says what knowing the truth
//! gives. Rows are taken one at a time, so a capture of any length is
//! judged in fixed memory.

use core::fmt::Write as _;
use std::collections::VecDeque;

use serde::Serialize;

use crate::config::{Config, Settings};
use crate::judder::{JudderBook, PhaseJudder};
use crate::judge::{DisplayTiming, Measured, Rule, Tally, TimingError};
use crate::latency::{LatencyBook, PhaseLatency};
use crate::planner::{Planner, whole_nanos};
use crate::rate::Rate;
use crate::table::Table;
use crate::trace::Trace;

/// Where the planners' clocks start: far enough into the timeline that a
/// capture starting at 0 ms can be anchored before its first row.
const CLOCK_BASE: u64 = 10_000_000_000;

/// One configuration's wrong frames, one count per start phase.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PhaseCounts {
    /// The configuration's machine-readable name.
    pub config: &'static str,
    /// Its label.
    pub label: &'static str,
    /// Wrong shown frames at each start phase, in order.
    pub wrong: Vec<u64>,
}

impl PhaseCounts {
    /// The most wrong frames at any start phase.
    pub fn worst(&self) -> u64 {
        self.wrong.iter().copied().max().unwrap_or(0)
    }

    /// The fewest wrong frames at any start phase.
    pub fn best(&self) -> u64 {
        self.wrong.iter().copied().min().unwrap_or(0)
    }

    /// Wrong frames summed over the start phases.
    pub fn total(&self) -> u64 {
        self.wrong.iter().sum()
    }

    /// The mean over the start phases.
    pub fn mean(&self) -> f64 {
        self.total() as f64 / self.wrong.len().max(1) as f64
    }
}

/// Every configuration judged over every start phase on one capture.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SweepReport {
    /// The capture's name.
    pub name: String,
    /// Frames presented (rows).
    pub presented: u64,
    /// Frames shown.
    pub shown: u64,
    /// Shown frames judged (every shown frame after the first).
    pub judged: u64,
    /// The display's refresh, and what it was measured from.
    pub display: String,
    /// Where the present and display times came from.
    pub sources: String,
    /// Start phases swept (each `i/phases` of a step).
    pub phases: u32,
    /// One entry per configuration, in [`Config::ALL`] order.
    pub configs: Vec<PhaseCounts>,
    /// Wrong shown frames for the naive accumulator fed the display times.
    pub display_fed: u64,
    /// Input latency, one entry per configuration, in [`Config::ALL`]
    /// order: from an input's stamp to the pump whose steps read it.
    pub latency: Vec<PhaseLatency>,
    /// The default's ([`Config::Locked`]) median latency minus pacing
    /// off's, in steps: the mean over the start phases of each phase's
    /// difference, and the largest difference at any phase.
    pub latency_default_minus_off_steps: Option<(f64, f64)>,
    /// Judder of the drawn time on the shown frames, one entry per
    /// configuration, in [`Config::ALL`] order.
    pub judder: Vec<PhaseJudder>,
    /// The same for the naive accumulator fed the display times.
    pub display_fed_judder: PhaseJudder,
}

impl SweepReport {
    /// The counts of `config`.
    pub fn counts(&self, config: Config) -> &PhaseCounts {
        &self.configs[config_index(config)]
    }

    /// The input latency of `config`.
    pub fn latency(&self, config: Config) -> &PhaseLatency {
        &self.latency[config_index(config)]
    }

    /// The judder of `config`.
    pub fn judder(&self, config: Config) -> &PhaseJudder {
        &self.judder[config_index(config)]
    }

    /// The verdicts as a plain text block: a line per configuration with
    /// the wrong frames at every start phase, their mean and the worst.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} frames presented, {} shown, {} judged",
            self.name, self.presented, self.shown, self.judged
        );
        let _ = writeln!(out, "  display: {}", self.display);
        if !self.sources.is_empty() {
            let _ = writeln!(out, "  {}", self.sources);
        }
        let _ = writeln!(
            out,
            "  wrong shown frames, planners fed the present times, start moved by 0..{} {}ths of a step:",
            self.phases - 1,
            self.phases
        );
        let mut least = vec![18, 9, 8];
        least.resize(3 + self.phases as usize, 8);
        let mut table = Table::new(&least);
        table.row(
            ["configuration", "mean", "worst"]
                .map(str::to_owned)
                .into_iter()
                .chain((0..self.phases).map(|phase| format!("+{phase}/{}", self.phases))),
        );
        for counts in &self.configs {
            table.row(
                [
                    counts.label.to_owned(),
                    format!("{:.1}", counts.mean()),
                    counts.worst().to_string(),
                ]
                .into_iter()
                .chain(counts.wrong.iter().map(u64::to_string)),
            );
        }
        table.row_with_note(
            [
                "display-fed".to_owned(),
                self.display_fed.to_string(),
                self.display_fed.to_string(),
            ],
            "   (a naive f64 accumulator fed the display times)",
        );
        out.push_str(&table.render("  "));
        out.push_str(&crate::seen::block(self));
        out
    }
}

/// Where `config` is in [`Config::ALL`].
fn config_index(config: Config) -> usize {
    Config::ALL.iter().position(|&c| c == config).unwrap_or(0)
}

/// One planner of a sweep and what it is judged by: wrong frames, input
/// latency and judder.
#[derive(Clone, Debug)]
struct Seat {
    planner: Planner,
    tally: Tally,
    latency: LatencyBook,
    judder: JudderBook,
}

impl Seat {
    fn new(planner: Planner, step_nanos: f64) -> Seat {
        Seat {
            planner,
            tally: Tally::new(),
            latency: LatencyBook::new(),
            judder: JudderBook::new(step_nanos),
        }
    }

    /// The frame presented at `now`, shown at `display`.
    fn push(&mut self, measured: &Measured, rule: &Rule, now: u64, display: Option<u64>) {
        let planned = self.planner.plan(now);
        self.tally.push(measured, rule, display, planned.steps);
        self.latency.frame(&planned.span);
        self.judder.push(display, planned.steps, planned.alpha);
    }
}

/// The planners of a sweep, fed a row at a time: every configuration at
/// each of `phases` start phases (its anchor moved back by `i/phases` of a
/// step), fed the present times of every row, and judged on each shown
/// frame after the first by the [`Rule`]; beside them, a naive accumulator
/// fed the display times.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Config, Measured, Rate, Settings, Sweep};
///
/// let rate = Rate::hz(60)?;
/// let mut sweep = Sweep::new("steady", Settings::default(), Measured::given(rate), 4);
/// for k in 0..600_u64 {
///     let present = k * 16_666_667 + (k % 3) * 1_000_000;
///     sweep.push(present, Some(k * 16_666_667 + 30_000_000));
/// }
/// let report = sweep.finish();
/// assert_eq!(report.judged, 599);
/// assert_eq!(report.counts(Config::Locked).worst(), 0);
/// # Ok::<(), evenstep_lab::RateError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Sweep {
    name: String,
    settings: Settings,
    measured: Measured,
    rule: Rule,
    phases: u32,
    lead_in: u64,
    planners: Vec<Vec<Seat>>,
    display_fed: Option<(Planner, Tally, JudderBook)>,
    last_display: Option<u64>,
    presented: u64,
    shown: u64,
    /// Display times not yet reported: see [`Feedback`].
    feedback: Feedback,
}

/// Display feedback on its way to the planners that take it: each shown
/// row's display time, first given to the plan of the first row presented
/// strictly after it, plus the settings' feedback delay in rows. A row
/// never shown yields no report (as on a real platform, which reports only
/// frames that reached the screen), and the planner is not told of it.
/// The start phases move the planners' anchors, not the trace, so present
/// and display times keep their distance at every phase. Reports for rows
/// more than [`FRAMES_IN_FLIGHT`](evenstep_core::FRAMES_IN_FLIGHT) back
/// are dropped unsent, as the planner would refuse them: the queue never
/// holds more.
#[derive(Clone, Debug, Default)]
struct Feedback {
    /// (row, display time, the row from which it may be reported).
    pending: VecDeque<(u64, u64, Option<u64>)>,
}

impl Feedback {
    /// The reports due by the plan of `row`, presented at `now`.
    fn due(&mut self, row: u64, now: u64, delay: u32) -> impl Iterator<Item = (u64, u64)> + '_ {
        let oldest = row.saturating_sub(evenstep_core::FRAMES_IN_FLIGHT as u64);
        while self
            .pending
            .front()
            .is_some_and(|&(shown, ..)| shown < oldest)
        {
            self.pending.pop_front();
        }
        for (_, display, from) in &mut self.pending {
            if from.is_none() && *display < now {
                *from = Some(row + u64::from(delay));
            }
        }
        let ready = self
            .pending
            .iter()
            .take_while(|(_, _, from)| from.is_some_and(|from| from <= row))
            .count();
        self.pending
            .drain(..ready)
            .map(|(shown, display, _)| (shown, display))
    }
}

impl Sweep {
    /// A sweep of `phases` start phases (at least one) over a capture whose
    /// display was `measured`.
    pub fn new(
        name: impl Into<String>,
        settings: Settings,
        measured: Measured,
        phases: u32,
    ) -> Sweep {
        let display = display_rate(&measured);
        let rule = Rule::new(settings.step_rate(), display);
        Sweep {
            name: name.into(),
            settings,
            measured,
            rule,
            phases: phases.max(1),
            lead_in: display.period_nanos(),
            planners: Vec::new(),
            display_fed: None,
            last_display: None,
            presented: 0,
            shown: 0,
            feedback: Feedback::default(),
        }
    }

    /// The next presented frame: its present time and, if it was shown, its
    /// display time (ns, same clock).
    pub fn push(&mut self, present: u64, display: Option<u64>) {
        let now = present.saturating_add(CLOCK_BASE);
        if self.planners.is_empty() {
            self.start(now);
        }
        let row = self.presented;
        self.presented += 1;
        let delay = self.settings.feedback_delay();
        for (shown_row, shown_at) in self.feedback.due(row, now, delay) {
            for seat in self.planners.iter_mut().flatten() {
                seat.planner.shown(shown_row, shown_at);
            }
        }
        for seat in self.planners.iter_mut().flatten() {
            seat.push(&self.measured, &self.rule, now, display);
        }
        let Some(display) = display else {
            return;
        };
        if self.last_display.is_some_and(|last| display <= last) {
            return;
        }
        self.last_display = Some(display);
        let shown_at = display.saturating_add(CLOCK_BASE);
        self.feedback.pending.push_back((row, shown_at, None));
        self.shown += 1;
        let shown = display.saturating_add(CLOCK_BASE);
        let half_step = whole_nanos(5e8 / self.settings.step_rate().as_f64());
        let step_nanos = self.step_nanos();
        let (planner, tally, judder) = self.display_fed.get_or_insert_with(|| {
            // Half a step off the first refresh, so that display times
            // exactly on the refresh lattice never sit on a step boundary.
            let anchor = shown.saturating_sub(self.lead_in + half_step);
            (
                Planner::new(Config::NaiveF64, &self.settings, anchor),
                Tally::new(),
                JudderBook::new(step_nanos),
            )
        });
        let fed = planner.plan(shown);
        tally.push(&self.measured, &self.rule, Some(display), fed.steps);
        judder.push(Some(display), fed.steps, fed.alpha);
    }

    /// A step, in ns.
    fn step_nanos(&self) -> f64 {
        1e9 / self.settings.step_rate().as_f64()
    }

    fn start(&mut self, first: u64) {
        let step = self.step_nanos();
        self.planners = Config::ALL
            .iter()
            .map(|&config| {
                (0..self.phases)
                    .map(|phase| {
                        let shift = whole_nanos(step * f64::from(phase) / f64::from(self.phases));
                        let anchor = first.saturating_sub(self.lead_in + shift);
                        Seat::new(Planner::new(config, &self.settings, anchor), step)
                    })
                    .collect()
            })
            .collect();
    }

    /// The verdicts.
    pub fn finish(mut self) -> SweepReport {
        for seat in self.planners.iter_mut().flatten() {
            seat.latency.flush();
            seat.judder.flush();
        }
        if let Some((_, _, judder)) = &mut self.display_fed {
            judder.flush();
        }
        let judged = self
            .display_fed
            .as_ref()
            .map_or(0, |(_, tally, _)| tally.judged());
        let seats = |index: usize| self.planners.get(index).map_or(&[][..], Vec::as_slice);
        let configs = Config::ALL
            .iter()
            .enumerate()
            .map(|(index, config)| PhaseCounts {
                config: config.key(),
                label: config.label(),
                wrong: if seats(index).is_empty() {
                    vec![0; self.phases as usize]
                } else {
                    seats(index).iter().map(|seat| seat.tally.wrong()).collect()
                },
            })
            .collect();
        let latency: Vec<PhaseLatency> = Config::ALL
            .iter()
            .enumerate()
            .map(|(index, config)| {
                let books = seats(index).iter().map(|seat| &seat.latency);
                PhaseLatency::of(config.key(), config.label(), books)
            })
            .collect();
        let judder = Config::ALL
            .iter()
            .enumerate()
            .map(|(index, config)| {
                let books = seats(index).iter().map(|seat| &seat.judder);
                PhaseJudder::of(config.key(), config.label(), books)
            })
            .collect();
        let display_fed_judder = PhaseJudder::of(
            "display_fed",
            "display-fed",
            self.display_fed.iter().map(|(_, _, judder)| judder),
        );
        let step_ms = self.step_nanos() / 1e6;
        let default_minus_off = crate::seen::default_minus_off(&latency, step_ms);
        SweepReport {
            name: self.name,
            presented: self.presented,
            shown: self.shown,
            judged,
            display: self.measured.describe(),
            sources: String::new(),
            phases: self.phases,
            configs,
            display_fed: self.display_fed.map_or(0, |(_, tally, _)| tally.wrong()),
            latency,
            latency_default_minus_off_steps: default_minus_off,
            judder,
            display_fed_judder,
        }
    }
}

/// The display rate a sweep judges by: the measured rate matched to a
/// common one, or, for a display that matched none, the measured rate to
/// the thousandth of a hertz.
pub(crate) fn display_rate(measured: &Measured) -> Rate {
    measured
        .nominal()
        .unwrap_or_else(|| approximate(measured.measured_hz()))
}

/// A rate to the thousandth of a hertz, for a display that matched no
/// common rate.
fn approximate(hz: f64) -> Rate {
    let milli = whole_nanos(hz * 1_000.0).max(1);
    Rate::ratio(milli, 1_000)
        .unwrap_or_else(|_| Rate::ratio(60, 1).unwrap_or_else(|_| unreachable!()))
}

/// Judges every configuration on `trace` over `phases` start phases, by its
/// display times; `display_hz`, when given, is the display's rate instead of
/// the one measured.
///
/// # Errors
///
/// [`TimingError`] when the trace has no display times, or they keep no
/// steady rate and no rate is given.
pub fn judge_trace(
    trace: &Trace,
    settings: Settings,
    display_hz: Option<Rate>,
    phases: u32,
) -> Result<SweepReport, TimingError> {
    let display = trace.display().ok_or(TimingError::TooFew { found: 0 })?;
    let measured = if let Some(rate) = display_hz {
        Measured::given(rate)
    } else {
        let mut timing = DisplayTiming::new();
        for &shown in display.iter().flatten() {
            timing.push(shown);
        }
        timing.measure()?
    };
    let mut sweep = Sweep::new(trace.name(), settings, measured, phases);
    for (&present, &shown) in trace.stamps().iter().zip(display) {
        sweep.push(present, shown);
    }
    let mut report = sweep.finish();
    "present times: the trace's stamps; display times: its refreshes"
        .clone_into(&mut report.sources);
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::Feedback;

    #[test]
    fn a_display_time_reaches_the_first_row_presented_strictly_after_it_plus_the_delay() {
        let mut feedback = Feedback::default();
        // Row 0 shown at 30, row 1 at 50; rows are presented at 10, 20, ...
        feedback.pending.push_back((0, 30, None));
        feedback.pending.push_back((1, 50, None));
        let mut due = Vec::new();
        for row in 1..8_u64 {
            let now = 10 + row * 10;
            due.push((row, feedback.due(row, now, 0).collect::<Vec<_>>()));
        }
        // Row 2 is presented at 30, not after it: row 3 (at 40) is first.
        assert_eq!(due[1], (2, vec![]));
        assert_eq!(due[2], (3, vec![(0, 30)]));
        assert_eq!(due[4], (5, vec![(1, 50)]));
        // A delay of two rows: the first row after it, then two more.
        let mut feedback = Feedback::default();
        feedback.pending.push_back((0, 30, None));
        let rows: Vec<usize> = (1..8_u64)
            .map(|row| feedback.due(row, 10 + row * 10, 2).count())
            .collect();
        assert_eq!(rows, [0, 0, 0, 0, 1, 0, 0]);
    }

    #[test]
    fn reports_for_rows_the_planner_no_longer_remembers_are_dropped_unsent() {
        let mut feedback = Feedback::default();
        feedback.pending.push_back((0, 1_000, None));
        feedback.pending.push_back((40, 1_000, None));
        let due: Vec<_> = feedback.due(40, 2_000, 0).collect();
        assert_eq!(due, [(40, 1_000)]);
        assert!(feedback.pending.is_empty());
    }
}

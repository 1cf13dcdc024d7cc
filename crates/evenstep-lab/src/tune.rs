//! Leave-one-family-out: how each of pacing's tuned constants
//! ([`evenstep_core::tuning`]) does on traces it was not chosen on. One
//! knob at a time, the others at their shipped values, every value the
//! knob's table tries is judged on every training trace (the suite's
//! profiles with display times, and the captures given); the objective is
//! the sum over the traces of the default's wrong shown frames, over every
//! start phase, once without display feedback and once with it. The value
//! picked on all the traces is the in-sample figure; for the out-of-sample
//! one, each family of traces (a capture, or the suite's profiles of one
//! generator: [`Profile::family`](crate::Profile::family)) is judged at the
//! value picked on the others.

use std::fmt::Write as _;
use std::path::PathBuf;

use evenstep_core::tuning::{self, Knob};

use crate::{Config, Rate, Settings, SweepReport, Trace, judge_file, judge_trace};

/// What each knob is judged by: the default without display feedback, and
/// with it.
pub const OBJECTIVES: [Config; 2] = [Config::Locked, Config::Feedback];

/// The traces the knobs are chosen on.
#[derive(Clone, Debug)]
pub struct Training {
    /// How the planners run.
    pub settings: Settings,
    /// Start phases judged on each trace.
    pub phases: u32,
    /// Traces with display times (the suite's profiles, generated once);
    /// those without a steady refresh are not judged.
    pub traces: Vec<Trace>,
    /// The family of each of `traces` ([`Profile::family`](crate::Profile::family)):
    /// traces of one family are left out together. Empty: each trace is
    /// its own family, as each capture always is.
    pub families: Vec<String>,
    /// Captures, judged at the rate measured from their display times.
    pub captures: Vec<PathBuf>,
    /// The captures' display rate, when given.
    pub display_hz: Option<Rate>,
}

impl Training {
    /// Judges every trace at the knobs' current values: for each trace,
    /// its name and its wrong shown frames (summed over the start phases)
    /// for each of the [`OBJECTIVES`].
    ///
    /// # Errors
    ///
    /// A capture that cannot be read or judged, named with its path.
    pub fn judge(&self) -> Result<Vec<(String, [u64; 2])>, String> {
        Ok(self
            .judged()?
            .into_iter()
            .map(|(name, _, scores)| (name, scores))
            .collect())
    }

    /// As [`judge`](Training::judge), with each trace's family.
    fn judged(&self) -> Result<Vec<(String, String, [u64; 2])>, String> {
        if !self.families.is_empty() && self.families.len() != self.traces.len() {
            return Err(format!(
                "{} families for {} traces: name one for every trace, or none",
                self.families.len(),
                self.traces.len()
            ));
        }
        let mut judged = Vec::new();
        for (t, trace) in self.traces.iter().enumerate() {
            // A trace without a steady refresh (variable refresh) is not
            // judged by the frames shown, in the suite either.
            if let Ok(report) = judge_trace(trace, self.settings, None, self.phases) {
                let (name, scores) = scored(&report);
                let family = self
                    .families
                    .get(t)
                    .cloned()
                    .unwrap_or_else(|| name.clone());
                judged.push((name, family, scores));
            }
        }
        for path in &self.captures {
            let report = judge_file(path, self.settings, self.display_hz, None, self.phases)
                .map_err(|error| format!("{}: {error}", path.display()))?;
            let (name, scores) = scored(&report);
            judged.push((name.clone(), name, scores));
        }
        Ok(judged)
    }
}

fn scored(report: &SweepReport) -> (String, [u64; 2]) {
    (
        report.name.clone(),
        OBJECTIVES.map(|config| report.counts(config).total()),
    )
}

/// One objective's choice of a knob's value, from the wrong frames of
/// every value on every trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The index of the value picked on all the traces.
    pub picked: usize,
    /// The objective at that value: the in-sample figure.
    pub in_sample: u64,
    /// Each trace judged at the value picked on the others, summed.
    pub left_out: u64,
    /// The objective at the shipped value.
    pub shipped: u64,
    /// Families left out on which the value picked on the others was not
    /// the one picked on all of them.
    pub moved: usize,
}

impl Choice {
    /// Chooses from `wrong[v][t]`, the wrong frames of value `v` on trace
    /// `t`, the shipped value being `shipped`. The value with the least sum
    /// is picked; a tie goes to the shipped value, then to the first.
    /// `None` when `shipped` is not one of the values, or the values were
    /// not all judged on the same traces.
    pub fn of(wrong: &[Vec<u64>], shipped: usize) -> Option<Choice> {
        let each_its_own: Vec<usize> = (0..wrong.get(shipped)?.len()).collect();
        Choice::of_families(wrong, shipped, &each_its_own)
    }

    /// As [`of`](Choice::of), leaving out together the traces of one
    /// family: `family[t]` names trace `t`'s. `None` also when `family`
    /// does not name one for every trace.
    pub fn of_families(wrong: &[Vec<u64>], shipped: usize, family: &[usize]) -> Option<Choice> {
        let traces = wrong.get(shipped)?.len();
        if wrong.iter().any(|row| row.len() != traces) || family.len() != traces {
            return None;
        }
        let pick = |left_out: Option<usize>| {
            let sum = |v: usize| -> u64 {
                (0..traces)
                    .filter(|&t| Some(family[t]) != left_out)
                    .map(|t| wrong[v][t])
                    .sum()
            };
            (0..wrong.len())
                .min_by_key(|&v| (sum(v), v != shipped, v))
                .unwrap_or(shipped)
        };
        let picked = pick(None);
        let mut families: Vec<usize> = family.to_vec();
        families.sort_unstable();
        families.dedup();
        let mut moved = 0;
        let left_out = families
            .into_iter()
            .map(|f| {
                let on_the_others = pick(Some(f));
                moved += usize::from(on_the_others != picked);
                (0..traces)
                    .filter(|&t| family[t] == f)
                    .map(|t| wrong[on_the_others][t])
                    .sum::<u64>()
            })
            .sum();
        Some(Choice {
            picked,
            in_sample: wrong[picked].iter().sum(),
            left_out,
            shipped: wrong[shipped].iter().sum(),
            moved,
        })
    }
}

/// What leave-one-out found for one knob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KnobReport {
    /// The knob.
    pub knob: Knob,
    /// Its choice by each of the [`OBJECTIVES`].
    pub choices: [Choice; 2],
}

/// The whole run: the traces, and every knob's choices.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TuningReport {
    /// The training traces' names, in order.
    pub traces: Vec<String>,
    /// How many families they fall in (each left out together).
    pub families: usize,
    /// Start phases judged on each trace.
    pub phases: u32,
    /// One a knob, in the table's order.
    pub knobs: Vec<KnobReport>,
}

/// Runs leave-one-family-out for every knob of pacing, on `training`.
/// Every knob is back at its shipped value afterwards, whatever happened.
///
/// The knobs are process-wide: nothing else in the process may plan while
/// it runs.
///
/// # Errors
///
/// A capture that cannot be read or judged, named with its path.
pub fn leave_one_out(training: &Training) -> Result<TuningReport, String> {
    tuning::reset();
    let result = run_every_knob(training);
    tuning::reset();
    result
}

fn run_every_knob(training: &Training) -> Result<TuningReport, String> {
    let judged = training.judged()?;
    // Each trace's family, numbered by first appearance.
    let mut distinct: Vec<&str> = Vec::new();
    let family: Vec<usize> = judged
        .iter()
        .map(|(_, name, _)| {
            distinct.iter().position(|d| d == name).unwrap_or_else(|| {
                distinct.push(name);
                distinct.len() - 1
            })
        })
        .collect();
    let families = distinct.len();
    let shipped_run: Vec<(String, [u64; 2])> = judged
        .iter()
        .map(|(name, _, scores)| (name.clone(), *scores))
        .collect();
    let traces = shipped_run.iter().map(|(name, _)| name.clone()).collect();
    let mut knobs = Vec::new();
    for &knob in tuning::knobs() {
        // wrong[objective][value][trace]
        let mut wrong: [Vec<Vec<u64>>; 2] = [Vec::new(), Vec::new()];
        let mut shipped = 0;
        for (v, &value) in knob.tried().iter().enumerate() {
            let run = if value == knob.shipped() {
                shipped = v;
                shipped_run.clone()
            } else {
                knob.set(value).map_err(|error| error.to_string())?;
                let run = training.judge();
                tuning::reset();
                run?
            };
            for (o, per_value) in wrong.iter_mut().enumerate() {
                per_value.push(run.iter().map(|(_, scores)| scores[o]).collect());
            }
        }
        let choose = |o: usize| {
            Choice::of_families(&wrong[o], shipped, &family).ok_or_else(|| {
                format!(
                    "{}: the shipped value is not among those tried",
                    knob.name()
                )
            })
        };
        knobs.push(KnobReport {
            knob,
            choices: [choose(0)?, choose(1)?],
        });
    }
    Ok(TuningReport {
        traces,
        families,
        phases: training.phases,
        knobs,
    })
}

impl TuningReport {
    /// A Markdown table: for each knob the values tried and, for each
    /// objective, the value picked with its in-sample sum, the
    /// leave-one-out sum, and the sum at the shipped value; sums are of
    /// the traces' means over the start phases.
    pub fn table(&self) -> String {
        let phases = f64::from(self.phases.max(1));
        let mean = |total: u64| total as f64 / phases;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "Leave-one-family-out over {} traces ({}) in {} families (each capture its own, \
             and the suite's jittery displays, shallow vsync queues and deep vsync queues), \
             {} start phases each; sums of the traces' mean wrong shown frames. \"moved\": \
             families left out on which the others picked another value.\n",
            self.traces.len(),
            self.traces.join(", "),
            self.families,
            self.phases
        );
        let _ = writeln!(
            out,
            "| knob | tried | shipped | default: pick | in sample | left out | shipped | moved \
             | with feedback: pick | in sample | left out | shipped | moved |"
        );
        let _ = writeln!(out, "|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        for report in &self.knobs {
            let knob = report.knob;
            let tried: Vec<String> = knob.tried().iter().map(u32::to_string).collect();
            let _ = write!(
                out,
                "| {} | {} | {} |",
                knob.name(),
                tried.join(", "),
                knob.shipped()
            );
            for choice in &report.choices {
                let _ = write!(
                    out,
                    " {} | {:.1} | {:.1} | {:.1} | {} |",
                    knob.tried()[choice.picked],
                    mean(choice.in_sample),
                    mean(choice.left_out),
                    mean(choice.shipped),
                    choice.moved
                );
            }
            out.push('\n');
        }
        out
    }
}

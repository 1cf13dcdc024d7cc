//! Reports: every configuration run over every trace and measured, printed
//! as a plain table or serialized as JSON.

use core::fmt::Write as _;

use serde::Serialize;

use crate::config::{Config, Settings, WARM_UP_FRAMES};
use crate::metrics::Metrics;
use crate::run::Run;
use crate::stutter::Cadence;
use crate::sweep::{SweepReport, judge_trace};
use crate::table::Table;
use crate::trace::{Refresh, Trace};

/// Start phases swept when a trace is judged by its display times, unless
/// told otherwise.
pub const DEFAULT_PHASES: u32 = 8;

/// One configuration's line in a [`TraceReport`].
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ConfigReport {
    /// The configuration's machine-readable name ([`Config::key`]).
    pub config: &'static str,
    /// Its label ([`Config::label`]).
    pub label: &'static str,
    /// What was measured.
    #[serde(flatten)]
    pub metrics: Metrics,
}

/// Every configuration over one trace.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceReport {
    /// The trace's name.
    pub name: String,
    /// Frames in the trace.
    pub frames: usize,
    /// The display's refresh, for people (`59.94 Hz`), and how it was found
    /// when it was estimated or given.
    pub display: String,
    /// The display's refresh rate exactly (`60000/1001`), when it is fixed.
    pub display_hz_exact: Option<String>,
    /// The ideal cadence stutter is judged against.
    pub cadence: String,
    /// Wall time from the anchor to the last frame, in milliseconds.
    pub wall_ms: f64,
    /// One entry per configuration, in [`Config::ALL`] order.
    pub configs: Vec<ConfigReport>,
    /// The verdicts by the frames shown, when the trace has display times
    /// with a steady rate.
    pub judged: Option<SweepReport>,
    /// Why the trace was not judged by its display times, when it has them.
    pub not_judged: Option<String>,
    #[serde(skip)]
    trace: Trace,
    #[serde(skip)]
    runs: Vec<Run>,
}

impl TraceReport {
    /// Runs every configuration over `trace` and measures each; a trace
    /// with display times is also judged by them over `phases` start
    /// phases.
    pub fn analyse(trace: &Trace, settings: &Settings, phases: u32) -> TraceReport {
        let cadence = Cadence::new(settings.step_rate(), trace.refresh());
        let runs: Vec<Run> = Config::ALL
            .iter()
            .map(|&config| Run::new(trace, config, settings))
            .collect();
        let configs = runs
            .iter()
            .map(|run| ConfigReport {
                config: run.config().key(),
                label: run.config().label(),
                metrics: Metrics::measure(trace, run, &cadence, WARM_UP_FRAMES),
            })
            .collect();
        let display_hz_exact = match trace.refresh() {
            Refresh::Fixed(rate) => Some(rate.exact()),
            Refresh::Variable { .. } => None,
        };
        let (judged, not_judged) = match trace.display() {
            None => (None, None),
            Some(_) => match judge_trace(trace, *settings, None, phases) {
                Ok(report) => (Some(report), None),
                Err(error) => (None, Some(error.to_string())),
            },
        };
        TraceReport {
            judged,
            not_judged,
            name: trace.name().to_owned(),
            frames: trace.len(),
            display: trace
                .refresh_note()
                .map_or_else(|| trace.refresh().to_string(), str::to_owned),
            display_hz_exact,
            cadence: cadence.to_string(),
            wall_ms: trace.wall_times().last().copied().unwrap_or(0) as f64 / 1e6,
            configs,
            trace: trace.clone(),
            runs,
        }
    }

    /// The trace analysed.
    pub fn trace(&self) -> &Trace {
        &self.trace
    }

    /// The runs, one per configuration, in [`Config::ALL`] order.
    pub fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// The metrics of `config`.
    pub fn metrics(&self, config: Config) -> &Metrics {
        let index = Config::ALL.iter().position(|&c| c == config).unwrap_or(0);
        &self.configs[index].metrics
    }
}

/// Every configuration over every trace, with the settings used.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Config, Jitter, Rate, Report, Settings, Synthetic};
///
/// let trace = Synthetic::new(Rate::hz(60)?).frames(1_000)?.jitter_us(1_000, Jitter::Uniform).generate();
/// let report = Report::new(Settings::default(), &[trace]);
/// assert_eq!(report.traces[0].metrics(Config::Centred).stutter, 0);
/// assert!(report.table().contains("evenstep snapped"));
/// assert!(report.json().starts_with('{'));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Report {
    /// Steps a second, for people.
    pub step_hz: String,
    /// Steps a second, exactly.
    pub step_hz_exact: String,
    /// evenstep's step budget, in steps a frame.
    pub budget: u32,
    /// The snapped configuration's tolerance, in milliseconds.
    pub snap_tolerance_ms: f64,
    /// Frames the stutter count skips at the start of each trace.
    pub warm_up_frames: usize,
    /// One report per trace, in the order given.
    pub traces: Vec<TraceReport>,
    /// Captures judged by their display times, streamed rather than held
    /// (see [`judge_file`](crate::judge_file)).
    pub captures: Vec<SweepReport>,
}

impl Report {
    /// Runs every configuration over each of `traces` with `settings`,
    /// judging those with display times over [`DEFAULT_PHASES`] start
    /// phases.
    pub fn new(settings: Settings, traces: &[Trace]) -> Report {
        Report::with_phases(settings, traces, DEFAULT_PHASES)
    }

    /// [`Report::new`], judging over `phases` start phases.
    pub fn with_phases(settings: Settings, traces: &[Trace], phases: u32) -> Report {
        Report {
            step_hz: settings.step_rate().to_string(),
            step_hz_exact: settings.step_rate().exact(),
            budget: settings.budget().get(),
            snap_tolerance_ms: settings.snap_tolerance().as_nanos() as f64 / 1e6,
            warm_up_frames: WARM_UP_FRAMES,
            traces: traces
                .iter()
                .map(|trace| TraceReport::analyse(trace, &settings, phases))
                .collect(),
            captures: Vec::new(),
        }
    }

    /// The same report, with `captures` judged beside the traces.
    #[must_use = "`with_captures` returns the changed report"]
    pub fn with_captures(mut self, captures: Vec<SweepReport>) -> Report {
        self.captures = captures;
        self
    }

    /// The report as pretty-printed JSON (per-frame data is not included).
    pub fn json(&self) -> String {
        serde_json::to_string_pretty(self)
            .unwrap_or_else(|error| format!("{{\"error\": \"{error}\"}}"))
    }

    /// The report as a plain text table: a block per trace with a row per
    /// configuration, then (for several traces) a summary of stutter counts,
    /// then what the columns mean.
    pub fn table(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "evenstep-lab: {} steps/s, budget {} steps, snap tolerance {} ms; \
             stutter skips the first {} frames of each trace",
            self.step_hz.trim_end_matches(" Hz"),
            self.budget,
            self.snap_tolerance_ms,
            self.warm_up_frames,
        );
        for (index, trace) in self.traces.iter().enumerate() {
            trace_block(&mut out, index + 1, trace);
        }
        for (index, capture) in self.captures.iter().enumerate() {
            let _ = write!(out, "\n#{} ", self.traces.len() + index + 1);
            out.push_str(&capture.table());
        }
        if self.traces.len() > 1 {
            self.summary(&mut out);
        }
        if self.judged().count() > 1 {
            self.judged_summary(&mut out);
            let phases = self.most_phases();
            crate::seen::latency_summary(&mut out, phases, self.judged());
            crate::seen::judder_summary(&mut out, phases, self.judged());
        }
        if self.traces.is_empty() {
            out.push('\n');
        } else {
            out.push_str(KEY);
        }
        out.push_str(NAIVE_KEY);
        out
    }

    /// Every verdict by the frames shown, traces first, then captures, each
    /// with its number in the table.
    fn judged(&self) -> impl Iterator<Item = (usize, &SweepReport)> {
        let traces = self
            .traces
            .iter()
            .enumerate()
            .filter_map(|(index, trace)| Some((index + 1, trace.judged.as_ref()?)));
        let captures = self
            .captures
            .iter()
            .enumerate()
            .map(|(index, capture)| (self.traces.len() + index + 1, capture));
        traces.chain(captures)
    }

    /// The most start phases any verdict swept.
    fn most_phases(&self) -> u32 {
        self.judged()
            .map(|(_, judged)| judged.phases)
            .max()
            .unwrap_or(1)
    }

    fn judged_summary(&self, out: &mut String) {
        let phases = self.most_phases();
        let _ = writeln!(
            out,
            "\nwrong shown frames, mean / worst over {phases} start phases, planners fed the present \
             times\n{JUDGED_LABEL}:"
        );
        let mut least = vec![42];
        least.extend(Config::ALL.map(|_| 18));
        least.push(14);
        let mut table = Table::new(&least);
        table.row(
            core::iter::once("trace")
                .chain(Config::ALL.map(Config::label))
                .chain(core::iter::once("display-fed")),
        );
        for (number, judged) in self.judged() {
            let name = format!("#{number} {}", judged.name);
            let cells = judged
                .configs
                .iter()
                .map(|counts| format!("{:.1} / {}", counts.mean(), counts.worst()));
            table.row(
                core::iter::once(name)
                    .chain(cells)
                    .chain(core::iter::once(judged.display_fed.to_string())),
            );
        }
        out.push_str(&table.render(""));
    }

    fn summary(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "\nstuttering frames, after the first {} of each trace\n{STUTTER_LABEL}:",
            self.warm_up_frames
        );
        let mut least = vec![42];
        least.extend(Config::ALL.map(|_| 18));
        let mut table = Table::new(&least);
        table.row(core::iter::once("trace").chain(Config::ALL.map(Config::label)));
        for (index, trace) in self.traces.iter().enumerate() {
            let name = format!("#{} {}", index + 1, trace.name);
            let cells = trace
                .configs
                .iter()
                .map(|line| line.metrics.stutter.to_string());
            table.row(core::iter::once(name).chain(cells));
        }
        out.push_str(&table.render(""));
    }
}

/// Trace `number`'s block of the table: its heading, a row per
/// configuration, and its verdicts by the frames shown (or why there are
/// none).
fn trace_block(out: &mut String, number: usize, trace: &TraceReport) {
    let _ = writeln!(
        out,
        "\n#{number} {}: {} frames on {}, ideal {}",
        trace.name, trace.frames, trace.display, trace.cadence
    );
    out.push_str(&metrics_table(trace).render(""));
    if let Some(judged) = &trace.judged {
        out.push_str("judged by the frames shown: ");
        out.push_str(&judged.table());
    }
    if let Some(reason) = &trace.not_judged {
        let _ = writeln!(out, "not judged by the frames shown: {reason}");
    }
}

/// A row per configuration of `trace`: its steps-per-frame histogram,
/// stutter, drift, dropped time and phase shift.
fn metrics_table(trace: &TraceReport) -> Table {
    let mut table = Table::new(&[17, 7, 7, 7, 7, 7, 8, 8, 11, 11, 12, 10]);
    table.row([
        "configuration",
        "0",
        "1",
        "2",
        "3",
        "4+",
        "stutter",
        "double",
        "drift ms",
        "drift ppm",
        "dropped ms",
        "shift ms",
    ]);
    for line in &trace.configs {
        let m = &line.metrics;
        let [zero, one, two, three, more] = m.histogram.counts();
        let shift = m
            .phase_shift_ms
            .map_or_else(|| "-".to_owned(), |ms| format!("{ms:+.3}"));
        table.row([
            line.label.to_owned(),
            zero.to_string(),
            one.to_string(),
            two.to_string(),
            three.to_string(),
            more.to_string(),
            m.stutter.to_string(),
            m.double_updates.to_string(),
            format!("{:+.3}", m.drift_ms),
            format!("{:+.1}", m.drift_ppm),
            format!("{:.3}", m.dropped_ms),
            shift,
        ]);
    }
    table
}

/// What the stutter summary judges, printed under its heading: the two
/// summaries can disagree, and only one carries the lab's targets.
const STUTTER_LABEL: &str = "  judges each frame by its own stamps' cadence, the ideal step \
pattern for the refreshes they span:
  stricter than the screen needs (on 75, 144 and 165 Hz it counts frames the display judges \
right); a diagnostic, not the lab's targets";

/// What the wrong-shown-frames summary judges, printed under its heading.
const JUDGED_LABEL: &str = "  judges each shown frame's steps against the refreshes it stayed \
on screen, by its display times:
  the lab's targets are set on this table";

/// What the stutter table's columns mean.
const KEY: &str = "
columns: 0 1 2 3 4+ = frames that ran that many steps; stutter = frames whose
step count departs from the ideal cadence of the trace's own stamps (see
`evenstep-lab --help`; a diagnostic: the lab's targets are set on wrong shown
frames, judged by the display times);
double = frames spanning one refresh that ran 2+ steps; drift = simulated time
(steps run x dt) minus wall time since the anchor, at the last frame (a bank
that flickers across a step boundary swings it by a step from frame to frame);
dropped = time refused by the step budget (naive f64: time over its 0.25 s
clamp); shift = time evenstep's pacing added to the bank (-: not applicable).
";

/// What the naive f64 configuration is.
const NAIVE_KEY: &str = "The naive f64 configuration is the plain floating-point accumulator most
engines and crates use: acc += min(delta, 0.25 s); while acc >= dt { acc -= dt;
step }.
";

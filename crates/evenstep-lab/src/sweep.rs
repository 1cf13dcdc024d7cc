//! Judging every configuration by what the player saw, over a sweep of
//! start phases: each planner is fed the present times of a capture (every
//! row, shown or not) and judged on its shown frames by the [`Rule`], once
//! for each start phase (the planner's anchor moved back by `i/n` of a
//! step), because where a game's first frame falls against the step decides
//! what a plain accumulator does for the rest of the run. Beside them, a
//! naive accumulator fed the display times says what knowing the truth
//! gives. Rows are taken one at a time, so a capture of any length is
//! judged in fixed memory.

use core::fmt;
use core::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::planner::whole_nanos;
use crate::table::Table;
use crate::{
    CaptureError, Config, DisplayTiming, Layout, Measured, Planner, ProcessFilter, Rate, Refresh,
    Rows, Rule, Settings, Survey, Tally, TimingError, Trace,
};

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
}

impl SweepReport {
    /// The counts of `config`.
    pub fn counts(&self, config: Config) -> &PhaseCounts {
        let index = Config::ALL.iter().position(|&c| c == config).unwrap_or(0);
        &self.configs[index]
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
        out
    }
}

/// The planners of a sweep, fed a row at a time.
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
    planners: Vec<Vec<(Planner, Tally)>>,
    display_fed: Option<(Planner, Tally)>,
    last_display: Option<u64>,
    presented: u64,
    shown: u64,
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
        let display = measured
            .nominal()
            .unwrap_or_else(|| approximate(measured.measured_hz()));
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
        }
    }

    /// The next presented frame: its present time and, if it was shown, its
    /// display time (ns, same clock).
    pub fn push(&mut self, present: u64, display: Option<u64>) {
        let now = present.saturating_add(CLOCK_BASE);
        if self.planners.is_empty() {
            self.start(now);
        }
        self.presented += 1;
        for tallies in &mut self.planners {
            for (planner, tally) in tallies.iter_mut() {
                let steps = planner.frame(now);
                tally.push(&self.measured, &self.rule, display, steps);
            }
        }
        let Some(display) = display else {
            return;
        };
        if self.last_display.is_some_and(|last| display <= last) {
            return;
        }
        self.last_display = Some(display);
        self.shown += 1;
        let shown = display.saturating_add(CLOCK_BASE);
        let half_step = whole_nanos(5e8 / self.settings.step_rate().as_f64());
        let (planner, tally) = self.display_fed.get_or_insert_with(|| {
            // Half a step off the first refresh, so that display times
            // exactly on the refresh lattice never sit on a step boundary.
            let anchor = shown.saturating_sub(self.lead_in + half_step);
            (
                Planner::new(Config::NaiveF64, &self.settings, anchor),
                Tally::new(),
            )
        });
        let steps = planner.frame(shown);
        tally.push(&self.measured, &self.rule, Some(display), steps);
    }

    fn start(&mut self, first: u64) {
        let step = 1e9 / self.settings.step_rate().as_f64();
        self.planners = Config::ALL
            .iter()
            .map(|&config| {
                (0..self.phases)
                    .map(|phase| {
                        let shift = whole_nanos(step * f64::from(phase) / f64::from(self.phases));
                        let anchor = first.saturating_sub(self.lead_in + shift);
                        (Planner::new(config, &self.settings, anchor), Tally::new())
                    })
                    .collect()
            })
            .collect();
    }

    /// The verdicts.
    pub fn finish(self) -> SweepReport {
        let judged = self
            .display_fed
            .as_ref()
            .map_or(0, |(_, tally)| tally.judged());
        let configs = Config::ALL
            .iter()
            .enumerate()
            .map(|(index, config)| PhaseCounts {
                config: config.key(),
                label: config.label(),
                wrong: self.planners.get(index).map_or_else(
                    || vec![0; self.phases as usize],
                    |tallies| tallies.iter().map(|(_, tally)| tally.wrong()).collect(),
                ),
            })
            .collect();
        SweepReport {
            name: self.name,
            presented: self.presented,
            shown: self.shown,
            judged,
            display: self.measured.describe(),
            sources: String::new(),
            phases: self.phases,
            configs,
            display_fed: self.display_fed.map_or(0, |(_, tally)| tally.wrong()),
        }
    }
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

/// Why a capture file could not be judged.
#[derive(Debug)]
pub enum JudgeError {
    /// The file could not be read.
    Io(std::io::Error),
    /// The file is not a capture this lab reads.
    Capture(CaptureError),
    /// Its display keeps no rate the rule can judge by.
    Timing(TimingError),
    /// A pipe gave more than [`MAX_PIPED_BYTES`].
    TooLong,
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Io(error) => write!(f, "{error}"),
            JudgeError::Capture(error) => write!(f, "{error}"),
            JudgeError::Timing(error) => write!(f, "{error}"),
            JudgeError::TooLong => write!(
                f,
                "more than {MAX_PIPED_BYTES} bytes ({} MiB, MAX_PIPED_BYTES) from a pipe; a \
                 capture that long is read from a file, which is streamed",
                MAX_PIPED_BYTES >> 20
            ),
        }
    }
}

impl std::error::Error for JudgeError {}

impl From<CaptureError> for JudgeError {
    fn from(error: CaptureError) -> JudgeError {
        JudgeError::Capture(error)
    }
}

impl From<TimingError> for JudgeError {
    fn from(error: TimingError) -> JudgeError {
        JudgeError::Timing(error)
    }
}

impl From<std::io::Error> for JudgeError {
    fn from(error: std::io::Error) -> JudgeError {
        JudgeError::Io(error)
    }
}

/// The most bytes read from a capture that is not a regular file (a pipe,
/// `/dev/stdin`): 128 MiB. Such a capture can be read only once, so it is
/// read into memory and judged from there; a file is streamed instead, in
/// fixed memory whatever its length.
pub const MAX_PIPED_BYTES: u64 = 128 << 20;

/// Reads a capture that can be read only once (a pipe) into memory.
///
/// # Errors
///
/// [`JudgeError::Io`] when it cannot be read, and [`JudgeError::TooLong`]
/// past [`MAX_PIPED_BYTES`].
pub fn read_piped<R: Read>(input: R) -> Result<Vec<u8>, JudgeError> {
    let mut bytes = Vec::new();
    input.take(MAX_PIPED_BYTES + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_PIPED_BYTES {
        return Err(JudgeError::TooLong);
    }
    Ok(bytes)
}

/// A capture to judge: a regular file, streamed once for each pass, or the
/// bytes of anything else (a pipe, `/dev/stdin`), read once.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Capture, Settings};
///
/// let mut text = String::from("present_ms,display_ms\n");
/// for k in 0..120 {
///     text += &format!("{}.0,{}.0\n", k * 16, k * 16 + 40);
/// }
/// let capture = Capture::Bytes { name: "steady".into(), bytes: text.into_bytes() };
/// let report = capture.judge(Settings::default(), "62.5".parse().ok(), None, 2)?;
/// assert_eq!((report.presented, report.shown, report.judged), (120, 120, 119));
/// assert_eq!(capture.trace(None, None)?.len(), 120);
/// # Ok::<(), evenstep_lab::JudgeError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Capture {
    /// A regular file.
    File {
        /// Its name, for the report.
        name: String,
        /// Where it is.
        path: PathBuf,
    },
    /// A capture read into memory.
    Bytes {
        /// Its name, for the report.
        name: String,
        /// Its bytes.
        bytes: Vec<u8>,
    },
}

impl Capture {
    /// The capture at `path`, named by its file name: a regular file as it
    /// is, anything else read once ([`read_piped`]).
    ///
    /// # Errors
    ///
    /// [`JudgeError::Io`] when it cannot be opened or read, and
    /// [`JudgeError::TooLong`] for a pipe past [`MAX_PIPED_BYTES`].
    pub fn open(path: &Path) -> Result<Capture, JudgeError> {
        let name = path.file_name().map_or_else(
            || path.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        if std::fs::metadata(path)?.is_file() {
            return Ok(Capture::File {
                name,
                path: path.to_owned(),
            });
        }
        let bytes = read_piped(std::fs::File::open(path)?)?;
        Ok(Capture::Bytes { name, bytes })
    }

    /// Its name.
    pub fn name(&self) -> &str {
        match self {
            Capture::File { name, .. } | Capture::Bytes { name, .. } => name,
        }
    }

    /// Its bytes from the start, once more.
    fn reader(&self) -> Result<Box<dyn Read + '_>, JudgeError> {
        Ok(match self {
            Capture::File { path, .. } => {
                Box::new(std::io::BufReader::new(std::fs::File::open(path)?))
            }
            Capture::Bytes { bytes, .. } => Box::new(bytes.as_slice()),
        })
    }

    /// Its whole text, for a trace of one column of stamps (which is held in
    /// memory anyway).
    ///
    /// # Errors
    ///
    /// [`JudgeError::Io`] when it cannot be read, or is not UTF-8 text.
    pub fn text(&self) -> Result<String, JudgeError> {
        let mut text = String::new();
        self.reader()?.read_to_string(&mut text)?;
        Ok(text)
    }

    /// The display's refresh: `display_hz` when given, else measured from
    /// the display times (a pass over the rows).
    fn measure(
        &self,
        layout: &Layout,
        display_hz: Option<Rate>,
        process: Option<&ProcessFilter>,
    ) -> Result<Measured, JudgeError> {
        if let Some(rate) = display_hz {
            return Ok(Measured::given(rate));
        }
        let mut timing = DisplayTiming::new();
        for row in Rows::new(self.reader()?, layout.clone(), process.cloned())? {
            if let Some(shown) = row?.display {
                timing.push(shown);
            }
        }
        Ok(timing.measure()?)
    }

    /// Judges every configuration on the capture, in three passes (to
    /// survey its columns and processes, to measure its display, to run the
    /// planners), so that memory stays flat whatever its length.
    /// `display_hz`, when given, is the display's rate instead of the one
    /// measured; `process` picks one process of a log that holds several.
    ///
    /// # Errors
    ///
    /// [`JudgeError`] when it cannot be read, is not a capture with present
    /// and display times, holds several processes and none is chosen, or its
    /// display keeps no steady rate and none is given.
    pub fn judge(
        &self,
        settings: Settings,
        display_hz: Option<Rate>,
        process: Option<&ProcessFilter>,
        phases: u32,
    ) -> Result<SweepReport, JudgeError> {
        let survey = Survey::of(self.reader()?)?;
        let layout = survey.plan(process)?;
        let measured = self.measure(&layout, display_hz, process)?;
        let mut sweep = Sweep::new(self.name(), settings, measured, phases);
        for row in Rows::new(self.reader()?, layout.clone(), process.cloned())? {
            let row = row?;
            sweep.push(row.present, row.display);
        }
        let mut report = sweep.finish();
        let mut sources = format!(
            "present times: {}; display times: {}",
            layout.present(),
            layout.display()
        );
        if survey.time_in_seconds_is_coarse() {
            let _ = write!(
                sources,
                " (TimeInSeconds has {} decimal(s), too coarse to time frames)",
                survey.time_decimals.unwrap_or(0)
            );
        }
        if let Some(filter) = process {
            let _ = write!(sources, "; process {filter}");
        }
        report.sources = sources;
        Ok(report)
    }

    /// The capture as a [`Trace`] held in memory (present times as its
    /// stamps, with its display times), on the display's rate: `display_hz`,
    /// or the one measured matched to a common rate, or the measured rate to
    /// a thousandth of a hertz. For plotting; judging streams instead.
    ///
    /// # Errors
    ///
    /// [`JudgeError`], as for [`Capture::judge`].
    pub fn trace(
        &self,
        display_hz: Option<Rate>,
        process: Option<&ProcessFilter>,
    ) -> Result<Trace, JudgeError> {
        let layout = Survey::of(self.reader()?)?.plan(process)?;
        let measured = self.measure(&layout, display_hz, process)?;
        let mut stamps = Vec::new();
        let mut display = Vec::new();
        for row in Rows::new(self.reader()?, layout, process.cloned())? {
            let row = row?;
            stamps.push(row.present);
            display.push(row.display);
        }
        let rate = measured
            .nominal()
            .unwrap_or_else(|| approximate(measured.measured_hz()));
        Ok(Trace::new(self.name(), stamps, Refresh::Fixed(rate))
            .with_display(display)
            .with_refresh_note(measured.describe()))
    }
}

/// Judges every configuration on the capture at `path` ([`Capture::open`],
/// [`Capture::judge`]): a file is streamed three times, so that memory stays
/// flat whatever its length; a pipe is read once, up to
/// [`MAX_PIPED_BYTES`]. `display_hz`, when given, is the display's rate
/// instead of the one measured; `process` picks one process of a log that
/// holds several.
///
/// # Errors
///
/// [`JudgeError`] when the file cannot be read, is not a capture with
/// present and display times, holds several processes and none is chosen,
/// or its display keeps no steady rate and none is given.
pub fn judge_file(
    path: &Path,
    settings: Settings,
    display_hz: Option<Rate>,
    process: Option<&ProcessFilter>,
    phases: u32,
) -> Result<SweepReport, JudgeError> {
    Capture::open(path)?.judge(settings, display_hz, process, phases)
}

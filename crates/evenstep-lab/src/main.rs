//! `evenstep-lab`: feeds display timestamp traces through planner
//! configurations side by side and prints how smooth their steps are. With no
//! arguments it runs the default suite of display profiles.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser};
use evenstep_core::Pacing;
use evenstep_core::tuning;
use evenstep_lab::{
    CSV_FORMATS, Capture, CaptureError, Jitter, JudgeError, MAX_HIDDEN, MAX_PIPED_BYTES,
    ProcessFilter, Profile, Rate, Report, SUITE_FRAMES, Settings, SweepReport, Synthetic, Trace,
    TraceReport, Training, WARM_UP_FRAMES, default_suite, leave_one_out, parse_csv, svg,
};

/// Feed frame timestamp traces through fixed-step planners side by side
/// and report how smooth their steps are, judged by the frames the display
/// showed.
///
/// Seven configurations run on every trace: the plain floating-point
/// accumulator most engines and crates use ("naive f64"), Godot's physics
/// jitter fix, evenstep's planner with pacing off, centred, snapped and
/// locked (the default), and the default told when each shown frame
/// reached the screen ("evenstep feedback"). With no trace options, the default suite runs
/// (its profiles are listed in `--help`; fixed seeds).
#[derive(Debug, Parser)]
#[command(name = "evenstep-lab", version)]
struct Cli {
    /// Read a trace from a CSV file: a capture with present and display
    /// times (`present_ms,display_ms`, or a PresentMon 1.x or 2.x log),
    /// judged by the frames shown; or one column of timestamps (decimal =
    /// milliseconds, integer = nanoseconds). A pipe (`/dev/stdin`) is read
    /// once, into memory, up to 128 MiB. Repeatable.
    #[arg(long, value_name = "FILE", help_heading = "Recorded traces")]
    csv: Vec<PathBuf>,
    /// The display rate of the CSV traces [default: measured from the
    /// display times, or the median frame time, and matched to a common
    /// rate; a trace with no steady rate is refused].
    #[arg(long, value_name = "HZ", help_heading = "Recorded traces")]
    display_hz: Option<Rate>,
    /// Read only this process of a PresentMon log that holds several: its
    /// name (`game.exe`) or its id.
    #[arg(long, value_name = "NAME|ID", help_heading = "Recorded traces")]
    process: Option<String>,
    /// Start phases swept when judging by the frames shown: each planner
    /// starts 0, 1/N, ... (N-1)/N of a step later.
    #[arg(long, value_name = "N", default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=64), help_heading = "Recorded traces")]
    phases: u32,

    /// Run a synthetic trace of a display at this rate: 60, 59.94 (read as
    /// 60000/1001), 75, 120, 144, 165, 240, or N/D [default: 60 when any
    /// synthetic option is given].
    #[arg(long, value_name = "HZ", help_heading = "Synthetic trace")]
    hz: Option<Rate>,
    /// Timestamp jitter amplitude, in microseconds [default: 0].
    #[arg(long, value_name = "US", help_heading = "Synthetic trace")]
    jitter_us: Option<u64>,
    /// Jitter shape: `uniform`, or `normal` (mean of four uniforms)
    /// [default: uniform].
    #[arg(long, value_name = "SHAPE", help_heading = "Synthetic trace")]
    jitter_dist: Option<Jitter>,
    /// The seed of every random choice [default: 1].
    #[arg(long, help_heading = "Synthetic trace")]
    seed: Option<u64>,
    /// Probability that a frame misses its refresh and lands one refresh
    /// later, per mille [default: 0].
    #[arg(long, value_name = "PER_MILLE", help_heading = "Synthetic trace")]
    miss_per_mille: Option<u32>,
    /// Stall every N frames (with --stall-ms).
    #[arg(long, value_name = "N", help_heading = "Synthetic trace")]
    stall_every: Option<u64>,
    /// Length of each stall, in milliseconds (with --stall-every).
    #[arg(long, value_name = "MS", help_heading = "Synthetic trace")]
    stall_ms: Option<u64>,
    /// A variable refresh rate display between two rates, e.g. `48-144`;
    /// each frame's period is drawn in that range.
    #[arg(long, value_name = "MIN-MAX", value_parser = parse_range, help_heading = "Synthetic trace")]
    vrr: Option<(Rate, Rate)>,
    /// Hide the tab (no frames) this many seconds after the first frame
    /// (with --hide-for).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, help_heading = "Synthetic trace")]
    hide_at: Option<Duration>,
    /// How long the tab stays hidden, in seconds (with --hide-at).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, help_heading = "Synthetic trace")]
    hide_for: Option<Duration>,
    /// Frames in the synthetic trace [default: 10000].
    #[arg(long, value_name = "N", help_heading = "Synthetic trace")]
    frames: Option<usize>,

    /// Steps a second (same forms as --hz).
    #[arg(
        long,
        value_name = "HZ",
        default_value = "60",
        help_heading = "Planners"
    )]
    step_hz: Rate,
    /// evenstep's step budget, in steps a frame.
    #[arg(
        long,
        value_name = "STEPS",
        default_value_t = 5,
        help_heading = "Planners"
    )]
    budget: u32,
    /// The snapped configuration's tolerance, in milliseconds.
    #[arg(long, value_name = "MS", default_value = "2", value_parser = parse_millis, help_heading = "Planners")]
    snap_tolerance: Duration,
    /// Rows the feedback configuration waits for a display time beyond
    /// the first row presented after it (0 to 31).
    #[arg(
        long,
        value_name = "ROWS",
        default_value_t = 0,
        help_heading = "Planners"
    )]
    feedback_delay: u32,

    /// Run with one of pacing's tuned constants set to VALUE (repeatable):
    /// a value outside the grid `--leave-one-out` tries, or a rule switched
    /// off at the end of its range. The names and ranges are the knobs'
    /// (`evenstep_core::tuning`).
    #[arg(long, value_name = "NAME=VALUE", help_heading = "Planners")]
    knob: Vec<String>,

    /// Instead of the report, judge each of pacing's tuned constants
    /// leave-one-family-out on the default suite's profiles and the
    /// `--csv` captures (slow: the whole training set once for every value
    /// tried; the other options but the planners' are refused).
    #[arg(long, help_heading = "Output")]
    leave_one_out: bool,
    /// Print the report as JSON instead of a table.
    #[arg(long, help_heading = "Output")]
    json: bool,
    /// Write an SVG plot of one trace (see --plot-trace) to FILE.
    #[arg(long, value_name = "FILE", help_heading = "Output")]
    svg: Option<PathBuf>,
    /// Which trace to plot, by its number in the table (a capture too).
    #[arg(long, value_name = "N", default_value_t = 1, help_heading = "Output")]
    plot_trace: usize,
    /// How many frames of steps to plot, from the end of the warm-up (drift
    /// is plotted for the whole trace).
    #[arg(long, value_name = "N", default_value_t = 300, help_heading = "Output")]
    plot_frames: usize,
}

impl Cli {
    fn wants_synthetic(&self) -> bool {
        self.hz.is_some()
            || self.jitter_us.is_some()
            || self.jitter_dist.is_some()
            || self.seed.is_some()
            || self.miss_per_mille.is_some()
            || self.stall_every.is_some()
            || self.stall_ms.is_some()
            || self.vrr.is_some()
            || self.hide_at.is_some()
            || self.hide_for.is_some()
            || self.frames.is_some()
    }

    fn synthetic(&self) -> Result<Synthetic, String> {
        let rate = match self.hz {
            Some(rate) => rate,
            None => Rate::hz(60).map_err(|e| e.to_string())?,
        };
        let mut spec = Synthetic::new(rate)
            .jitter_us(
                self.jitter_us.unwrap_or(0),
                self.jitter_dist.unwrap_or_default(),
            )
            .seed(self.seed.unwrap_or(1))
            .missed_per_mille(self.miss_per_mille.unwrap_or(0));
        if let Some(frames) = self.frames {
            spec = spec.frames(frames).map_err(|e| e.to_string())?;
        }
        spec = match (self.stall_every, self.stall_ms) {
            (Some(every), Some(millis)) => spec.stalls(every, millis).map_err(|e| e.to_string())?,
            (None, None) => spec,
            _ => return Err("--stall-every and --stall-ms go together".to_owned()),
        };
        spec = match (self.hide_at, self.hide_for) {
            (Some(at), Some(span)) => spec.hidden(at, span).map_err(|e| e.to_string())?,
            (None, None) => spec,
            _ => return Err("--hide-at and --hide-for go together".to_owned()),
        };
        if let Some((slowest, fastest)) = self.vrr {
            spec = spec.variable(slowest, fastest);
        }
        Ok(spec)
    }

    /// The CSV files judged by their display times (with the captures, to
    /// plot one), and the traces of the others (one column of stamps).
    fn captures(&self, settings: Settings) -> Result<Captures, String> {
        let process = self.process.as_ref().map(|text| ProcessFilter::parse(text));
        let mut captures = Captures::default();
        for path in &self.csv {
            let shown = path.display();
            let capture = Capture::open(path).map_err(|e| format!("{shown}: {e}"))?;
            match capture.judge(settings, self.display_hz, process.as_ref(), self.phases) {
                Ok(report) => {
                    captures.judged.push(report);
                    captures.read.push(capture);
                }
                Err(JudgeError::Capture(
                    CaptureError::NoPresentColumn { .. } | CaptureError::NoDisplayColumn,
                )) => {
                    let text = capture.text().map_err(|e| format!("{shown}: {e}"))?;
                    let trace = parse_csv(capture.name(), &text, self.display_hz)
                        .map_err(|e| format!("{shown}: {e}"))?;
                    captures.traces.push(trace);
                }
                // A capture from a loop without display feedback: its
                // present times, judged for stutter.
                Err(JudgeError::Capture(CaptureError::NoReports { .. })) => {
                    let trace = capture
                        .stamps(self.display_hz, process.as_ref())
                        .map_err(|e| format!("{shown}: {e}"))?;
                    captures.traces.push(trace);
                }
                Err(error) => return Err(format!("{shown}: {error}")),
            }
        }
        Ok(captures)
    }

    /// The report of trace `number` (1-based, as the table numbers them:
    /// traces, then captures), to plot.
    fn plotted(&self, report: &Report, captures: &[Capture]) -> Result<TraceReport, String> {
        let count = report.traces.len() + captures.len();
        let refuse = || {
            format!(
                "--plot-trace {}: there are traces 1 to {count}",
                self.plot_trace
            )
        };
        let index = self.plot_trace.checked_sub(1).ok_or_else(refuse)?;
        if let Some(trace) = report.traces.get(index) {
            return Ok(trace.clone());
        }
        let capture = captures
            .get(index - report.traces.len())
            .ok_or_else(refuse)?;
        let process = self.process.as_ref().map(|text| ProcessFilter::parse(text));
        let trace = capture
            .trace(self.display_hz, process.as_ref())
            .map_err(|e| format!("{}: {e}", capture.name()))?;
        let settings = Settings::new(self.step_hz, self.budget, self.snap_tolerance)
            .map_err(|e| e.to_string())?;
        Ok(TraceReport::analyse(&trace, &settings, 1))
    }

    fn traces(&self, mut traces: Vec<Trace>) -> Result<Vec<Trace>, String> {
        if self.wants_synthetic() {
            traces.push(self.synthetic()?.generate());
        }
        if traces.is_empty() && self.csv.is_empty() {
            traces = default_suite().iter().map(Profile::generate).collect();
        }
        Ok(traces)
    }
}

fn parse_range(text: &str) -> Result<(Rate, Rate), String> {
    let (slowest, fastest) = text
        .split_once('-')
        .ok_or_else(|| format!("`{text}`: expected two rates in Hz as MIN-MAX, e.g. 48-144"))?;
    let slowest = slowest.parse::<Rate>().map_err(|e| e.to_string())?;
    let fastest = fastest.parse::<Rate>().map_err(|e| e.to_string())?;
    Ok((slowest, fastest))
}

/// What the CSV files given were read as.
#[derive(Default)]
struct Captures {
    /// The captures judged by their display times, in order.
    judged: Vec<SweepReport>,
    /// Each of those captures, to plot one.
    read: Vec<Capture>,
    /// The traces of one column of stamps.
    traces: Vec<Trace>,
}

/// A decimal number of `unit`s from 0 to `most` (`most_text` in those
/// units), to the nanosecond.
fn parse_decimal(
    text: &str,
    unit_nanos: f64,
    unit: &str,
    most: Duration,
    most_text: &str,
) -> Result<Duration, String> {
    let refuse = || format!("`{text}`: expected a number of {unit} from 0 to {most_text}");
    let value: f64 = text.trim().parse().map_err(|_| refuse())?;
    let nanos = value * unit_nanos;
    if !value.is_finite() || value < 0.0 || nanos > most.as_nanos() as f64 {
        return Err(refuse());
    }
    // Finite, non-negative and at most a day: the cast is exact after
    // rounding.
    #[allow(clippy::cast_sign_loss, reason = "checked non-negative above")]
    Ok(Duration::from_nanos(nanos.round() as u64))
}

/// The snap tolerance: at most [`Pacing::MAX_SNAP_TOLERANCE`].
fn parse_millis(text: &str) -> Result<Duration, String> {
    let most = Pacing::MAX_SNAP_TOLERANCE;
    parse_decimal(
        text,
        1e6,
        "milliseconds",
        most,
        &most.as_millis().to_string(),
    )
}

/// A hidden span's start or length: at most [`MAX_HIDDEN`].
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let most = format!("{} (a day)", MAX_HIDDEN.as_secs());
    parse_decimal(text, 1e9, "seconds", MAX_HIDDEN, &most)
}

/// The default suite, numbered: `1. 60 Hz ±0.75 ms; 2. ...`.
fn suite_list() -> String {
    let suite = default_suite();
    let names: Vec<String> = (1..)
        .zip(&suite)
        .map(|(number, profile)| format!("{number}. {}", profile.name()))
        .collect();
    format!(
        "Default suite ({} profiles of {SUITE_FRAMES} frames, seed k for profile k): {}.",
        suite.len(),
        names.join("; ")
    )
}

fn long_help() -> String {
    let suite = suite_list();
    format!(
        "Judged by the frames shown (every trace with display times: captures, and the \
         synthetic suite, whose refreshes are its display times): each planner is fed the \
         present times, every row, and each frame shown after the first is judged. k = the \
         refreshes between its display time and the previous shown frame's, max(1, round(gap / \
         period)), with the period measured from the display times; s = the steps run since \
         the previous shown frame (frames never shown still plan, and their steps count toward \
         the next shown one); r = step rate / refresh rate, exactly, with the refresh rate the \
         measured one matched to a whole common rate within 0.5% (a 59.95 Hz display is judged \
         as 60 Hz). The frame is wrong if s is neither floor(k·r) nor ceil(k·r), or if it and \
         the previous shown frame together ran neither floor((k1+k2)·r) nor ceil((k1+k2)·r) \
         steps: at 60 steps/s on 60 Hz, simply s != k. Every planner is judged at N start \
         phases (--phases): its first frame 0, 1/N ... (N-1)/N of a step later. Beside them, \
         display-fed is a naive f64 accumulator fed the display times (what knowing the truth \
         gives). evenstep feedback is the default also told each shown frame's display time, \
         first by the plan of the first row presented after it (plus --feedback-delay rows); \
         a frame never shown is never reported. The refresh rate is printed with what it was measured from; a trace whose \
         display times keep no steady rate (variable refresh) is judged only with --display-hz.\n\n\
         Captures: a `present_ms,display_ms` CSV (display_ms empty for a frame never shown, `?` \
         for one not reported: a capture in which no frame was reported is judged for stutter \
         only, by its present times), or \
         a PresentMon log, 1.x or 2.x columns: present times from the running sum of \
         MsBetweenPresents (else TimeInSeconds, refused when written too coarsely to time \
         frames, or CPUStartTime), display times from MsUntilDisplayed (with Dropped) or the \
         running sum of MsBetweenDisplayChange; a log of several processes needs --process. \
         A capture file is read a row at a time, three times over, in fixed memory; a pipe \
         (--csv /dev/stdin) is read once, into memory, up to {MAX_PIPED_BYTES} bytes. \
         Plotting a capture (--svg) holds it in memory.\n\n\
         Other CSV traces: {CSV_FORMATS}. Their display rate is the median frame time matched \
         to a common rate within 0.5% (printed), or --display-hz; a trace that matches none is \
         refused.\n\n\
         Stutter (the other table; a diagnostic, stricter than the screen needs, while the \
         lab's targets are set on wrong shown frames): a frame stutters when its step count \
         departs from the ideal cadence of the trace's own stamps. \
         Let r = step rate / display rate; a frame spans n = max(1, round(delta / period)) \
         refreshes (a missed refresh is n = 2). If r is within 1% of a whole number m \
         (60 steps/s on 60 or 59.94 Hz: m = 1), every frame must run n·m steps. If r is \
         within 1% of 1/d for a whole d up to 8 (120 Hz: d = 2, 240 Hz: d = 4), no frame may \
         run more than ceil(n/d) steps and the frames spanning the last d refreshes must \
         hold exactly one step. Otherwise (144, 165, 75 Hz...), with r = p/q in lowest terms, \
         a frame must run floor(n·r) or ceil(n·r) steps and, when q <= 64, the frames spanning \
         the last q refreshes must hold exactly p steps. On a variable refresh display each \
         frame must run its own length in steps, rounded down or up. The first \
         {WARM_UP_FRAMES} frames of each trace are not counted.\n\n\
         {suite}\n\n\
         Examples:\n  \
         evenstep-lab\n  \
         evenstep-lab --csv crates/evenstep-lab/traces/csgo_60hz_composed.csv --phases 16\n  \
         evenstep-lab --csv presentmon.csv --process game.exe --json\n  \
         evenstep-lab --csv frames.csv   (a capture from evenstep's Loop::record_capture)\n  \
         evenstep-lab --hz 144 --jitter-us 500 --miss-per-mille 5 --svg 144.svg\n  \
         evenstep-lab --leave-one-out --csv a.csv --csv b.csv   (every tuned constant, in and out of sample)"
    )
}

fn run(cli: &Cli) -> Result<(), String> {
    let settings = Settings::new(cli.step_hz, cli.budget, cli.snap_tolerance)
        .and_then(|settings| settings.with_feedback_delay(cli.feedback_delay))
        .map_err(|e| e.to_string())?;
    if cli.leave_one_out {
        if !cli.knob.is_empty() {
            return Err("--leave-one-out sets the knobs itself: it takes no --knob".to_owned());
        }
        return run_leave_one_out(cli, settings);
    }
    set_knobs(&cli.knob)?;
    let Captures {
        judged,
        read,
        traces,
    } = cli.captures(settings)?;
    let traces = cli.traces(traces)?;
    let report = Report::with_phases(settings, &traces, cli.phases).with_captures(judged);
    if cli.json {
        println!("{}", report.json());
    } else {
        print!("{}", report.table());
    }
    if let Some(path) = &cli.svg {
        let chosen = cli.plotted(&report, &read)?;
        let drawing = svg(&chosen, WARM_UP_FRAMES, cli.plot_frames).map_err(|e| e.to_string())?;
        std::fs::write(path, drawing).map_err(|e| format!("{}: {e}", path.display()))?;
        eprintln!(
            "wrote {}: trace #{} {}",
            path.display(),
            cli.plot_trace,
            chosen.name
        );
    }
    Ok(())
}

/// Sets each `NAME=VALUE` of `--knob`, or names what is wrong with one.
fn set_knobs(settings: &[String]) -> Result<(), String> {
    for setting in settings {
        let (name, value) = setting
            .split_once('=')
            .ok_or_else(|| format!("--knob {setting}: expected NAME=VALUE"))?;
        let Some(knob) = tuning::knob(name) else {
            let names: Vec<&str> = tuning::knobs().iter().map(tuning::Knob::name).collect();
            return Err(format!(
                "--knob {setting}: no knob is named {name}; the knobs are {}",
                names.join(", ")
            ));
        };
        let range = knob.range();
        let value = value.parse().map_err(|_| {
            format!(
                "--knob {setting}: the value must be a whole number from {} to {}",
                range.start(),
                range.end()
            )
        })?;
        knob.set(value)
            .map_err(|error| format!("--knob {setting}: {error}"))?;
    }
    Ok(())
}

/// `--leave-one-out`: every knob's table, on the suite and the captures.
fn run_leave_one_out(cli: &Cli, settings: Settings) -> Result<(), String> {
    if cli.wants_synthetic() || cli.json || cli.svg.is_some() || cli.process.is_some() {
        return Err(
            "--leave-one-out judges the default suite and the --csv captures: it takes no \
             synthetic trace, --process, --json or --svg"
                .to_owned(),
        );
    }
    let training = Training {
        settings,
        phases: cli.phases,
        traces: default_suite().iter().map(Profile::generate).collect(),
        families: default_suite()
            .iter()
            .map(|profile| profile.family().to_owned())
            .collect(),
        captures: cli.csv.clone(),
        display_hz: cli.display_hz,
    };
    print!("{}", leave_one_out(&training)?.table());
    Ok(())
}

fn main() -> ExitCode {
    let matches = Cli::command().after_long_help(long_help()).get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(error) => error.exit(),
    };
    match run(&cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("evenstep-lab: {error}");
            ExitCode::from(2)
        }
    }
}

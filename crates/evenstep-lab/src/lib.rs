//! A frame pacing lab.
//!
//! `evenstep-lab` feeds frame timestamp traces through seven fixed-step
//! planner configurations side by side ([`Config`]: a naive `f64`
//! accumulator, Godot's jitter fix, and [`evenstep_core::FrameLoop`] with
//! each pacing mode, and with display feedback) and reports how smooth their steps are, judged by what
//! the player saw: each frame the display showed, against the refreshes it
//! stayed on screen ([`Rule`]). Traces are synthetic displays
//! ([`Synthetic`]), vsync queues ([`Queued`]) or recorded captures
//! ([`Capture`]); the verdicts are a [`Report`]. The `evenstep-lab` command
//! prints them as a table, JSON or an SVG plot; this library is what it
//! runs. It reads no clock and draws no random number that a seed does not
//! name, so a trace gets the same verdicts on every machine.
//!
//! # Example
//!
//! ```
//! use evenstep_lab::{Config, Jitter, Rate, Report, Settings, Synthetic};
//!
//! let trace = Synthetic::new(Rate::hz(60)?)
//!     .frames(2_000)?
//!     .jitter_us(1_500, Jitter::Uniform)
//!     .seed(2)
//!     .generate();
//! let report = Report::new(Settings::default(), &[trace]);
//! let verdict = &report.traces[0];
//! assert!(verdict.metrics(Config::NaiveF64).stutter > 0); // 0- and 2-step frames
//! assert_eq!(verdict.metrics(Config::Snapped).stutter, 0); // one step a frame
//! let judged = verdict.judged.as_ref().expect("its refreshes are its display times");
//! assert!(judged.counts(Config::Locked).worst() < judged.counts(Config::Off).worst());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![forbid(unsafe_code)]

mod bins;
mod capture;
mod config;
mod csv_records;
mod csv_trace;
mod decimal;
mod godot;
mod judder;
mod judge;
mod latency;
mod layout;
mod metrics;
mod planner;
mod plot;
mod process_filter;
mod queued;
mod rate;
mod report;
mod rng;
mod rows;
mod run;
mod seen;
mod step_ends;
mod stutter;
mod suite;
mod survey;
mod sweep;
mod synthetic;
mod table;
mod trace;
mod trace_stats;
mod tune;

pub use capture::{
    Capture, CaptureError, JudgeError, MAX_PIPED_BYTES, NOT_REPORTED, judge_file, read_piped,
};
pub use config::{Config, MAX_FEEDBACK_DELAY, Settings, SettingsError, WARM_UP_FRAMES};
pub use csv_trace::{CSV_FORMATS, CsvError, CsvFormat, estimate_refresh, parse_csv, read_csv};
pub use godot::{GODOT_JITTER_FIX, GodotJitterFix};
pub use judder::PhaseJudder;
pub use judge::{DisplayTiming, MAX_LONG_GAPS, Measured, Rule, Tally, TimingError};
pub use latency::PhaseLatency;
pub use layout::{DisplaySource, Layout, PresentSource};
pub use metrics::{Histogram, Metrics};
pub use planner::{Planned, Planner};
pub use plot::{PlotError, svg};
pub use process_filter::ProcessFilter;
pub use queued::{MAX_SPAN_MICROS, Queued};
pub use rate::{Rate, RateError};
pub use report::{ConfigReport, DEFAULT_PHASES, Report, TraceReport};
pub use rng::SplitMix64;
pub use rows::{Row, Rows};
pub use run::Run;
pub use step_ends::StepSpan;
pub use stutter::{Cadence, CadenceKind};
pub use suite::{Profile, SUITE_FRAMES, default_suite};
pub use survey::{MAX_PROCESSES, Survey};
pub use sweep::{PhaseCounts, Sweep, SweepReport, judge_trace};
pub use synthetic::{Jitter, MAX_FRAMES, MAX_HIDDEN, MAX_STALL_MILLIS, Synthetic, SyntheticError};
pub use trace::{Refresh, Trace};
pub use trace_stats::TraceStats;
pub use tune::{Choice, KnobReport, OBJECTIVES, Training, TuningReport, leave_one_out};

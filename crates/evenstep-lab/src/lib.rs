//! A frame pacing lab.
//!
//! `evenstep-lab` feeds display timestamp traces through fixed-step planner
//! configurations side by side and reports how smooth their steps are: the
//! steps-per-frame histogram, stutter against the display's ideal cadence,
//! double updates, drift of simulation time against the wall, dropped time
//! and the pacing's phase shift. The binary prints a table, `--json`, or an
//! SVG plot; this library is what it runs, so tests can pin its verdicts.
//!
//! # What it compares
//!
//! On every trace, four [`Config`]urations at the same step rate (60 steps/s
//! by default) and budget (5 steps):
//!
//! 1. **naive f64**: the plain floating-point accumulator most engines and
//!    crates use, `acc += min(delta_secs, 0.25); while acc >= 1.0 / 60.0
//!    { acc -= 1.0 / 60.0; steps += 1 }`, the negative control;
//! 2. **evenstep off**, 3. **evenstep centred** and 4. **evenstep snapped**
//!    (2 ms tolerance by default): [`evenstep_core::FrameLoop`] with each
//!    [`evenstep_core::Pacing`].
//!
//! Every planner is anchored one refresh period before the trace's first
//! stamp, so the first frame spans one refresh and runs steps.
//!
//! # Traces
//!
//! - **Synthetic** ([`Synthetic`]): a display at an exact rational rate
//!   (refresh `k` at `start + k · period`, no rounding drift), plus integer
//!   jitter (uniform, or normal-ish as the mean of four uniforms) from a
//!   seeded [`SplitMix64`], with missed refreshes, periodic stalls, a
//!   variable refresh range, and a hidden-tab gap on request.
//! - **CSV** ([`read_csv`], [`parse_csv`]): one column of timestamps, one a
//!   line, with an optional header. Decimal values (`16.667`) are
//!   milliseconds and integer values (`16666667`) nanoseconds; a header
//!   containing the word `ms` or `ns` (`time_ms`, `ns`) decides instead.
//!   PresentMon logs are read by column name: `TimeInSeconds` (absolute
//!   seconds) if present, else `MsBetweenPresents` or `msBetweenPresents`
//!   (milliseconds since the previous present). Lines starting with `#` are
//!   comments. The display rate is the median frame time matched to a common
//!   rate ([`estimate_refresh`]) unless given.
//!
//! # Stutter
//!
//! A frame stutters when its step count departs from the ideal cadence of
//! the step rate on the display; [`Cadence`] gives the exact rule. In short,
//! with `r` = step rate / display rate and `n` the refreshes a frame spans
//! (`max(1, round(delta / period))`): when `r` is within 1% of a whole `m`,
//! every frame must run `n · m` steps; when within 1% of `1/d` (`d` ≤ 8),
//! every `d` refreshes must hold exactly one step; otherwise (`r = p/q`) a
//! frame must run `floor(n · r)` or `ceil(n · r)` steps and, for `q` ≤ 64,
//! every `q` refreshes must hold `p`. The first [`WARM_UP_FRAMES`] (16)
//! frames of a trace are not counted: snapping needs eight frames to learn
//! the refresh period.
//!
//! # Example
//!
//! ```
//! use evenstep_lab::{Config, Jitter, Rate, Report, Settings, Synthetic};
//!
//! let trace = Synthetic::new(Rate::hz(60)?)
//!     .frames(2_000)
//!     .jitter_us(1_500, Jitter::Uniform)
//!     .seed(2)
//!     .generate();
//! let report = Report::new(Settings::default(), &[trace]);
//! let verdict = &report.traces[0];
//! assert!(verdict.metrics(Config::NaiveF64).stutter > 0); // 0- and 2-step frames
//! assert_eq!(verdict.metrics(Config::Snapped).stutter, 0); // one step a frame
//! # Ok::<(), evenstep_lab::RateError>(())
//! ```
//!
//! # What it refuses to do
//!
//! It reads no clock and draws no random number that a seed does not name:
//! the same command prints the same report on every machine.
#![forbid(unsafe_code)]

mod capture;
mod config;
mod csv_trace;
mod decimal;
mod godot;
mod judge;
mod metrics;
mod planner;
mod plot;
mod queued;
mod rate;
mod report;
mod rng;
mod run;
mod stutter;
mod suite;
mod sweep;
mod synthetic;
mod table;
mod trace;

pub use capture::{
    CaptureError, DisplaySource, Layout, PresentSource, ProcessFilter, Row, Rows, Survey,
};
pub use config::{Config, Settings, SettingsError, WARM_UP_FRAMES};
pub use csv_trace::{CSV_FORMATS, CsvError, CsvFormat, estimate_refresh, parse_csv, read_csv};
pub use godot::{GODOT_JITTER_FIX, GodotJitterFix};
pub use judge::{DisplayTiming, Measured, Rule, Tally, TimingError};
pub use metrics::{Histogram, Metrics};
pub use planner::Planner;
pub use plot::{PlotError, svg};
pub use queued::Queued;
pub use rate::{Rate, RateError};
pub use report::{ConfigReport, DEFAULT_PHASES, Report, TraceReport};
pub use rng::SplitMix64;
pub use run::Run;
pub use stutter::{Cadence, CadenceKind};
pub use suite::{Profile, SUITE_FRAMES, default_suite};
pub use sweep::{JudgeError, PhaseCounts, Sweep, SweepReport, judge_file, judge_trace};
pub use synthetic::{Jitter, Synthetic};
pub use trace::{Refresh, Trace};

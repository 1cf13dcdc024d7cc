//! A frame pacing lab.
//!
//! `evenstep-lab` feeds frame timestamp traces through fixed-step planner
//! configurations side by side and reports how smooth their steps are,
//! judged by what the player saw: each frame the display showed, against
//! the refreshes it stayed on screen. The binary prints a table, `--json`,
//! or an SVG plot; this library is what it runs, so tests can pin its
//! verdicts.
//!
//! # What it compares
//!
//! On every trace, six [`Config`]urations at the same step rate (60 steps/s
//! by default) and budget (5 steps):
//!
//! 1. **naive f64**: the plain floating-point accumulator most engines and
//!    crates use, `acc += min(delta_secs, 0.25); while acc >= 1.0 / 60.0
//!    { acc -= 1.0 / 60.0; steps += 1 }`, the negative control;
//! 2. **godot jitter fix**: Godot's `physics_jitter_fix` (0.5), written
//!    from what `main/main_timer_sync.cpp` does ([`GodotJitterFix`]);
//! 3. **evenstep off**, 4. **centred**, 5. **snapped** (2 ms tolerance by
//!    default) and 6. **locked** (evenstep's default):
//!    [`evenstep_core::FrameLoop`] with each [`evenstep_core::Pacing`].
//!
//! # Judged by the frames shown
//!
//! A trace with display times (a capture's `display_ms` or PresentMon's
//! display columns; a synthetic trace's own refreshes) is judged by the
//! frames shown ([`Sweep`], [`judge_file`], [`judge_trace`]): every planner
//! is fed the present times, every row, and each shown frame after the
//! first is judged with the exact [`Rule`]. With `k` the refreshes between
//! its display time and the previous shown frame's (`max(1, round(gap /
//! period))`, the period measured from the display times by
//! [`DisplayTiming`]), `s` the steps run since the previous shown frame
//! (frames never shown still plan, and their steps count toward the next
//! shown one) and `r` the step rate over the refresh rate (the measured
//! rate matched to a whole common rate within 0.5%), the frame is wrong if
//! `s` is neither `floor(k·r)` nor `ceil(k·r)`, or if it and the previous
//! shown frame together ran neither `floor((k1+k2)·r)` nor
//! `ceil((k1+k2)·r)` steps. At 60 steps/s on 60 Hz that is simply `s ≠ k`.
//! Each planner is judged at several start phases (its first frame moved by
//! fractions of a step), and beside them stands the same count for a naive
//! accumulator fed the display times.
//!
//! # Traces
//!
//! - **Synthetic** ([`Synthetic`]): a display at an exact rational rate
//!   (refresh `k` at `start + k · period`, no rounding drift), plus integer
//!   jitter (uniform, or normal-ish as the mean of four uniforms) from a
//!   seeded [`SplitMix64`], with missed refreshes, periodic stalls, a
//!   variable refresh range, and a hidden-tab gap on request.
//! - **Vsync captures** ([`Queued`]): a game presenting through a vsync
//!   queue, with noisy render times, slow frames, hitches, a queue depth
//!   that changes, at 59.95 Hz or any rate: present times and display times
//!   both.
//! - **Captures** ([`Survey`], [`Rows`], [`judge_file`]): `present_ms,
//!   display_ms`, or PresentMon 1.x and 2.x logs (a process filter, the
//!   `Dropped` column, display times from `MsUntilDisplayed` or
//!   `MsBetweenDisplayChange`; a `TimeInSeconds` column too coarse to time
//!   frames is not used), streamed row by row in three passes, so a log of
//!   millions of rows is judged in a few megabytes; a pipe, which can be
//!   read only once, is read into memory up to [`MAX_PIPED_BYTES`]
//!   ([`Capture`]). Bad values are refused naming their line and column,
//!   and errors stay short whatever the log.
//! - **One column of stamps** ([`read_csv`], [`parse_csv`]): decimal values
//!   (`16.667`) are milliseconds and integer values (`16666667`)
//!   nanoseconds; a header containing the word `ms` or `ns` decides
//!   instead. The display rate is the median frame time matched to a common
//!   rate ([`estimate_refresh`]), or given; a median that matches none is
//!   refused rather than guessed.
//!
//! # Stutter
//!
//! A trace's block also gives, per configuration, the steps-per-frame
//! histogram and stutter: frames whose step count departs from the ideal
//! cadence of the step rate on the display ([`Cadence`] gives the exact
//! rule), judged on the stamps the planner saw. In short, with `r` = step
//! rate / display rate and `n` the refreshes a frame spans
//! (`max(1, round(delta / period))`): when `r` is within 1% of a whole `m`,
//! every frame must run `n · m` steps; when within 1% of `1/d` (`d` ≤ 8),
//! every `d` refreshes must hold exactly one step; otherwise (`r = p/q`) a
//! frame must run `floor(n · r)` or `ceil(n · r)` steps and, for `q` ≤ 64,
//! every `q` refreshes must hold `p`. The first [`WARM_UP_FRAMES`] (16)
//! frames of a trace are not counted.
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
//!
//! # What it refuses to do
//!
//! It reads no clock and draws no random number that a seed does not name:
//! the same command prints the same report on every machine. It never
//! guesses a display's rate: a rate it cannot measure is asked for
//! (`--display-hz`).
#![forbid(unsafe_code)]

mod capture;
mod config;
mod csv_records;
mod csv_trace;
mod decimal;
mod godot;
mod judge;
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
mod stutter;
mod suite;
mod survey;
mod sweep;
mod synthetic;
mod table;
mod trace;

pub use capture::{Capture, CaptureError, JudgeError, MAX_PIPED_BYTES, judge_file, read_piped};
pub use config::{Config, Settings, SettingsError, WARM_UP_FRAMES};
pub use csv_trace::{CSV_FORMATS, CsvError, CsvFormat, estimate_refresh, parse_csv, read_csv};
pub use godot::{GODOT_JITTER_FIX, GodotJitterFix};
pub use judge::{DisplayTiming, MAX_LONG_GAPS, Measured, Rule, Tally, TimingError};
pub use layout::{DisplaySource, Layout, PresentSource};
pub use metrics::{Histogram, Metrics};
pub use planner::Planner;
pub use plot::{PlotError, svg};
pub use process_filter::ProcessFilter;
pub use queued::Queued;
pub use rate::{Rate, RateError};
pub use report::{ConfigReport, DEFAULT_PHASES, Report, TraceReport};
pub use rng::SplitMix64;
pub use rows::{Row, Rows};
pub use run::Run;
pub use stutter::{Cadence, CadenceKind};
pub use suite::{Profile, SUITE_FRAMES, default_suite};
pub use survey::{MAX_PROCESSES, Survey};
pub use sweep::{PhaseCounts, Sweep, SweepReport, judge_trace};
pub use synthetic::{Jitter, MAX_FRAMES, MAX_HIDDEN, MAX_STALL_MILLIS, Synthetic, SyntheticError};
pub use trace::{Refresh, Trace};

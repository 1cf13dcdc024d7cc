//! A capture with display times, and why one cannot be read or judged.
//!
//! A [`Capture`] is a regular file, streamed once for each pass over it, or
//! the bytes of a pipe, read once. Judging it takes three passes: a
//! [`Survey`] of its columns and processes, a measure of its display from
//! the display times, and the planners fed its [`Rows`]. Errors quote the
//! input clipped, and list a few of the processes or columns, so they stay
//! short whatever the log.

use core::fmt;
use core::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::config::Settings;
use crate::csv_trace::{CsvError, stamp_trace};
use crate::judge::{DisplayTiming, Measured, TimingError};
use crate::layout::Layout;
use crate::process_filter::ProcessFilter;
use crate::rate::Rate;
use crate::rows::Rows;
use crate::survey::Survey;
use crate::sweep::{Sweep, SweepReport, display_rate};
use crate::trace::{Refresh, Trace};

/// A capture to judge: a regular file, streamed once for each pass, or the
/// bytes of anything else (a pipe, `/dev/stdin`), read once. Its columns
/// are read as its header names them ([`Layout`]): `present_ms,display_ms`,
/// or a PresentMon 1.x or 2.x log.
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
        let mut shown = 0_u64;
        let mut rows = Rows::new(self.reader()?, layout.clone(), process.cloned())?;
        for row in &mut rows {
            if let Some(at) = row?.display {
                timing.push(at);
                shown += 1;
            }
        }
        without_reports(shown, rows.unreported())?;
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
    /// display keeps no steady rate and none is given;
    /// [`CaptureError::NoReports`] when no row has a display time and some
    /// are not reported (`?`): judge it for stutter with
    /// [`Capture::stamps`].
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
        let mut rows = Rows::new(self.reader()?, layout.clone(), process.cloned())?;
        for row in &mut rows {
            let row = row?;
            sweep.push(row.present, row.display);
        }
        let mut report = sweep.finish();
        let unreported = rows.unreported();
        without_reports(report.shown, unreported)?;
        let mut sources = format!(
            "present times: {}; display times: {}",
            layout.present(),
            layout.display()
        );
        if unreported > 0 {
            let _ = write!(
                sources,
                " ({unreported} not reported, `?`, read as never shown)"
            );
        }
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
        Ok(
            Trace::new(self.name(), stamps, Refresh::Fixed(display_rate(&measured)))
                .with_display(display)
                .with_refresh_note(measured.describe()),
        )
    }
}

impl Capture {
    /// The capture's present times as a [`Trace`] of stamps alone, judged
    /// by its own cadence (the stutter table) as one column of timestamps
    /// is: a capture without display feedback (every `display_ms` `?`,
    /// [`CaptureError::NoReports`]). Its refresh is `display_hz`, or the
    /// median frame time matched to a common rate within 0.5%.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_lab::{Capture, CaptureError, JudgeError, Report, Settings};
    ///
    /// let mut text = String::from("present_ms,display_ms\n");
    /// for k in 0..120 {
    ///     text += &format!("{}.000000,?\n", k * 20);
    /// }
    /// let capture = Capture::Bytes { name: "no feedback".into(), bytes: text.into_bytes() };
    /// let refused = capture.judge(Settings::default(), None, None, 2).unwrap_err();
    /// assert!(matches!(refused, JudgeError::Capture(CaptureError::NoReports { unreported: 120 })));
    /// let trace = capture.stamps(None, None)?;
    /// assert_eq!(trace.refresh_note(), Some("50 Hz, estimated: the median present_ms frame time, 20.000 ms, matched to it within 0.5%"));
    /// let report = Report::new(Settings::default(), &[trace]);
    /// assert!(report.traces[0].judged.is_none()); // no display times: stutter only
    /// # Ok::<(), JudgeError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`JudgeError`] when it cannot be read or is not a capture, as for
    /// [`Capture::judge`]; [`JudgeError::Stamps`] for fewer than two rows
    /// or a median frame time that matches no common rate, with no
    /// `display_hz`.
    pub fn stamps(
        &self,
        display_hz: Option<Rate>,
        process: Option<&ProcessFilter>,
    ) -> Result<Trace, JudgeError> {
        let layout = Survey::of(self.reader()?)?.plan(process)?;
        let what = layout.present().to_string();
        let mut stamps = Vec::new();
        for row in Rows::new(self.reader()?, layout, process.cloned())? {
            stamps.push(row?.present);
        }
        stamp_trace(self.name(), stamps, display_hz, &what).map_err(JudgeError::Stamps)
    }
}

/// A capture in which no row was `shown` and some were `unreported` is one
/// without display feedback: judged for stutter only.
fn without_reports(shown: u64, unreported: u64) -> Result<(), CaptureError> {
    if shown == 0 && unreported > 0 {
        return Err(CaptureError::NoReports { unreported });
    }
    Ok(())
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
    /// A capture without reports whose present times cannot be judged
    /// for stutter ([`Capture::stamps`]).
    Stamps(CsvError),
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::Io(error) => write!(f, "{error}"),
            JudgeError::Capture(error) => write!(f, "{error}"),
            JudgeError::Timing(error) => write!(f, "{error}"),
            JudgeError::Stamps(error) => write!(f, "judging the present times alone: {error}"),
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

/// A capture that cannot be read as one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CaptureError {
    /// The file is not well-formed CSV.
    Malformed {
        /// The line the reader stopped at (1-based).
        line: u64,
        /// The CSV reader's message.
        message: String,
    },
    /// The header has no present time column this reader knows.
    NoPresentColumn {
        /// The header's first fields, clipped, and how many more there are.
        found: Vec<String>,
    },
    /// The header has present times but no display times.
    NoDisplayColumn,
    /// A value that is not a non-negative number.
    Value {
        /// The line (1-based).
        line: u64,
        /// The column read.
        column: String,
        /// The text found, clipped to 64 characters.
        text: String,
    },
    /// A `display_ms` value that is neither a time in ms, nor empty or `NA`
    /// (never shown), nor [`NOT_REPORTED`] (`?`).
    DisplayMs {
        /// The line (1-based).
        line: u64,
        /// The column read.
        column: String,
        /// The text found, clipped to 64 characters.
        text: String,
    },
    /// No row has a display time, and some are [`NOT_REPORTED`]: a capture
    /// from a loop that got no display feedback, judged for stutter only
    /// ([`Capture::stamps`]).
    NoReports {
        /// The rows not reported.
        unreported: u64,
    },
    /// A `Dropped` value that is neither 0 nor 1.
    Flag {
        /// The line (1-based).
        line: u64,
        /// The column read.
        column: String,
        /// The text found, clipped to 64 characters.
        text: String,
    },
    /// A value that is not UTF-8 text.
    NotText {
        /// The line (1-based).
        line: u64,
        /// The column read.
        column: String,
    },
    /// A present time earlier than the one before it.
    Backwards {
        /// The line (1-based).
        line: u64,
    },
    /// `TimeInSeconds` is written too coarsely to time frames, and the log
    /// has no `MsBetweenPresents` to fall back on.
    Coarse {
        /// How many fractional digits the values have.
        decimals: u32,
    },
    /// The log holds several processes and none was chosen.
    SeveralProcesses {
        /// The first processes as `name (pid N, R rows)`, and how many more
        /// there are ([`Survey::process_list`]).
        found: Vec<String>,
    },
    /// No row belongs to the chosen process.
    NoSuchProcess {
        /// The filter, as given (clipped).
        wanted: String,
        /// The first processes the log holds, and how many more there are.
        found: Vec<String>,
    },
}

impl fmt::Display for CaptureError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CaptureError::Malformed { line, message } => {
                write!(f, "line {line}: not valid CSV ({message})")
            }
            CaptureError::NoPresentColumn { found } => write!(
                f,
                "found the columns [{}]; a capture needs present times: `present_ms` \
                 (with `display_ms`), or a PresentMon log's `MsBetweenPresents`, \
                 `TimeInSeconds` or `CPUStartTime`",
                found.join(", ")
            ),
            CaptureError::NoDisplayColumn => write!(
                f,
                "no display times: expected `display_ms`, or PresentMon's `MsUntilDisplayed` \
                 or `MsBetweenDisplayChange`"
            ),
            CaptureError::Value { line, column, text } => write!(
                f,
                "line {line}: `{text}` in column `{column}` is not a non-negative number"
            ),
            CaptureError::DisplayMs { line, column, text } => write!(
                f,
                "line {line}: `{text}` in column `{column}` is not a display time; expected a \
                 non-negative number of ms, empty (or `NA`) for a frame never shown, or \
                 `{NOT_REPORTED}` for one not reported"
            ),
            CaptureError::NoReports { unreported } => write!(
                f,
                "no frame has a display time and {unreported} are `{NOT_REPORTED}` (not \
                 reported): a capture without display feedback is judged for stutter only, by \
                 its present times"
            ),
            CaptureError::Flag { line, column, text } => {
                write!(
                    f,
                    "line {line}: `{text}` in column `{column}` is not 0 or 1"
                )
            }
            CaptureError::NotText { line, column } => write!(
                f,
                "line {line}: column `{column}` holds bytes that are not UTF-8 text"
            ),
            CaptureError::Backwards { line } => write!(
                f,
                "line {line}: the present time is earlier than the one before it; rows must \
                 be in present order"
            ),
            CaptureError::Coarse { decimals } => write!(
                f,
                "`TimeInSeconds` is written with {decimals} decimal(s), too coarse to time \
                 frames (it would show frames of zero length and a false refresh rate), and \
                 the log has no `MsBetweenPresents` to use instead"
            ),
            CaptureError::SeveralProcesses { found } => write!(
                f,
                "the log holds several processes: {}; choose one with --process NAME or ID",
                found.join(", ")
            ),
            CaptureError::NoSuchProcess { wanted, found } => write!(
                f,
                "no row belongs to the process `{wanted}`; the log holds: {}",
                found.join(", ")
            ),
        }
    }
}

impl std::error::Error for CaptureError {}

/// What a `display_ms` value of a frame whose showing display feedback
/// never reported is: `?` (an empty one is a frame never shown). The
/// captures `evenstep`'s `Loop::record_capture` writes use it.
pub const NOT_REPORTED: &str = "?";

/// The most characters of the input an error quotes.
const MAX_QUOTED_CHARS: usize = 64;

/// The most processes or header fields an error lists.
pub(crate) const MAX_LISTED: usize = 16;

/// `text`, clipped to [`MAX_QUOTED_CHARS`] characters (marked `…`).
pub(crate) fn clipped(text: &str) -> String {
    clip(text, MAX_QUOTED_CHARS)
}

fn clip(text: &str, chars: usize) -> String {
    match text.char_indices().nth(chars) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_owned(),
    }
}

/// The first [`MAX_LISTED`] of `items`, clipped, and how many more there
/// are.
pub(crate) fn listed<'a>(items: impl ExactSizeIterator<Item = &'a str>) -> Vec<String> {
    let total = items.len();
    let mut found: Vec<String> = items.take(MAX_LISTED).map(clipped).collect();
    if total > MAX_LISTED {
        found.push(format!("and {} more", total - MAX_LISTED));
    }
    found
}

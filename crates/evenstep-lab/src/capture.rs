//! Captures with display times, read a row at a time: the two-column
//! `present_ms,display_ms` format, and PresentMon logs in the 1.x and 2.x
//! column sets (with a process filter where a log holds several). Every row
//! becomes a present time and, if the frame reached the screen, a display
//! time, both in nanoseconds on one clock. Nothing is kept per row, and at
//! most [`MAX_PROCESSES`] processes are counted, so a log of any length is
//! read in fixed memory; reading twice (once to learn the display, once to
//! judge) is the caller's choice. Errors quote the input clipped, and list
//! a few of the processes or columns, so they stay short whatever the log.

use core::fmt;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::Read;

use crate::decimal;

/// Where a capture's present times come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PresentSource {
    /// The `present_ms` column.
    PresentMs,
    /// The running sum of `MsBetweenPresents` (the first row at 0).
    BetweenPresents,
    /// `TimeInSeconds`, in seconds.
    TimeInSeconds,
    /// `CPUStartTime`, in milliseconds (PresentMon 2.x).
    CpuStartTime,
}

/// Where a capture's display times come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DisplaySource {
    /// The `display_ms` column (empty: never shown).
    DisplayMs,
    /// The present time plus `MsUntilDisplayed`, for rows shown (`Dropped`
    /// 0 where the column exists, and a positive value).
    UntilDisplayed,
    /// The running sum of `MsBetweenDisplayChange` over the rows shown.
    BetweenDisplayChange,
}

impl fmt::Display for PresentSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PresentSource::PresentMs => "present_ms",
            PresentSource::BetweenPresents => "the running sum of MsBetweenPresents",
            PresentSource::TimeInSeconds => "TimeInSeconds",
            PresentSource::CpuStartTime => "CPUStartTime",
        })
    }
}

impl fmt::Display for DisplaySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            DisplaySource::DisplayMs => "display_ms",
            DisplaySource::UntilDisplayed => "present time + MsUntilDisplayed",
            DisplaySource::BetweenDisplayChange => "the running sum of MsBetweenDisplayChange",
        })
    }
}

/// Which process of a log to read: a name (`game.exe`, any case) or an id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessFilter {
    /// The `Application` column, compared without case.
    Name(String),
    /// The `ProcessID` column.
    Id(u64),
}

impl fmt::Display for ProcessFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcessFilter::Name(name) => f.write_str(&clipped(name)),
            ProcessFilter::Id(id) => write!(f, "{id}"),
        }
    }
}

impl ProcessFilter {
    /// A filter from what a user typed: digits are an id, anything else a
    /// name.
    pub fn parse(text: &str) -> ProcessFilter {
        match text.trim().parse() {
            Ok(id) => ProcessFilter::Id(id),
            Err(_) => ProcessFilter::Name(text.trim().to_owned()),
        }
    }

    fn admits(&self, name: &str, id: &str) -> bool {
        match self {
            ProcessFilter::Name(wanted) => wanted.eq_ignore_ascii_case(name),
            ProcessFilter::Id(wanted) => id.trim().parse::<u64>().is_ok_and(|id| id == *wanted),
        }
    }
}

/// One presented frame: when it was presented and, if it reached the
/// screen, when.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The present time, in ns from the first row's.
    pub present: u64,
    /// The display time, in ns on the same clock (shifted by a constant for
    /// logs that only give display gaps), or `None` if never shown.
    pub display: Option<u64>,
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

/// `TimeInSeconds` with fewer fractional digits than this is too coarse
/// (a tenth of a millisecond).
const FINE_DECIMALS: u32 = 4;

/// The most processes a [`Survey`] counts rows for: a log's processes past
/// these are counted together, as [`Survey::untracked_rows`], so a log with
/// a process id on every row is surveyed in fixed memory.
pub const MAX_PROCESSES: usize = 64;

/// The most characters of a process name or id a [`Survey`] keeps: two
/// processes whose names agree that far are counted as one (the rows read
/// are still those the filter names exactly).
const MAX_KEY_CHARS: usize = 256;

/// The most characters of the input an error quotes.
const MAX_QUOTED_CHARS: usize = 64;

/// The most processes or header fields an error lists.
const MAX_LISTED: usize = 16;

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
fn listed<'a>(items: impl ExactSizeIterator<Item = &'a str>) -> Vec<String> {
    let total = items.len();
    let mut found: Vec<String> = items.take(MAX_LISTED).map(clipped).collect();
    if total > MAX_LISTED {
        found.push(format!("and {} more", total - MAX_LISTED));
    }
    found
}

/// The columns of a capture and what they are read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    present: PresentSource,
    present_index: usize,
    display: DisplaySource,
    display_index: usize,
    dropped_index: Option<usize>,
    application_index: Option<usize>,
    process_index: Option<usize>,
    time_in_seconds_index: Option<usize>,
    present_column: String,
    display_column: String,
    dropped_column: String,
    /// The processes the survey found, for a filter that turns out to admit
    /// no row ([`Survey::process_list`]).
    processes: Vec<String>,
}

impl Layout {
    /// The layout a header describes, or why it describes none.
    ///
    /// # Errors
    ///
    /// [`CaptureError::NoPresentColumn`] or [`CaptureError::NoDisplayColumn`].
    pub fn from_header(header: &[&str]) -> Result<Layout, CaptureError> {
        let find = |names: &[&str]| {
            names.iter().find_map(|name| {
                header
                    .iter()
                    .position(|field| field.eq_ignore_ascii_case(name))
                    .map(|index| (index, header[index].to_owned()))
            })
        };
        let two_columns = find(&["present_ms"]).zip(find(&["display_ms"]));
        let time_in_seconds = find(&["TimeInSeconds"]);
        let (present, (present_index, present_column)) = if let Some((present, _)) = &two_columns {
            (PresentSource::PresentMs, present.clone())
        } else if let Some(found) = find(&["MsBetweenPresents"]) {
            (PresentSource::BetweenPresents, found)
        } else if let Some(found) = time_in_seconds.clone() {
            (PresentSource::TimeInSeconds, found)
        } else if let Some(found) = find(&["CPUStartTime"]) {
            (PresentSource::CpuStartTime, found)
        } else {
            return Err(CaptureError::NoPresentColumn {
                found: listed(header.iter().copied()),
            });
        };
        let (display, (display_index, display_column)) = if let Some((_, shown)) = two_columns {
            (DisplaySource::DisplayMs, shown)
        } else if let Some(found) = find(&["MsUntilDisplayed"]) {
            (DisplaySource::UntilDisplayed, found)
        } else if let Some(found) = find(&["MsBetweenDisplayChange"]) {
            (DisplaySource::BetweenDisplayChange, found)
        } else {
            return Err(CaptureError::NoDisplayColumn);
        };
        let dropped = find(&["Dropped"]);
        Ok(Layout {
            present,
            present_index,
            display,
            display_index,
            dropped_index: dropped.as_ref().map(|(index, _)| *index),
            dropped_column: dropped.map(|(_, name)| name).unwrap_or_default(),
            application_index: find(&["Application"]).map(|(index, _)| index),
            process_index: find(&["ProcessID"]).map(|(index, _)| index),
            time_in_seconds_index: time_in_seconds.map(|(index, _)| index),
            present_column: clipped(&present_column),
            display_column: clipped(&display_column),
            processes: Vec::new(),
        })
    }

    /// Where present times come from.
    pub const fn present(&self) -> PresentSource {
        self.present
    }

    /// Where display times come from.
    pub const fn display(&self) -> DisplaySource {
        self.display
    }
}

/// What a first pass over a capture found: its layout, its processes, and
/// whether `TimeInSeconds` (when present) is too coarse to use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Survey {
    /// The layout, with the present source chosen.
    pub layout: Layout,
    /// Rows per process, as `(name, id)`, for the first [`MAX_PROCESSES`]
    /// processes met (names and ids kept to their first 256 characters).
    pub processes: BTreeMap<(String, String), u64>,
    /// Rows of the processes met after the first [`MAX_PROCESSES`].
    pub untracked_rows: u64,
    /// The fewest fractional digits of any `TimeInSeconds` value, if the
    /// column exists.
    pub time_decimals: Option<u32>,
}

impl Survey {
    /// Reads the header and every row of `input` for what it holds.
    ///
    /// # Errors
    ///
    /// [`CaptureError`] for malformed CSV or a header with no present or
    /// display times.
    pub fn of<R: Read>(input: R) -> Result<Survey, CaptureError> {
        let mut reader = csv_reader(input);
        let layout = read_layout(&mut reader)?;
        let mut processes: BTreeMap<(String, String), u64> = BTreeMap::new();
        let mut untracked_rows = 0_u64;
        let mut time_decimals: Option<u32> = None;
        let mut record = csv::ByteRecord::new();
        // Rows come in long runs of one process: count a run, then file it.
        let mut run: Option<((String, String), u64)> = None;
        while read_record(&mut reader, &mut record)? {
            if is_blank_or_comment(&record) {
                continue;
            }
            let name = key_text(&record, layout.application_index);
            let id = key_text(&record, layout.process_index);
            match &mut run {
                Some(((run_name, run_id), rows)) if *run_name == name && *run_id == id => {
                    *rows += 1;
                }
                _ => {
                    if let Some((key, rows)) = run.replace(((name, id), 1)) {
                        file_run(&mut processes, &mut untracked_rows, key, rows);
                    }
                }
            }
            // A value that is not text is refused when the rows are read.
            if let Some(text) = layout
                .time_in_seconds_index
                .and_then(|index| field(&record, Some(index)))
            {
                let decimals = text
                    .split_once('.')
                    .map_or(0, |(_, fraction)| fraction.len() as u32);
                time_decimals = Some(time_decimals.map_or(decimals, |d| d.min(decimals)));
            }
        }
        if let Some((key, rows)) = run {
            file_run(&mut processes, &mut untracked_rows, key, rows);
        }
        Ok(Survey {
            layout,
            processes,
            untracked_rows,
            time_decimals,
        })
    }

    /// The processes, for messages: the first 16 as `name (pid N, R rows)`,
    /// then how many more there are and their rows.
    pub fn process_list(&self) -> Vec<String> {
        let mut found: Vec<String> = self
            .processes
            .iter()
            .take(MAX_LISTED)
            .map(|((name, id), rows)| {
                let name = if name.is_empty() { "?" } else { name };
                let id = if id.is_empty() { "?" } else { id };
                format!("{} (pid {}, {rows} rows)", clipped(name), clipped(id))
            })
            .collect();
        let more = self.processes.len().saturating_sub(MAX_LISTED);
        let more_rows = self
            .processes
            .values()
            .skip(MAX_LISTED)
            .fold(self.untracked_rows, |sum, &rows| sum.saturating_add(rows));
        if self.untracked_rows > 0 {
            found.push(format!(
                "at least {} more processes ({more_rows} rows)",
                more + 1
            ));
        } else if more > 0 {
            found.push(format!("{more} more processes ({more_rows} rows)"));
        }
        found
    }

    /// Whether every process of the log is counted in
    /// [`processes`](Survey::processes).
    fn is_complete(&self) -> bool {
        self.untracked_rows == 0
            && self.processes.keys().all(|(name, id)| {
                name.chars().count() < MAX_KEY_CHARS && id.chars().count() < MAX_KEY_CHARS
            })
    }

    /// The layout to read with, and the process filter to apply, given the
    /// user's filter.
    ///
    /// # Errors
    ///
    /// [`CaptureError::SeveralProcesses`] when the log holds several and
    /// none is chosen, [`CaptureError::NoSuchProcess`] when the chosen one
    /// is absent, and [`CaptureError::Coarse`] when `TimeInSeconds` is too
    /// coarse and is all there is. A process past the [`MAX_PROCESSES`]
    /// counted may still be the one chosen: then [`Rows`] says, at the end,
    /// if no row was.
    pub fn plan(&self, process: Option<&ProcessFilter>) -> Result<Layout, CaptureError> {
        if let Some(filter) = process {
            let admitted = self
                .processes
                .keys()
                .any(|(name, id)| filter.admits(name, id));
            if !admitted && self.is_complete() {
                return Err(CaptureError::NoSuchProcess {
                    wanted: filter.to_string(),
                    found: self.process_list(),
                });
            }
        } else if self.processes.len() > 1 || self.untracked_rows > 0 {
            return Err(CaptureError::SeveralProcesses {
                found: self.process_list(),
            });
        }
        let coarse = self.time_decimals.is_some_and(|d| d < FINE_DECIMALS);
        if self.layout.present == PresentSource::TimeInSeconds && coarse {
            return Err(CaptureError::Coarse {
                decimals: self.time_decimals.unwrap_or(0),
            });
        }
        let mut layout = self.layout.clone();
        layout.processes = self.process_list();
        Ok(layout)
    }

    /// Whether `TimeInSeconds` exists but is too coarse (and so was passed
    /// over for the running sum of `MsBetweenPresents`).
    pub fn time_in_seconds_is_coarse(&self) -> bool {
        self.time_decimals.is_some_and(|d| d < FINE_DECIMALS)
    }
}

/// The rows of a capture, read one at a time.
pub struct Rows<R: Read> {
    reader: csv::Reader<R>,
    record: csv::ByteRecord,
    layout: Layout,
    process: Option<ProcessFilter>,
    /// The first row's present time in the column's own terms, in ns.
    origin: Option<u64>,
    /// The running sums, in ns.
    present_sum: u64,
    display_sum: u64,
    previous: u64,
    /// Rows the process filter let through.
    admitted: u64,
}

impl<R: Read> Rows<R> {
    /// The rows of `input` (header included) read with `layout`, keeping
    /// only `process` when given.
    ///
    /// # Errors
    ///
    /// [`CaptureError`] for malformed CSV, or a header that does not match
    /// `layout`. Reading goes on to refuse a bad value (naming its line and
    /// column), a backwards present time, and, at the end, a `process`
    /// that no row belonged to.
    pub fn new(
        input: R,
        layout: Layout,
        process: Option<ProcessFilter>,
    ) -> Result<Rows<R>, CaptureError> {
        let mut reader = csv_reader(input);
        read_layout(&mut reader)?;
        Ok(Rows {
            reader,
            record: csv::ByteRecord::new(),
            layout,
            process,
            origin: None,
            present_sum: 0,
            display_sum: 0,
            previous: 0,
            admitted: 0,
        })
    }

    fn row(&mut self) -> Result<Option<Row>, CaptureError> {
        loop {
            if !read_record(&mut self.reader, &mut self.record)? {
                // Said once: the end of the rows is then the end.
                return match self.process.take() {
                    Some(filter) if self.admitted == 0 => Err(CaptureError::NoSuchProcess {
                        wanted: filter.to_string(),
                        found: core::mem::take(&mut self.layout.processes),
                    }),
                    _ => Ok(None),
                };
            }
            if is_blank_or_comment(&self.record) {
                continue;
            }
            let layout = &self.layout;
            if let Some(filter) = &self.process {
                let name = lossy(&self.record, layout.application_index);
                let id = lossy(&self.record, layout.process_index);
                if !filter.admits(&name, &id) {
                    continue;
                }
            }
            self.admitted += 1;
            let line = self.record.position().map_or(0, csv::Position::line);
            let value = |index: usize, column: &str, scale: u32| {
                let text = text(&self.record, index, column, line)?;
                decimal::parse_scaled(text, scale)
                    .and_then(|nanos| u64::try_from(nanos).ok())
                    .ok_or_else(|| CaptureError::Value {
                        line,
                        column: column.to_owned(),
                        text: clipped(text),
                    })
            };
            let present_column = layout.present_column.clone();
            let first = self.origin.is_none();
            let present = match layout.present {
                PresentSource::BetweenPresents => {
                    // The first row's gap reaches back before the capture.
                    if !first {
                        let gap = value(layout.present_index, &present_column, 6)?;
                        self.present_sum = self.present_sum.saturating_add(gap);
                    }
                    self.origin = Some(0);
                    self.present_sum
                }
                source => {
                    let scale = if source == PresentSource::TimeInSeconds {
                        9
                    } else {
                        6
                    };
                    let absolute = value(layout.present_index, &present_column, scale)?;
                    let origin = *self.origin.get_or_insert(absolute);
                    absolute
                        .checked_sub(origin)
                        .ok_or(CaptureError::Backwards { line })?
                }
            };
            if !first && present < self.previous {
                return Err(CaptureError::Backwards { line });
            }
            self.previous = present;
            let display = self.display(present, line)?;
            return Ok(Some(Row { present, display }));
        }
    }

    /// The row's display time, if it was shown.
    fn display(&mut self, present: u64, line: u64) -> Result<Option<u64>, CaptureError> {
        let layout = &self.layout;
        let shown = text(
            &self.record,
            layout.display_index,
            &layout.display_column,
            line,
        )?;
        let dropped = match layout.dropped_index {
            None => false,
            Some(index) => match text(&self.record, index, &layout.dropped_column, line)? {
                "0" => false,
                "1" => true,
                other => {
                    return Err(CaptureError::Flag {
                        line,
                        column: layout.dropped_column.clone(),
                        text: clipped(other),
                    });
                }
            },
        };
        // Frames never shown have an empty or `NA` display value.
        let absent = shown.is_empty() || shown.eq_ignore_ascii_case("NA");
        if dropped || absent {
            return Ok(None);
        }
        let nanos = decimal::parse_scaled(shown, 6)
            .and_then(|nanos| u64::try_from(nanos).ok())
            .ok_or_else(|| CaptureError::Value {
                line,
                column: layout.display_column.clone(),
                text: clipped(shown),
            })?;
        Ok(match layout.display {
            DisplaySource::DisplayMs => {
                // On the present times' clock, from the first row's present.
                Some(nanos.saturating_sub(self.origin.unwrap_or(0)))
            }
            DisplaySource::UntilDisplayed => (nanos > 0).then(|| present.saturating_add(nanos)),
            DisplaySource::BetweenDisplayChange => {
                self.display_sum = self.display_sum.saturating_add(nanos);
                Some(self.display_sum)
            }
        })
    }
}

impl<R: Read> Iterator for Rows<R> {
    type Item = Result<Row, CaptureError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.row().transpose()
    }
}

fn csv_reader<R: Read>(input: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(input)
}

/// An empty record, or a comment: a line starting with `#`, or with `//`
/// (the metadata lines of `CapFrameX` logs).
fn is_blank_or_comment(record: &csv::ByteRecord) -> bool {
    let first = record.get(0).unwrap_or(b"");
    record.iter().all(<[u8]>::is_empty) || first.starts_with(b"#") || first.starts_with(b"//")
}

fn read_record<R: Read>(
    reader: &mut csv::Reader<R>,
    record: &mut csv::ByteRecord,
) -> Result<bool, CaptureError> {
    reader
        .read_byte_record(record)
        .map_err(|error| CaptureError::Malformed {
            line: error.position().map_or(0, csv::Position::line),
            message: error.to_string(),
        })
}

/// The header (the first non-empty record) as a layout.
fn read_layout<R: Read>(reader: &mut csv::Reader<R>) -> Result<Layout, CaptureError> {
    let mut record = csv::ByteRecord::new();
    loop {
        if !read_record(reader, &mut record)? {
            return Err(CaptureError::NoPresentColumn { found: Vec::new() });
        }
        if !is_blank_or_comment(&record) {
            break;
        }
    }
    let header: Vec<Cow<'_, str>> = record.iter().map(String::from_utf8_lossy).collect();
    let header: Vec<&str> = header.iter().map(AsRef::as_ref).collect();
    Layout::from_header(&header)
}

/// Field `index` of `record` as text (empty when absent), or `None` when it
/// is not UTF-8.
fn field(record: &csv::ByteRecord, index: Option<usize>) -> Option<&str> {
    let bytes = index.and_then(|index| record.get(index)).unwrap_or(b"");
    core::str::from_utf8(bytes).ok()
}

/// Value `index` of `record` (column `column`, on line `line`) as text.
fn text<'r>(
    record: &'r csv::ByteRecord,
    index: usize,
    column: &str,
    line: u64,
) -> Result<&'r str, CaptureError> {
    field(record, Some(index)).ok_or_else(|| CaptureError::NotText {
        line,
        column: column.to_owned(),
    })
}

/// Field `index` of `record` as text, any bytes that are not UTF-8 replaced
/// (process names and ids, which are compared, never parsed as numbers).
fn lossy(record: &csv::ByteRecord, index: Option<usize>) -> Cow<'_, str> {
    String::from_utf8_lossy(index.and_then(|index| record.get(index)).unwrap_or(b""))
}

/// A process name or id as the survey keys it, to [`MAX_KEY_CHARS`].
fn key_text(record: &csv::ByteRecord, index: Option<usize>) -> String {
    let text = lossy(record, index);
    match text.char_indices().nth(MAX_KEY_CHARS) {
        Some((end, _)) => text[..end].to_owned(),
        None => text.into_owned(),
    }
}

/// Counts a run of `rows` rows of process `key`: with its own count if it
/// is among the first [`MAX_PROCESSES`] met, else with the untracked rows.
fn file_run(
    processes: &mut BTreeMap<(String, String), u64>,
    untracked_rows: &mut u64,
    key: (String, String),
    rows: u64,
) {
    if let Some(count) = processes.get_mut(&key) {
        *count = count.saturating_add(rows);
    } else if processes.len() < MAX_PROCESSES {
        processes.insert(key, rows);
    } else {
        *untracked_rows = untracked_rows.saturating_add(rows);
    }
}

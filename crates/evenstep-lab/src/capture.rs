//! Captures with display times, read a row at a time: the two-column
//! `present_ms,display_ms` format, and PresentMon logs in the 1.x and 2.x
//! column sets (with a process filter where a log holds several). Every row
//! becomes a present time and, if the frame reached the screen, a display
//! time, both in nanoseconds on one clock. Nothing is kept per row, so a
//! log of any length is read in fixed memory; reading twice (once to learn
//! the display, once to judge) is the caller's choice.

use core::fmt;
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
        /// The header's fields.
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
        /// The text found.
        text: String,
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
        /// Each process as `name (pid N, R rows)`.
        found: Vec<String>,
    },
    /// No row belongs to the chosen process.
    NoSuchProcess {
        /// The filter, as given.
        wanted: String,
        /// The processes the log holds.
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
                found: header.iter().map(|&field| field.to_owned()).collect(),
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
        Ok(Layout {
            present,
            present_index,
            display,
            display_index,
            dropped_index: find(&["Dropped"]).map(|(index, _)| index),
            application_index: find(&["Application"]).map(|(index, _)| index),
            process_index: find(&["ProcessID"]).map(|(index, _)| index),
            time_in_seconds_index: time_in_seconds.map(|(index, _)| index),
            present_column,
            display_column,
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
    /// Rows per process, as `(name, id)`.
    pub processes: BTreeMap<(String, String), u64>,
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
        let mut processes = BTreeMap::new();
        let mut time_decimals: Option<u32> = None;
        let mut record = csv::ByteRecord::new();
        // Rows come in long runs of one process: count a run, then file it.
        let mut run: Option<((String, String), u64)> = None;
        while read_record(&mut reader, &mut record)? {
            if is_blank_or_comment(&record) {
                continue;
            }
            let name = field(&record, layout.application_index);
            let id = field(&record, layout.process_index);
            match &mut run {
                Some(((run_name, run_id), rows)) if run_name == name && run_id == id => *rows += 1,
                _ => {
                    if let Some((key, rows)) = run.replace(((name.to_owned(), id.to_owned()), 1)) {
                        *processes.entry(key).or_insert(0) += rows;
                    }
                }
            }
            if let Some(index) = layout.time_in_seconds_index {
                let text = field(&record, Some(index));
                let decimals = text
                    .split_once('.')
                    .map_or(0, |(_, fraction)| fraction.len() as u32);
                time_decimals = Some(time_decimals.map_or(decimals, |d| d.min(decimals)));
            }
        }
        if let Some((key, rows)) = run {
            *processes.entry(key).or_insert(0) += rows;
        }
        Ok(Survey {
            layout,
            processes,
            time_decimals,
        })
    }

    /// The processes, for messages: `name (pid N, R rows)`.
    pub fn process_list(&self) -> Vec<String> {
        self.processes
            .iter()
            .map(|((name, id), rows)| {
                let name = if name.is_empty() { "?" } else { name };
                let id = if id.is_empty() { "?" } else { id };
                format!("{name} (pid {id}, {rows} rows)")
            })
            .collect()
    }

    /// The layout to read with, and the process filter to apply, given the
    /// user's filter.
    ///
    /// # Errors
    ///
    /// [`CaptureError::SeveralProcesses`] when the log holds several and
    /// none is chosen, [`CaptureError::NoSuchProcess`] when the chosen one
    /// is absent, and [`CaptureError::Coarse`] when `TimeInSeconds` is too
    /// coarse and is all there is.
    pub fn plan(&self, process: Option<&ProcessFilter>) -> Result<Layout, CaptureError> {
        if let Some(filter) = process {
            let admitted = self
                .processes
                .keys()
                .any(|(name, id)| filter.admits(name, id));
            if !admitted {
                return Err(CaptureError::NoSuchProcess {
                    wanted: match filter {
                        ProcessFilter::Name(name) => name.clone(),
                        ProcessFilter::Id(id) => id.to_string(),
                    },
                    found: self.process_list(),
                });
            }
        } else if self.processes.len() > 1 {
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
        Ok(self.layout.clone())
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
}

impl<R: Read> Rows<R> {
    /// The rows of `input` (header included) read with `layout`, keeping
    /// only `process` when given.
    ///
    /// # Errors
    ///
    /// [`CaptureError`] for malformed CSV, or a header that does not match
    /// `layout`.
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
        })
    }

    fn row(&mut self) -> Result<Option<Row>, CaptureError> {
        loop {
            if !read_record(&mut self.reader, &mut self.record)? {
                return Ok(None);
            }
            if is_blank_or_comment(&self.record) {
                continue;
            }
            let layout = &self.layout;
            if let Some(filter) = &self.process {
                let name = field(&self.record, layout.application_index);
                let id = field(&self.record, layout.process_index);
                if !filter.admits(name, id) {
                    continue;
                }
            }
            let line = self.record.position().map_or(0, csv::Position::line);
            let value = |index: usize, column: &str, scale: u32| {
                let text = field(&self.record, Some(index));
                decimal::parse_scaled(text, scale)
                    .and_then(|nanos| u64::try_from(nanos).ok())
                    .ok_or_else(|| CaptureError::Value {
                        line,
                        column: column.to_owned(),
                        text: text.to_owned(),
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
        let text = field(&self.record, Some(layout.display_index));
        let dropped = layout
            .dropped_index
            .is_some_and(|index| field(&self.record, Some(index)).trim() != "0");
        // Frames never shown have an empty or `NA` display value.
        let absent = text.is_empty() || text.eq_ignore_ascii_case("NA");
        if dropped || absent {
            return Ok(None);
        }
        let nanos = decimal::parse_scaled(text, 6)
            .and_then(|nanos| u64::try_from(nanos).ok())
            .ok_or_else(|| CaptureError::Value {
                line,
                column: layout.display_column.clone(),
                text: text.to_owned(),
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
    let header: Vec<&str> = record
        .iter()
        .map(|field| core::str::from_utf8(field).unwrap_or(""))
        .collect();
    Layout::from_header(&header)
}

/// Field `index` of `record` as text (empty when absent or not UTF-8).
fn field(record: &csv::ByteRecord, index: Option<usize>) -> &str {
    index
        .and_then(|index| record.get(index))
        .and_then(|bytes| core::str::from_utf8(bytes).ok())
        .unwrap_or("")
}

//! The first pass over a capture: its layout, the processes its rows
//! belong to, and how finely `TimeInSeconds` is written. At most
//! [`MAX_PROCESSES`] processes are counted, so a log of any length is
//! surveyed in fixed memory.

use std::collections::BTreeMap;
use std::io::Read;

use crate::capture::{CaptureError, MAX_LISTED, clipped};
use crate::csv_records::{csv_reader, field, is_blank_or_comment, lossy, read_layout, read_record};
use crate::layout::{Layout, PresentSource};
use crate::process_filter::ProcessFilter;

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
    /// counted may still be the one chosen: then [`Rows`](crate::Rows)
    /// says, at the end, if no row was.
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

//! A capture's rows, read one at a time: every row becomes a present time
//! and, if the frame reached the screen, a display time, both in
//! nanoseconds on one clock. Nothing is kept per row, so a log of any length
//! is read in fixed memory.

use std::io::Read;

use crate::capture::{CaptureError, NOT_REPORTED, clipped};
use crate::csv_records::{csv_reader, is_blank_or_comment, lossy, read_layout, read_record, text};
use crate::decimal;
use crate::layout::{DisplaySource, Layout, PresentSource};
use crate::process_filter::ProcessFilter;

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
    /// Rows whose `display_ms` is `?`: not reported.
    unreported: u64,
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
            unreported: 0,
        })
    }

    /// The rows read so far whose `display_ms` is
    /// [`NOT_REPORTED`](crate::NOT_REPORTED) (`?`): frames whose showing
    /// display feedback never reported, read as never shown (a capture in
    /// which no row has a display time is judged for stutter only: see
    /// [`CaptureError::NoReports`]).
    pub const fn unreported(&self) -> u64 {
        self.unreported
    }

    fn row(&mut self) -> Result<Option<Row>, CaptureError> {
        loop {
            if !read_record(&mut self.reader, &mut self.record)? {
                return self.end();
            }
            if is_blank_or_comment(&self.record) || !self.admits() {
                continue;
            }
            self.admitted += 1;
            let line = self.record.position().map_or(0, csv::Position::line);
            let present = self.present(line)?;
            let display = self.display(present, line)?;
            return Ok(Some(Row { present, display }));
        }
    }

    /// The end of the rows: the first time, an error if the process filter
    /// let no row through; after that (the error said once), the end.
    fn end(&mut self) -> Result<Option<Row>, CaptureError> {
        match self.process.take() {
            Some(filter) if self.admitted == 0 => Err(CaptureError::NoSuchProcess {
                wanted: filter.to_string(),
                found: core::mem::take(&mut self.layout.processes),
            }),
            _ => Ok(None),
        }
    }

    /// Whether the record belongs to the process read (any does, with no
    /// filter).
    fn admits(&self) -> bool {
        let Some(filter) = &self.process else {
            return true;
        };
        let name = lossy(&self.record, self.layout.application_index);
        let id = lossy(&self.record, self.layout.process_index);
        filter.admits(&name, &id)
    }

    /// The row's present time, from the first row's; a time earlier than
    /// the one before it is refused.
    fn present(&mut self, line: u64) -> Result<u64, CaptureError> {
        let layout = &self.layout;
        let column = &layout.present_column;
        let first = self.origin.is_none();
        let present = match layout.present {
            PresentSource::BetweenPresents => {
                // The first row's gap reaches back before the capture.
                if !first {
                    let text = text(&self.record, layout.present_index, column, line)?;
                    let gap = nanos(text, 6, column, line)?;
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
                let text = text(&self.record, layout.present_index, column, line)?;
                let absolute = nanos(text, scale, column, line)?;
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
        Ok(present)
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
        if layout.display == DisplaySource::DisplayMs {
            if shown == NOT_REPORTED {
                self.unreported += 1;
                return Ok(None);
            }
            let nanos = display_ms(shown, &layout.display_column, line)?;
            // On the present times' clock, from the first row's present.
            return Ok(Some(nanos.saturating_sub(self.origin.unwrap_or(0))));
        }
        let nanos = nanos(shown, 6, &layout.display_column, line)?;
        Ok(match layout.display {
            DisplaySource::DisplayMs => None,
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

/// `text` (column `column`, on line `line`) read as a decimal and scaled by
/// `10^scale`: nanoseconds from milliseconds at 6, from seconds at 9.
fn nanos(text: &str, scale: u32, column: &str, line: u64) -> Result<u64, CaptureError> {
    decimal::parse_scaled(text, scale)
        .and_then(|nanos| u64::try_from(nanos).ok())
        .ok_or_else(|| CaptureError::Value {
            line,
            column: column.to_owned(),
            text: clipped(text),
        })
}

/// A `display_ms` value that is neither empty nor `NA` (never shown) nor
/// `?` (not reported): a time in ms, as nanoseconds.
fn display_ms(text: &str, column: &str, line: u64) -> Result<u64, CaptureError> {
    decimal::parse_scaled(text, 6)
        .and_then(|nanos| u64::try_from(nanos).ok())
        .ok_or_else(|| CaptureError::DisplayMs {
            line,
            column: column.to_owned(),
            text: clipped(text),
        })
}

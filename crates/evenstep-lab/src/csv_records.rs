//! The CSV records of a capture, as every pass over it reads them: fields
//! trimmed, rows of any length, blank and comment lines recognised, and a
//! field taken as text only when it is UTF-8.

use std::borrow::Cow;
use std::io::Read;

use crate::capture::CaptureError;
use crate::layout::Layout;

/// A CSV reader of `input` as every pass reads a capture: the header is
/// found among the records (after any comments), fields are trimmed, and
/// rows may be of any length.
pub(crate) fn csv_reader<R: Read>(input: R) -> csv::Reader<R> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(input)
}

/// An empty record, or a comment: a line starting with `#`, or with `//`
/// (the metadata lines of `CapFrameX` logs).
pub(crate) fn is_blank_or_comment(record: &csv::ByteRecord) -> bool {
    let first = record.get(0).unwrap_or(b"");
    record.iter().all(<[u8]>::is_empty) || first.starts_with(b"#") || first.starts_with(b"//")
}

pub(crate) fn read_record<R: Read>(
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
pub(crate) fn read_layout<R: Read>(reader: &mut csv::Reader<R>) -> Result<Layout, CaptureError> {
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
pub(crate) fn field(record: &csv::ByteRecord, index: Option<usize>) -> Option<&str> {
    let bytes = index.and_then(|index| record.get(index)).unwrap_or(b"");
    core::str::from_utf8(bytes).ok()
}

/// Value `index` of `record` (column `column`, on line `line`) as text.
pub(crate) fn text<'r>(
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
pub(crate) fn lossy(record: &csv::ByteRecord, index: Option<usize>) -> Cow<'_, str> {
    String::from_utf8_lossy(index.and_then(|index| record.get(index)).unwrap_or(b""))
}

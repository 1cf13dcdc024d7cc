//! Recorded display traces from CSV: one column of timestamps, or a
//! PresentMon log read by its column names. Bad input is an error that says
//! which line is wrong and which columns and units were expected; nothing in
//! here panics on any input.

use core::fmt;

use crate::decimal;
use crate::rate::Rate;
use crate::trace::{Refresh, Trace};

/// The column names read from a PresentMon log, in order of preference.
const PRESENTMON_ABSOLUTE: &str = "TimeInSeconds";
const PRESENTMON_DELTAS: [&str; 2] = ["MsBetweenPresents", "msBetweenPresents"];

/// Below this median frame time, integer values cannot be nanoseconds from a
/// display (it would refresh at over 20 kHz): they are milliseconds written
/// without a decimal point.
const IMPLAUSIBLE_NANOS: u64 = 50_000;

/// Refresh rates a recorded median period is matched against (within 0.5%)
/// before falling back to the measured period itself.
const COMMON_RATES: [(u64, u64); 22] = [
    (24_000, 1_001),
    (24, 1),
    (25, 1),
    (30_000, 1_001),
    (30, 1),
    (48, 1),
    (50, 1),
    (60_000, 1_001),
    (60, 1),
    (72, 1),
    (75, 1),
    (85, 1),
    (90, 1),
    (100, 1),
    (120_000, 1_001),
    (120, 1),
    (144, 1),
    (165, 1),
    (170, 1),
    (180, 1),
    (240, 1),
    (360, 1),
];

/// How a CSV's timestamps were written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CsvFormat {
    /// One column of integer nanoseconds.
    Nanoseconds,
    /// One column of (decimal) milliseconds.
    Milliseconds,
    /// A PresentMon log's `TimeInSeconds` column: absolute seconds.
    PresentMonSeconds,
    /// A PresentMon log's `MsBetweenPresents` column: milliseconds since the
    /// previous present.
    PresentMonDeltas,
}

impl fmt::Display for CsvFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CsvFormat::Nanoseconds => "nanoseconds",
            CsvFormat::Milliseconds => "milliseconds",
            CsvFormat::PresentMonSeconds => "PresentMon TimeInSeconds",
            CsvFormat::PresentMonDeltas => "PresentMon MsBetweenPresents",
        })
    }
}

/// What the CSV formats accepted are, for error messages and `--help`.
pub const CSV_FORMATS: &str = "one column of timestamps, an optional header \
    (`ms` or `ns` in it sets the unit), one value per line: decimal values \
    (16.667) are milliseconds, integer values (16666667) are nanoseconds; \
    or a PresentMon CSV with a `TimeInSeconds` column (absolute seconds) or a \
    `MsBetweenPresents`/`msBetweenPresents` column (milliseconds between \
    presents). Lines starting with `#` are comments";

/// A CSV trace that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CsvError {
    /// The file is not well-formed CSV.
    Malformed {
        /// The line the reader stopped at (1-based).
        line: u64,
        /// The CSV reader's message.
        message: String,
    },
    /// Several columns, none of them a PresentMon timing column.
    Columns {
        /// The first line's fields.
        found: Vec<String>,
    },
    /// A value that is not a non-negative number in the column's unit.
    Value {
        /// The line (1-based).
        line: u64,
        /// The column read.
        column: String,
        /// The text found.
        text: String,
    },
    /// An absolute timestamp earlier than the one before it.
    Backwards {
        /// The line (1-based).
        line: u64,
        /// The text found.
        text: String,
    },
    /// Fewer than two timestamps.
    TooShort {
        /// How many there were.
        found: usize,
    },
    /// Integer values so close together that they cannot be nanoseconds.
    Implausible {
        /// The median frame time, read as nanoseconds.
        median_nanos: u64,
    },
    /// No two timestamps differ, so no refresh rate can be estimated.
    NoRefresh,
    /// The median frame time matches no common display rate, and none was
    /// given.
    NoSteadyRate {
        /// The median frame time, in ns.
        median_nanos: u64,
    },
}

impl fmt::Display for CsvError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CsvError::Malformed { line, message } => {
                write!(f, "line {line}: not valid CSV ({message})")
            }
            CsvError::Columns { found } => write!(
                f,
                "found the columns [{}]; expected {CSV_FORMATS}",
                found.join(", ")
            ),
            CsvError::Value { line, column, text } => write!(
                f,
                "line {line}: `{text}` in column `{column}` is not a non-negative number \
                 in that column's unit; expected {CSV_FORMATS}"
            ),
            CsvError::Backwards { line, text } => write!(
                f,
                "line {line}: the timestamp `{text}` is earlier than the one before it; \
                 timestamps must be in presentation order"
            ),
            CsvError::TooShort { found } => write!(
                f,
                "found {found} timestamp(s); a trace needs at least two. Expected {CSV_FORMATS}"
            ),
            CsvError::Implausible { median_nanos } => write!(
                f,
                "integer values are read as nanoseconds, but frames would then be \
                 {median_nanos} ns apart (a display over 20 kHz); write milliseconds \
                 with a decimal point (16.0), or name the column `ms`"
            ),
            CsvError::NoRefresh => write!(
                f,
                "every timestamp is the same, so the refresh rate cannot be estimated"
            ),
            CsvError::NoSteadyRate { median_nanos } => write!(
                f,
                "the median frame time, {:.3} ms, is no common display rate (24 to 360 Hz, \
                 within 0.5%), so the display's rate is not guessed; give it with --display-hz",
                *median_nanos as f64 / 1e6
            ),
        }
    }
}

impl std::error::Error for CsvError {}

/// Reads the timestamps of a CSV trace, in nanoseconds, and the format it
/// was written in. The accepted formats are those of [`CSV_FORMATS`].
///
/// # Errors
///
/// [`CsvError`] for malformed CSV, unexpected columns, a value that is not a
/// non-negative number, backwards absolute timestamps, fewer than two
/// timestamps, or integer "nanoseconds" too close together to be real.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{CsvFormat, read_csv};
///
/// let (stamps, format) = read_csv("ms\n0.0\n16.667\n33.333\n")?;
/// assert_eq!(format, CsvFormat::Milliseconds);
/// assert_eq!(stamps, vec![0, 16_667_000, 33_333_000]);
/// # Ok::<(), evenstep_lab::CsvError>(())
/// ```
pub fn read_csv(text: &str) -> Result<(Vec<u64>, CsvFormat), CsvError> {
    let rows = records(text)?;
    let Some((_, first)) = rows.first() else {
        return Err(CsvError::TooShort { found: 0 });
    };
    if let Some((index, format)) = presentmon_column(first) {
        let column = first[index].clone();
        return presentmon(&rows[1..], index, &column, format);
    }
    if first.len() > 1 {
        return Err(CsvError::Columns {
            found: first.clone(),
        });
    }
    let header = decimal::parse_scaled(&first[0], 0).is_none();
    let (column, body) = if header {
        (first[0].clone(), &rows[1..])
    } else {
        ("1".to_owned(), &rows[..])
    };
    let unit = header_unit(&column).unwrap_or_else(|| {
        let decimal_point = body
            .iter()
            .any(|(_, row)| row.first().is_some_and(|v| v.contains(['.', 'e', 'E'])));
        if decimal_point {
            CsvFormat::Milliseconds
        } else {
            CsvFormat::Nanoseconds
        }
    });
    let scale = if unit == CsvFormat::Milliseconds {
        6
    } else {
        0
    };
    let stamps = absolute(body, 0, &column, scale)?;
    if unit == CsvFormat::Nanoseconds && header_unit(&column).is_none() {
        let median = median_delta(&stamps).unwrap_or(u64::MAX);
        if median < IMPLAUSIBLE_NANOS {
            return Err(CsvError::Implausible {
                median_nanos: median,
            });
        }
    }
    Ok((stamps, unit))
}

/// Reads a CSV trace (see [`read_csv`]) named `name`. The display's refresh
/// is `display` when given, otherwise the median frame time matched to a
/// common rate ([`estimate_refresh`]); either way the trace says which
/// ([`Trace::refresh_note`](crate::Trace::refresh_note)).
///
/// # Errors
///
/// Those of [`read_csv`]; [`CsvError::NoRefresh`] when no two stamps
/// differ, and [`CsvError::NoSteadyRate`] when the median frame time matches
/// no common display rate and none is given.
pub fn parse_csv(
    name: impl Into<String>,
    text: &str,
    display: Option<Rate>,
) -> Result<Trace, CsvError> {
    let (stamps, format) = read_csv(text)?;
    stamp_trace(name, stamps, display, &format.to_string())
}

/// A trace of `stamps` (at least two, in ns), its frame times read from
/// `what` (`milliseconds`, `present_ms`): on `display` when given, else on
/// the median frame time matched to a common rate; the note says which.
pub(crate) fn stamp_trace(
    name: impl Into<String>,
    stamps: Vec<u64>,
    display: Option<Rate>,
    what: &str,
) -> Result<Trace, CsvError> {
    if stamps.len() < 2 {
        return Err(CsvError::TooShort {
            found: stamps.len(),
        });
    }
    let (rate, note) = if let Some(rate) = display {
        (rate, format!("{rate}, given"))
    } else {
        let median = median_delta(&stamps).ok_or(CsvError::NoRefresh)?;
        let rate = common_rate(median).ok_or(CsvError::NoSteadyRate {
            median_nanos: median,
        })?;
        let note = format!(
            "{rate}, estimated: the median {what} frame time, {:.3} ms, matched to it within 0.5%",
            median as f64 / 1e6
        );
        (rate, note)
    };
    Ok(Trace::new(name, stamps, Refresh::Fixed(rate)).with_refresh_note(note))
}

/// The refresh rate of a recorded trace: the median frame time, matched to
/// the nearest common display rate (24 to 360 Hz, the 1000/1001 ones
/// included) within 0.5%, or else taken as it is. 59.94 and 60 Hz are 0.1%
/// apart, closer than a jittery median can tell reliably: give the rate when
/// it is known. `None` when no two stamps differ, or when the median is no
/// rate a [`Rate`] can hold.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Rate, estimate_refresh};
///
/// let stamps: Vec<u64> = (0..100).map(|k| k * 16_683_333 + k % 2 * 20_000).collect();
/// assert_eq!(estimate_refresh(&stamps), Some("59.94".parse()?));
/// # Ok::<(), evenstep_lab::RateError>(())
/// ```
pub fn estimate_refresh(stamps: &[u64]) -> Option<Rate> {
    let median = median_delta(stamps)?;
    common_rate(median).or_else(|| Rate::ratio(1_000_000_000, median).ok())
}

/// The common display rate a frame time of `median` ns matches within
/// 0.5%, the nearest if several do.
fn common_rate(median: u64) -> Option<Rate> {
    COMMON_RATES
        .iter()
        .filter_map(|&(num, den)| {
            let rate = Rate::ratio(num, den).ok()?;
            let period = rate.period_nanos();
            let off = median.abs_diff(period);
            // Wide: a median of hours is `off` near u64::MAX.
            (u128::from(off) * 200 <= u128::from(period)).then_some((off, rate))
        })
        .min_by_key(|&(off, _)| off)
        .map(|(_, rate)| rate)
}

/// The median of the positive gaps between consecutive stamps.
fn median_delta(stamps: &[u64]) -> Option<u64> {
    let mut deltas: Vec<u64> = stamps
        .windows(2)
        .map(|pair| pair[1].saturating_sub(pair[0]))
        .filter(|&delta| delta > 0)
        .collect();
    if deltas.is_empty() {
        return None;
    }
    deltas.sort_unstable();
    Some(deltas[deltas.len() / 2])
}

/// Every non-empty record, with its line number.
fn records(text: &str) -> Result<Vec<(u64, Vec<String>)>, CsvError> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|error| CsvError::Malformed {
            line: error.position().map_or(0, csv::Position::line),
            message: error.to_string(),
        })?;
        let line = record.position().map_or(0, csv::Position::line);
        let fields: Vec<String> = record.iter().map(str::to_owned).collect();
        if fields.iter().any(|field| !field.is_empty()) {
            rows.push((line, fields));
        }
    }
    Ok(rows)
}

/// The PresentMon timing column in a header, if there is one.
fn presentmon_column(header: &[String]) -> Option<(usize, CsvFormat)> {
    if let Some(index) = header.iter().position(|f| f == PRESENTMON_ABSOLUTE) {
        return Some((index, CsvFormat::PresentMonSeconds));
    }
    PRESENTMON_DELTAS.iter().find_map(|name| {
        let index = header.iter().position(|f| f == name)?;
        Some((index, CsvFormat::PresentMonDeltas))
    })
}

fn presentmon(
    rows: &[(u64, Vec<String>)],
    index: usize,
    column: &str,
    format: CsvFormat,
) -> Result<(Vec<u64>, CsvFormat), CsvError> {
    let stamps = if format == CsvFormat::PresentMonSeconds {
        absolute(rows, index, column, 9)?
    } else {
        let mut now = 0_u64;
        let mut stamps = Vec::with_capacity(rows.len());
        for (line, row) in rows {
            now = now.saturating_add(value(*line, row, index, column, 6)?);
            stamps.push(now);
        }
        stamps
    };
    if stamps.len() < 2 {
        return Err(CsvError::TooShort {
            found: stamps.len(),
        });
    }
    Ok((stamps, format))
}

/// A column of absolute times, in order, as nanoseconds (each value times
/// `10^scale`).
fn absolute(
    rows: &[(u64, Vec<String>)],
    index: usize,
    column: &str,
    scale: u32,
) -> Result<Vec<u64>, CsvError> {
    let mut stamps: Vec<u64> = Vec::with_capacity(rows.len());
    for (line, row) in rows {
        let stamp = value(*line, row, index, column, scale)?;
        if stamps.last().is_some_and(|&previous| stamp < previous) {
            return Err(CsvError::Backwards {
                line: *line,
                text: row[index].clone(),
            });
        }
        stamps.push(stamp);
    }
    if stamps.len() < 2 {
        return Err(CsvError::TooShort {
            found: stamps.len(),
        });
    }
    Ok(stamps)
}

/// Field `index` of `row` times `10^scale`: nanoseconds, for a column whose
/// unit is `10^scale` ns.
fn value(
    line: u64,
    row: &[String],
    index: usize,
    column: &str,
    scale: u32,
) -> Result<u64, CsvError> {
    let text = row.get(index).map_or("", String::as_str);
    decimal::parse_scaled(text, scale)
        .and_then(|nanos| u64::try_from(nanos).ok())
        .ok_or_else(|| CsvError::Value {
            line,
            column: column.to_owned(),
            text: text.to_owned(),
        })
}

/// The unit a single column's header names, if it names one.
fn header_unit(header: &str) -> Option<CsvFormat> {
    header
        .split(|c: char| !c.is_ascii_alphanumeric())
        .find_map(|token| match token.to_ascii_lowercase().as_str() {
            "ms" | "millis" | "milliseconds" => Some(CsvFormat::Milliseconds),
            "ns" | "nanos" | "nanoseconds" => Some(CsvFormat::Nanoseconds),
            _ => None,
        })
}

//! The columns of a capture: which of them hold the present times, the
//! display times, the `Dropped` flag and the process, as a header names
//! them, in the two-column `present_ms,display_ms` format or a PresentMon
//! log's 1.x or 2.x column set.

use core::fmt;

use crate::capture::{CaptureError, clipped, listed};

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

/// The columns of a capture and what they are read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub(crate) present: PresentSource,
    pub(crate) present_index: usize,
    pub(crate) display: DisplaySource,
    pub(crate) display_index: usize,
    pub(crate) dropped_index: Option<usize>,
    pub(crate) application_index: Option<usize>,
    pub(crate) process_index: Option<usize>,
    pub(crate) time_in_seconds_index: Option<usize>,
    pub(crate) present_column: String,
    pub(crate) display_column: String,
    pub(crate) dropped_column: String,
    /// The processes the survey found, for a filter that turns out to admit
    /// no row ([`Survey::process_list`](crate::Survey::process_list)).
    pub(crate) processes: Vec<String>,
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

//! Which process of a PresentMon log to read, where a log holds several.

use core::fmt;

use crate::capture::clipped;

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

    pub(crate) fn admits(&self, name: &str, id: &str) -> bool {
        match self {
            ProcessFilter::Name(wanted) => wanted.eq_ignore_ascii_case(name),
            ProcessFilter::Id(wanted) => id.trim().parse::<u64>().is_ok_and(|id| id == *wanted),
        }
    }
}

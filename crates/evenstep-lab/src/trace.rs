//! A display trace: the timestamps at which a display presented frames, and
//! what is known of its refresh rate. Synthetic traces come from
//! [`Synthetic`](crate::Synthetic), recorded ones from
//! [`parse_csv`](crate::parse_csv).

use core::fmt;

use crate::rate::Rate;

/// How a trace's display refreshes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Refresh {
    /// A fixed refresh rate: every frame spans a whole number of refreshes.
    Fixed(Rate),
    /// A variable refresh rate display: each frame is presented when it is
    /// ready, anywhere between the two rates.
    Variable {
        /// The slowest refresh rate.
        slowest: Rate,
        /// The fastest refresh rate.
        fastest: Rate,
    },
}

impl Refresh {
    /// One typical refresh period in nanoseconds: the period of a fixed rate,
    /// the mean of the two extreme periods of a variable one.
    pub fn typical_period_nanos(self) -> u64 {
        match self {
            Refresh::Fixed(rate) => rate.period_nanos(),
            Refresh::Variable { slowest, fastest } => {
                (slowest.period_nanos() / 2).saturating_add(fastest.period_nanos() / 2)
            }
        }
    }
}

impl fmt::Display for Refresh {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refresh::Fixed(rate) => write!(f, "{rate}"),
            Refresh::Variable { slowest, fastest } => {
                let slowest = slowest.to_string();
                write!(f, "variable {}–{fastest}", slowest.trim_end_matches(" Hz"))
            }
        }
    }
}

/// Frame timestamps in nanoseconds, in presentation order, with a name and
/// the display's [`Refresh`].
///
/// The planners are anchored one [typical
/// period](Refresh::typical_period_nanos) before the first stamp (the
/// trace's *lead-in*), so the first frame spans one refresh and runs steps.
/// All times the lab reports are measured from that anchor.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Rate, Refresh, Trace};
///
/// let trace = Trace::new("three frames", vec![500, 1_000_500, 2_000_500], Refresh::Fixed(Rate::hz(1_000)?));
/// assert_eq!(trace.lead_in(), 1_000_000);
/// assert_eq!(trace.wall_times(), vec![1_000_000, 2_000_000, 3_000_000]);
/// assert_eq!(trace.deltas(), vec![1_000_000; 3]);
/// # Ok::<(), evenstep_lab::RateError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trace {
    name: String,
    stamps: Vec<u64>,
    refresh: Refresh,
    /// When each frame reached the screen (`None`: never shown), if known.
    display: Option<Vec<Option<u64>>>,
    /// How the refresh rate was found, when it was not known exactly.
    refresh_note: Option<String>,
}

impl Trace {
    /// A trace named `name` of `stamps` (nanoseconds, any origin) on a
    /// display that refreshes as `refresh` says.
    pub fn new(name: impl Into<String>, stamps: Vec<u64>, refresh: Refresh) -> Trace {
        Trace {
            name: name.into(),
            stamps,
            refresh,
            display: None,
            refresh_note: None,
        }
    }

    /// The same trace, saying how its refresh rate was found (estimated
    /// from what, or given).
    #[must_use = "`with_refresh_note` returns the changed trace"]
    pub fn with_refresh_note(mut self, note: impl Into<String>) -> Trace {
        self.refresh_note = Some(note.into());
        self
    }

    /// How the refresh rate was found, if the trace says.
    pub fn refresh_note(&self) -> Option<&str> {
        self.refresh_note.as_deref()
    }

    /// The same trace, with the time each frame reached the screen
    /// (nanoseconds, on the stamps' clock; `None` for a frame never shown).
    /// Extra entries are ignored and missing ones count as never shown.
    #[must_use = "`with_display` returns the changed trace"]
    pub fn with_display(mut self, mut display: Vec<Option<u64>>) -> Trace {
        display.resize(self.stamps.len(), None);
        self.display = Some(display);
        self
    }

    /// When each frame reached the screen, if the trace says.
    pub fn display(&self) -> Option<&[Option<u64>]> {
        self.display.as_deref()
    }

    /// The trace's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The timestamps, in nanoseconds, as given.
    pub fn stamps(&self) -> &[u64] {
        &self.stamps
    }

    /// How the display refreshes.
    pub const fn refresh(&self) -> Refresh {
        self.refresh
    }

    /// The number of frames.
    pub fn len(&self) -> usize {
        self.stamps.len()
    }

    /// Whether the trace has no frames.
    pub fn is_empty(&self) -> bool {
        self.stamps.is_empty()
    }

    /// How long before the first stamp the planners are anchored: one typical
    /// refresh period.
    pub fn lead_in(&self) -> u64 {
        self.refresh.typical_period_nanos()
    }

    /// Each frame's time since the anchor, in nanoseconds: the wall clock
    /// the planners see. A stamp earlier than the first counts as the first.
    pub fn wall_times(&self) -> Vec<u64> {
        let first = self.stamps.first().copied().unwrap_or(0);
        let lead_in = self.lead_in();
        self.stamps
            .iter()
            .map(|&t| t.saturating_sub(first).saturating_add(lead_in))
            .collect()
    }

    /// Each frame's time since the previous one (since the anchor for the
    /// first), in nanoseconds. As the planner takes it, a backwards stamp is
    /// a zero delta and the next delta is measured from it.
    pub fn deltas(&self) -> Vec<u64> {
        let mut previous = 0;
        self.wall_times()
            .into_iter()
            .map(|t| t.saturating_sub(core::mem::replace(&mut previous, t)))
            .collect()
    }
}

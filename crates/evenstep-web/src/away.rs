//! Absences: one in progress, and the report of one that ended: how long
//! the page was hidden, frozen or in the back-forward cache, and how much
//! of that time the loop's step budget dropped. The loop credits nothing on its own; the report is what a game
//! needs to decide what to credit, with [`Loop::catch_up`] and a cap of its
//! own.
//!
//! [`Loop::catch_up`]: evenstep::Loop::catch_up

use evenstep::{Nanos, PumpReport, Timestamp};

/// An absence that has ended: the page is painted again.
///
/// While a page is hidden, tick pumps keep the rules and the real timeline
/// running, but a throttled timer wakes about once a second (later about
/// once a minute), and each tick runs at most the loop's step budget: the
/// rest is dropped, as after any stall. A frozen page, or one in the
/// back-forward cache, runs nothing at all until it comes back, when one
/// tick covers the whole span. `dropped` adds up what those ticks dropped.
///
/// # The idle-game pattern
///
/// A game whose world should have moved on while the player was away runs
/// the dropped time as whole fixed steps, capped by its own design:
///
/// ```
/// use std::time::Duration;
/// use evenstep::{Loop, ManualClock, PumpKind};
/// use evenstep_web::{PageDriver, PageEvent, PageOptions};
///
/// let clock = ManualClock::new();
/// let mut driver =
///     PageDriver::<u64>::with_clock(Loop::builder(), clock.clone(), PageOptions::new())?;
/// driver.game_loop_mut().on_update(|steps, _| *steps += 1);
/// let mut steps = 0;
/// driver.start(false)?;
///
/// let _ = driver.page_event(&mut steps, PageEvent::Hidden);
/// // A hidden minute in which the throttled timer never got to run: the
/// // tick at showing covers it all, runs the budget and drops the rest.
/// clock.advance(Duration::from_secs(60));
/// let away = driver.page_event(&mut steps, PageEvent::Shown).unwrap();
/// assert_eq!(away.span().as_duration(), Duration::from_secs(60));
/// assert_eq!(steps, 5); // the one tick ran the budget, five 60 Hz steps
///
/// // Offline progress, capped by the game's design at ten seconds.
/// const OFFLINE_CAP: Duration = Duration::from_secs(10);
/// let owed = away.dropped.as_duration().min(OFFLINE_CAP);
/// let caught_up = driver.game_loop_mut().catch_up(&mut steps, owed).unwrap();
/// assert_eq!(caught_up.steps, 600);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// Anything that must be right against the wall clock over any absence (an
/// economy, a day-night phase) is better kept as a timestamp in the game's
/// state and integrated when read; the report is for the rest.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Away {
    /// When the page stopped being painted (hidden, frozen or cached), on
    /// the page's clock.
    pub since: Timestamp,
    /// When it was painted again.
    pub until: Timestamp,
    /// Of the span, the time the page was frozen or in the back-forward
    /// cache: no timer ran, nothing ticked.
    pub suspended: Nanos,
    /// Simulation time the step budget dropped over the absence (at the
    /// speed the loop was running): what an idle game may catch up.
    pub dropped: Nanos,
    /// Fixed steps due over the absence that the budget dropped.
    pub dropped_steps: u64,
    /// Fixed steps that did run over the absence, on tick pumps.
    pub steps: u64,
    /// Tick pumps that ran over the absence.
    pub tick_pumps: u64,
}

impl Away {
    /// How long the page was away: from `since` to `until`.
    pub fn span(&self) -> Nanos {
        self.until.saturating_since(self.since)
    }
}

/// An absence in progress: what its [`Away`] report adds up.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Absence {
    since: Timestamp,
    suspended_since: Option<Timestamp>,
    suspended: Nanos,
    dropped: Nanos,
    dropped_steps: u64,
    steps: u64,
    tick_pumps: u64,
}

impl Absence {
    /// An absence from `since`, the page suspended from then if `suspended`.
    pub(crate) fn new(since: Timestamp, suspended: bool) -> Absence {
        Absence {
            since,
            suspended_since: suspended.then_some(since),
            suspended: Nanos::ZERO,
            dropped: Nanos::ZERO,
            dropped_steps: 0,
            steps: 0,
            tick_pumps: 0,
        }
    }

    /// The page is (or is no longer) suspended at `now`.
    pub(crate) fn note_suspension(&mut self, now: Timestamp, suspended: bool) {
        match (self.suspended_since, suspended) {
            (Some(since), false) => {
                self.suspended = self.suspended.saturating_add(now.saturating_since(since));
                self.suspended_since = None;
            }
            (None, true) => self.suspended_since = Some(now),
            _ => {}
        }
    }

    /// A tick pump ran over the absence.
    pub(crate) fn count(&mut self, report: &PumpReport) {
        self.dropped = self.dropped.saturating_add(report.plan.dropped());
        self.dropped_steps += report.plan.steps_dropped();
        self.steps += report.steps;
        self.tick_pumps += 1;
    }

    /// The report of the absence, ended at `until`.
    pub(crate) fn end(self, until: Timestamp) -> Away {
        Away {
            since: self.since,
            until,
            suspended: self.suspended,
            dropped: self.dropped,
            dropped_steps: self.dropped_steps,
            steps: self.steps,
            tick_pumps: self.tick_pumps,
        }
    }
}

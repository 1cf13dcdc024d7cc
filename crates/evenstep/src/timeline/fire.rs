//! One firing of a timer, as its callback sees it.

use std::fmt;
use std::time::Duration;

use evenstep_core::Nanos;

use crate::timeline::{Timeline, TimerError, TimerHandle};

/// One firing of a timer, handed to its callback: how many periods it covers,
/// and the timeline, to schedule or cancel timers from inside.
pub struct Fire<'a, S> {
    pub(super) timeline: &'a mut Timeline<S>,
    pub(super) repeats: u64,
    pub(super) due: Nanos,
    pub(super) handle: TimerHandle,
}

impl<S> Fire<'_, S> {
    /// How many periods this call stands for: 1 for a one-shot, and for a
    /// repeating timer the number of its due times this advance covered.
    /// Write the callback to be correct for any value (`credit(rate *
    /// repeats)`, not `credit(rate)`).
    pub fn repeats(&self) -> u64 {
        self.repeats
    }

    /// The earliest due time this call covers.
    pub fn due(&self) -> Nanos {
        self.due
    }

    /// The timeline's time (the end of the advance that fired this).
    pub fn now(&self) -> Nanos {
        self.timeline.now
    }

    /// The handle of the timer being fired.
    pub fn handle(&self) -> TimerHandle {
        self.handle
    }

    /// Cancels the timer being fired (a repeating timer stops repeating).
    pub fn cancel_self(&mut self) {
        self.timeline.cancel(self.handle);
    }

    /// Cancels another timer; takes effect at once.
    pub fn cancel(&mut self, handle: TimerHandle) -> bool {
        self.timeline.cancel(handle)
    }

    /// Schedules a one-shot, first eligible at the next advance.
    ///
    /// # Errors
    ///
    /// [`TimerError::ZeroDuration`] if `delay` is zero.
    pub fn after<F>(&mut self, delay: Duration, callback: F) -> Result<TimerHandle, TimerError>
    where
        F: FnMut(&mut S, &mut Fire<'_, S>) + 'static,
    {
        self.timeline.after(delay, callback)
    }

    /// Schedules a repeating timer, first eligible at the next advance.
    ///
    /// # Errors
    ///
    /// [`TimerError::ZeroDuration`] if `period` is zero.
    pub fn every<F>(&mut self, period: Duration, callback: F) -> Result<TimerHandle, TimerError>
    where
        F: FnMut(&mut S, &mut Fire<'_, S>) + 'static,
    {
        self.timeline.every(period, callback)
    }
}

impl<S> fmt::Debug for Fire<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Fire")
            .field("repeats", &self.repeats)
            .field("due", &self.due)
            .field("handle", &self.handle)
            .finish_non_exhaustive()
    }
}

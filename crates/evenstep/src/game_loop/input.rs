//! The loop's input queue, as a frame source and a game see it: events
//! pushed with their times, the paused-input hooks, and the recorded log
//! (see [`crate::input`] for which step gets an event).

use evenstep_core::Timestamp;

use crate::game_loop::Loop;
use crate::input::{Delivery, InputError, InputEvent};
use crate::replay::{InputLog, RecordError};

impl<S> Loop<S> {
    /// Queues `event`, which happened at `at` on the loop's clock (a
    /// browser event's `timeStamp`, a platform's event time). The step whose
    /// span holds `at` reads it (see [`crate::input`]); an `at` earlier
    /// than an event already queued is taken as that event's time, so
    /// events reach the steps in the order pushed.
    ///
    /// # Errors
    ///
    /// [`InputError::NotFinite`] for a motion, wheel or pointer value that
    /// is NaN or infinite; [`InputError::TooFarAhead`] for an `at` more than
    /// [`MAX_AHEAD`](crate::input::MAX_AHEAD) (a second) after the loop's
    /// time now (the later of a clock reading taken by this call and the
    /// latest pump's time); and [`InputError::Full`] if
    /// [`MAX_WAITING`](crate::input::MAX_WAITING) events already wait (the
    /// loop is not being pumped). The queue is then unchanged.
    pub fn push_input(&mut self, at: Timestamp, event: InputEvent) -> Result<(), InputError> {
        let now = self.time.read().max(self.time.last_pump());
        self.input.push(at, event, now)
    }

    /// Queues `event` at the clock's reading now: for a frame source whose
    /// events carry no time of their own, which stamps each as it sees it.
    ///
    /// # Errors
    ///
    /// As [`push_input`](Loop::push_input).
    pub fn push_input_now(&mut self, event: InputEvent) -> Result<(), InputError> {
        let now = self.time.read();
        self.input.push(now, event, now)
    }

    /// Adds a hook that a paused pump which runs no step calls with the
    /// events due by its time, before they settle into the held state the
    /// next step sees: where a pause menu reads its input. Hooks run in the
    /// order added, at the place of the steps in the pump order.
    pub fn on_paused_input<F>(&mut self, hook: F)
    where
        F: FnMut(&mut S, &[InputEvent]) + 'static,
    {
        self.input.on_paused(Box::new(hook));
    }

    /// The events waiting for a step, oldest first, with their times.
    pub fn waiting_input(&self) -> impl ExactSizeIterator<Item = (Timestamp, &InputEvent)> {
        self.input.waiting()
    }

    /// The log of every step's input so far, if the loop records
    /// ([`LoopBuilder::record_input`](crate::LoopBuilder::record_input)).
    pub fn input_log(&self) -> Option<&InputLog<Delivery>> {
        self.input.log()
    }

    /// Stops recording and hands over the log, if the loop records.
    pub fn take_input_log(&mut self) -> Option<InputLog<Delivery>> {
        self.input.take_log()
    }

    /// Why recording stopped before it was taken, if it did: a tick past
    /// [`InputLog::MAX_TICKS`]. The log holds every tick before it.
    pub fn input_record_error(&self) -> Option<RecordError> {
        self.input.record_error()
    }
}

//! The loop's input queue: events wait here with their times until the
//! step whose span holds them begins (see [the module](crate::input) for
//! the rule), or a paused pump hands them to the paused-input hooks.

use std::collections::VecDeque;
use std::num::NonZeroU64;

use evenstep_core::{FramePlan, Nanos, Timestamp};

use crate::input::step_input::StepInput;
use crate::input::{Button, Delivery, InputError, InputEvent, MAX_AHEAD, MAX_WAITING};
use crate::replay::{InputLog, RecordError};

/// A paused-input hook.
pub(crate) type PausedHook<S> = Box<dyn FnMut(&mut S, &[InputEvent])>;

/// The state hash a recording checkpoints with.
pub(crate) type StateHasher<S> = Box<dyn FnMut(&S) -> u64>;

/// Events waiting for a step, the step being run's input, and what records
/// the steps' input.
pub(crate) struct InputQueue<S> {
    /// Events not yet delivered, in the order pushed, each with its time
    /// (never earlier than the one before it).
    waiting: VecDeque<(Timestamp, InputEvent)>,
    /// What paused pumps left of the held state, for the next step.
    settled: Settled,
    /// The input of the step being run (or the last one run).
    step: StepInput,
    /// The pump being run: when its steps end.
    span: Span,
    paused_hooks: Vec<PausedHook<S>>,
    /// The paused pump's events, handed to the hooks.
    paused: Vec<InputEvent>,
    recorder: Option<Recorder<S>>,
    /// The step was given back: the next step to begin keeps its input.
    carry: bool,
}

/// What the events that reached the paused-input hooks leave for the next
/// step: the last state of each button they moved, whether a focus loss
/// released everything first, and the last pointer position.
#[derive(Default)]
struct Settled {
    release_all: bool,
    buttons: Vec<(Button, bool)>,
    pointer: Option<(f64, f64)>,
}

/// When the steps of the pump being run end, in wall time.
#[derive(Clone, Copy, Default)]
struct Span {
    /// The previous frame's time and this pump's.
    from: Timestamp,
    to: Timestamp,
    /// The pump's first tick, and how many of its steps the bank paid for
    /// (the rest were queued).
    first_tick: u64,
    from_bank: u64,
    /// The bank before and after the pump, and a step, in the planner's
    /// units.
    bank_before: u128,
    bank_after: u128,
    per_step: u128,
    /// Whether the steps take events (a catch-up's do not).
    delivers: bool,
}

impl Span {
    /// The span of `plan`'s steps, planned at `now`: the wall time since
    /// the previous frame is its raw delta, and the plan says what the bank
    /// held before it.
    fn of(plan: &FramePlan, now: Timestamp) -> Span {
        let per_step = u128::from(plan.timestep().units_per_step());
        let bank_after = u128::from(plan.remainder_units());
        Span {
            from: now.saturating_sub(plan.raw_delta()),
            to: now,
            first_tick: plan.first_tick(),
            from_bank: plan.steps_from_bank(),
            bank_before: plan.bank_before_units(),
            bank_after,
            per_step,
            delivers: true,
        }
    }

    /// The wall time at which the step `tick` of the pump ends: where the
    /// bank reached its full length, with the pump's wall time mapped
    /// linearly onto what the bank gained; a queued step at the pump's time.
    fn end_of(&self, tick: u64) -> Timestamp {
        let index = u128::from(tick - self.first_tick);
        if index >= u128::from(self.from_bank) {
            return self.to;
        }
        let paid = u128::from(self.from_bank) * self.per_step + self.bank_after;
        let gained = paid.saturating_sub(self.bank_before);
        let filled = ((index + 1) * self.per_step).saturating_sub(self.bank_before);
        if filled == 0 {
            return self.from;
        }
        if filled >= gained {
            return self.to;
        }
        let wall = u128::from(self.to.saturating_since(self.from).as_nanos());
        // `filled / gained` is under 1: scale both down until the product
        // fits, which loses only what no nanosecond shows.
        let shift = (128 - gained.leading_zeros()).saturating_sub(64);
        let (filled, gained) = (filled >> shift, (gained >> shift).max(1));
        let offset = u64::try_from(wall * filled / gained).unwrap_or(u64::MAX);
        self.from
            .saturating_add(evenstep_core::Nanos::from_nanos(offset))
    }
}

/// The recorder of [`LoopBuilder::record_input`](crate::LoopBuilder::record_input).
struct Recorder<S> {
    log: InputLog<Delivery>,
    hash: StateHasher<S>,
    /// Why recording stopped, if it did.
    error: Option<RecordError>,
}

impl<S> InputQueue<S> {
    /// An empty queue that records nothing.
    pub(crate) fn new() -> InputQueue<S> {
        InputQueue {
            waiting: VecDeque::new(),
            settled: Settled::default(),
            step: StepInput::default(),
            span: Span::default(),
            paused_hooks: Vec::new(),
            paused: Vec::new(),
            recorder: None,
            carry: false,
        }
    }

    /// Records every step's input from tick 0, in a log at `timestep` with
    /// a checkpoint of `hash` every `every` ticks.
    pub(crate) fn record(
        &mut self,
        timestep: evenstep_core::Timestep,
        every: NonZeroU64,
        hash: StateHasher<S>,
    ) {
        self.recorder = Some(Recorder {
            log: InputLog::new(timestep, every),
            hash,
            error: None,
        });
    }

    /// Queues `event` at `at`, taken as the latest time queued if it is
    /// earlier, so events are delivered in the order pushed. `now` is the
    /// loop's time as the event is pushed: `at` may be at most
    /// [`MAX_AHEAD`] after it.
    pub(crate) fn push(
        &mut self,
        at: Timestamp,
        event: InputEvent,
        now: Timestamp,
    ) -> Result<(), InputError> {
        event.check()?;
        let ahead = at.saturating_since(now);
        if ahead > Nanos::from_duration(MAX_AHEAD) {
            return Err(InputError::TooFarAhead {
                ahead: ahead.as_duration(),
            });
        }
        if self.waiting.len() >= MAX_WAITING {
            return Err(InputError::Full);
        }
        let at = self.waiting.back().map_or(at, |(last, _)| at.max(*last));
        self.waiting.push_back((at, event));
        Ok(())
    }

    /// The events waiting for a step, oldest first, with their times.
    pub(crate) fn waiting(&self) -> impl ExactSizeIterator<Item = (Timestamp, &InputEvent)> {
        self.waiting.iter().map(|(at, event)| (*at, event))
    }

    /// The input of the step being run.
    #[inline]
    pub(crate) fn step(&self) -> &StepInput {
        &self.step
    }

    /// Adds a paused-input hook.
    pub(crate) fn on_paused(&mut self, hook: PausedHook<S>) {
        self.paused_hooks.push(hook);
    }

    /// Readies the queue for `plan`'s steps, a pump's at `now` or, with no
    /// time, a catch-up's (which take no events), and says whether they are
    /// quiet: nothing waiting that they may take, nothing a pause settled,
    /// no step given back to carry on, and no recorder. Nothing can be
    /// pushed while a pump runs (callbacks get the state, not the loop), so
    /// a quiet pump's steps skip [`begin_step`](InputQueue::begin_step) and
    /// [`end_step`](InputQueue::end_step), and read the empty input this
    /// leaves; only a pump that is not quiet works out when its steps end.
    /// The pump with an empty queue then costs about what the pump without
    /// a queue did (`bench/README.md`).
    #[inline]
    pub(crate) fn prepare(&mut self, plan: &FramePlan, now: Option<Timestamp>) -> bool {
        let nothing_due = self.waiting.is_empty() || now.is_none();
        let quiet =
            nothing_due && self.settled.is_empty() && !self.carry && self.recorder.is_none();
        if quiet {
            self.step.begin();
        } else {
            self.span = now.map_or(Span::default(), |now| Span::of(plan, now));
        }
        quiet
    }

    /// Step `tick` begins: it takes what a pause settled and the events
    /// that end by its end.
    pub(crate) fn begin_step(&mut self, tick: u64) {
        if !std::mem::take(&mut self.carry) {
            self.step.begin();
        }
        self.fill_step(tick);
    }

    /// What a pause settled, then the waiting events that end by the step's
    /// end, into the step begun.
    fn fill_step(&mut self, tick: u64) {
        let Self {
            settled,
            step,
            recorder,
            waiting,
            span,
            ..
        } = self;
        let mut log = |delivery: &Delivery| {
            if let Some(recorder) = recorder.as_mut() {
                recorder.record(tick, delivery);
            }
        };
        settled.settle_into(step, &mut log);
        if !span.delivers || waiting.is_empty() {
            return;
        }
        let end = span.end_of(tick);
        while waiting.front().is_some_and(|(at, _)| *at <= end) {
            if let Some((_, event)) = waiting.pop_front() {
                let delivery = Delivery {
                    event,
                    while_paused: false,
                };
                step.take(delivery, &mut log);
            }
        }
    }

    /// The step begun was given back: the step that next runs its tick
    /// keeps the input it was given (already recorded at the tick), and
    /// takes what is due by its own end on top.
    pub(crate) fn carry_step(&mut self) {
        self.carry = true;
    }

    /// Step `tick`'s updates ran on `state`: the recorder ends the tick.
    #[inline]
    pub(crate) fn end_step(&mut self, tick: u64, state: &S) {
        if let Some(recorder) = self.recorder.as_mut() {
            recorder.end(tick, state);
        }
    }

    /// A paused pump at `now` ran no step: the events due by `now` go to
    /// the paused-input hooks, and settle into the held state for the next
    /// step.
    pub(crate) fn paused_pump(&mut self, state: &mut S, now: Timestamp) {
        self.paused.clear();
        while self.waiting.front().is_some_and(|(at, _)| *at <= now) {
            if let Some((_, event)) = self.waiting.pop_front() {
                self.settled.note(&event);
                self.paused.push(event);
            }
        }
        if self.paused.is_empty() {
            return;
        }
        for hook in &mut self.paused_hooks {
            hook(state, &self.paused);
        }
    }

    /// The loop's step changes to `timestep` from `tick` on: a recorder at
    /// another step stops, with the reason, since its log replays at one.
    pub(crate) fn timestep_changed(&mut self, tick: u64, timestep: evenstep_core::Timestep) {
        if let Some(recorder) = self.recorder.as_mut()
            && recorder.error.is_none()
            && recorder.log.timestep() != timestep
        {
            recorder.error = Some(RecordError::TimestepChanged {
                tick,
                recorded: recorder.log.timestep(),
                new: timestep,
            });
        }
    }

    /// The recorded log, if the loop records.
    pub(crate) fn log(&self) -> Option<&InputLog<Delivery>> {
        self.recorder.as_ref().map(|recorder| &recorder.log)
    }

    /// Why recording stopped, if it did.
    pub(crate) fn record_error(&self) -> Option<RecordError> {
        self.recorder.as_ref().and_then(|recorder| recorder.error)
    }

    /// Stops recording and hands over the log.
    pub(crate) fn take_log(&mut self) -> Option<InputLog<Delivery>> {
        self.recorder.take().map(|recorder| recorder.log)
    }
}

impl Settled {
    /// Whether no pause left anything for the next step.
    #[inline]
    fn is_empty(&self) -> bool {
        !self.release_all && self.buttons.is_empty() && self.pointer.is_none()
    }

    /// Notes an event that reached the paused-input hooks.
    fn note(&mut self, event: &InputEvent) {
        match *event {
            InputEvent::Press(button) => self.set(button, true),
            InputEvent::Release(button) => self.set(button, false),
            InputEvent::Pointer { x, y } => self.pointer = Some((x, y)),
            InputEvent::FocusLost => {
                self.release_all = true;
                self.buttons.clear();
            }
            _ => {}
        }
    }

    /// `button`'s last state is `down`.
    fn set(&mut self, button: Button, down: bool) {
        match self.buttons.iter_mut().find(|(b, _)| *b == button) {
            Some(entry) => entry.1 = down,
            None => self.buttons.push((button, down)),
        }
    }

    /// Brings `step`'s held state and pointer to what the pause left,
    /// logging each change as a delivery that came while paused.
    fn settle_into(&mut self, step: &mut StepInput, log: &mut impl FnMut(&Delivery)) {
        let paused = |event| Delivery {
            event,
            while_paused: true,
        };
        if std::mem::take(&mut self.release_all) {
            step.take(paused(InputEvent::FocusLost), log);
        }
        for (button, down) in self.buttons.drain(..) {
            if down != step.held(button) {
                let event = if down {
                    InputEvent::Press(button)
                } else {
                    InputEvent::Release(button)
                };
                step.take(paused(event), log);
            }
        }
        if let Some((x, y)) = self.pointer.take() {
            step.take(paused(InputEvent::Pointer { x, y }), log);
        }
    }
}

impl<S> Recorder<S> {
    /// Records `delivery` at `tick`, unless recording stopped.
    fn record(&mut self, tick: u64, delivery: &Delivery) {
        if self.error.is_none()
            && let Err(error) = self.log.record(tick, delivery.clone())
        {
            self.error = Some(error);
        }
    }

    /// Ends `tick`, with a checkpoint of `state` where one falls.
    fn end(&mut self, tick: u64, state: &S) {
        if self.error.is_some() {
            return;
        }
        let hash = &mut self.hash;
        if let Err(error) = self.log.end_tick_with(tick, || hash(state)) {
            self.error = Some(error);
        }
    }
}

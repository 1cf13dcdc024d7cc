//! The page driver: the frame source without the browser. It follows the
//! page's lifecycle, hands what it sees to evenstep's [`FramePolicy`] (the
//! rules every frame source shares: paint on frames, tick while not
//! painting, wake when due) and does what the policy answers: paints at
//! each animation frame's own time, ticks on a timer while the page is not
//! painting, and says when that timer should wake next. It also ticks at
//! each lifecycle change and reports each absence when it ends ([`Away`]).
//! The browser glue (`PageLoop`, built for wasm32 only) forwards callbacks
//! to it; a test forwards them by hand, on a manual clock.

use evenstep::{
    Clock, ConfigError, Loop, LoopBuilder, Nanos, PumpKind, PumpReport, Timestamp,
    frame_policy::{FrameAction, FramePolicy, Painting},
};

use crate::away::{Absence, Away};
use crate::error::WebError;
use crate::page::{PageEvent, PageState};
use crate::page_input::{InputRefusal, InputStats, PageInput};

/// How the driver runs a page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageOptions {
    starved_after: Nanos,
    forward_input: bool,
}

impl Default for PageOptions {
    fn default() -> PageOptions {
        PageOptions::new()
    }
}

impl PageOptions {
    /// How long a visible page may go without an animation frame before it
    /// counts as not painting, by default: 250 ms, fifteen frames at 60 Hz.
    /// Long enough that a slow frame or a garbage collection is not taken
    /// for it; short enough that the rules barely notice.
    pub const DEFAULT_STARVED_AFTER: Nanos = Nanos::from_millis(250);

    /// The defaults.
    pub const fn new() -> PageOptions {
        PageOptions {
            starved_after: PageOptions::DEFAULT_STARVED_AFTER,
            forward_input: true,
        }
    }

    /// Whether a started `PageLoop` (wasm32) listens to the
    /// page's keyboard, mouse, wheel and focus events and pushes each into
    /// the loop's input queue at its own `timeStamp` (see
    /// [`PageDriver::input`]), so every fixed step reads its own
    /// [`StepInput`](evenstep::input::StepInput). On by default: the page
    /// owns the loop, and a step reading input is why the queue exists; an
    /// event no step reads costs a push and is let go by the step it lands
    /// on. Off for a page that forwards its own way (a UI framework's
    /// events, through [`PageInput`] or
    /// [`Loop::push_input`](evenstep::Loop::push_input)) or wants no
    /// listeners of the frame source's on its input.
    #[must_use]
    pub const fn forward_input(mut self, on: bool) -> PageOptions {
        self.forward_input = on;
        self
    }

    /// Whether input is forwarded.
    pub const fn forwards_input(&self) -> bool {
        self.forward_input
    }

    /// How long a page that says it is visible may go without an animation
    /// frame before tick pumps take over (zero is taken as one millisecond).
    #[must_use]
    pub const fn starved_after(mut self, wait: Nanos) -> PageOptions {
        self.starved_after = if wait.is_zero() {
            Nanos::from_millis(1)
        } else {
            wait
        };
        self
    }

    /// The starvation time in use.
    pub const fn starvation_time(&self) -> Nanos {
        self.starved_after
    }
}

/// Counts of what the driver did, for tests, overlays and measurements.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageStats {
    /// Paint pumps run on animation frames.
    pub paints: u64,
    /// Tick pumps run on the timer or at a lifecycle change.
    pub ticks: u64,
    /// Timer wake-ups, whether or not they ticked.
    pub wakes: u64,
    /// Timer wake-ups while the page was hidden.
    pub hidden_wakes: u64,
    /// The shortest time between two timer wake-ups in a row while the page
    /// stayed hidden: how hard the browser throttles the page's timers.
    pub shortest_hidden_wake_gap: Option<Nanos>,
    /// The longest such time.
    pub longest_hidden_wake_gap: Option<Nanos>,
    /// Animation frames that arrived while the page was away, not painted.
    pub ignored_frames: u64,
    /// Times a visible page's frames stopped arriving and ticks took over.
    pub starvations: u64,
    /// Absences that ended (each reported as an [`Away`]).
    pub absences: u64,
    /// Time spent inside paint pumps (updates, timers, jobs and render
    /// subscribers, not what the paint hook draws afterwards), on the
    /// driver's clock: with `paints`, the mean cost of a paint pump.
    pub paint_pump_time: Nanos,
    /// What became of the page's input events ([`PageDriver::input`]).
    pub input: InputStats,
}

/// Drives a [`Loop`] from a browser page's callbacks.
///
/// Forward these, and the driver does the rest:
///
/// - each animation frame, with the time the browser passed it, to
///   [`animation_frame`](PageDriver::animation_frame): a paint pump at that
///   time, unless the page is away; draw if its report says it rendered;
/// - each wake-up of the page's timer to [`timer`](PageDriver::timer): a
///   tick pump when the page is not painting and something is due;
/// - each lifecycle event to [`page_event`](PageDriver::page_event): it
///   ticks at the change, and when the page is painted again after an
///   absence it returns the [`Away`] report;
/// - each input event, with its `timeStamp`, to
///   [`input`](PageDriver::input): it goes into the loop's queue for the
///   step whose span holds it;
/// - after each of these, ask for animation frames while
///   [`wants_frames`](PageDriver::wants_frames), and arm the timer for
///   [`next_wake`](PageDriver::next_wake).
///
/// When to paint, tick and wake is [`FramePolicy`]'s to say: the driver
/// feeds it the page's callbacks and carries out its answers.
///
/// The driver reads time from the same [`Clock`] it gives the loop; in a
/// page that is `performance.now()`, in a test a manual clock.
///
/// Animation-frame times and clock readings interleave, and a frame's time
/// is the start of the frame, often earlier than a clock reading taken by a
/// timer just before it. The loop never sees time go backwards: a pump at a
/// time before the previous pump's is taken at that previous time, a zero
/// delta ([`Loop::pump_at`]).
pub struct PageDriver<S> {
    game_loop: Loop<S>,
    clock: Box<dyn Clock>,
    options: PageOptions,
    /// What the browser says of the page; its `starved` is the policy's,
    /// and stays false here.
    page: PageState,
    policy: FramePolicy,
    /// The previous timer wake-up, while the page has stayed hidden since.
    last_hidden_wake: Option<Timestamp>,
    absence: Option<Absence>,
    stats: PageStats,
}

impl<S> PageDriver<S> {
    /// A driver whose loop is built from `builder` and reads `clock`, as the
    /// driver does. Any clock the builder was given is replaced, so the two
    /// can never disagree.
    ///
    /// # Errors
    ///
    /// The builder's [`ConfigError`].
    pub fn with_clock<C>(
        builder: LoopBuilder<S>,
        clock: C,
        options: PageOptions,
    ) -> Result<PageDriver<S>, ConfigError>
    where
        C: Clock + Clone + 'static,
    {
        let game_loop = builder.clock(clock.clone()).build()?;
        Ok(PageDriver {
            game_loop,
            clock: Box::new(clock),
            options,
            page: PageState::default(),
            policy: FramePolicy::new(options.starved_after),
            last_hidden_wake: None,
            absence: None,
            stats: PageStats::default(),
        })
    }

    /// The loop, to read statistics.
    pub fn game_loop(&self) -> &Loop<S> {
        &self.game_loop
    }

    /// The loop, mutably: subscribers, timers, pause, speed, catch-up, stop.
    pub fn game_loop_mut(&mut self) -> &mut Loop<S> {
        &mut self.game_loop
    }

    /// What the driver knows of the page.
    pub fn page(&self) -> PageState {
        PageState {
            starved: self.policy.is_starved(),
            ..self.page
        }
    }

    /// The frame-source policy as it stands: painting, away or starved, and
    /// what it waits for.
    pub fn policy(&self) -> &FramePolicy {
        &self.policy
    }

    /// What the driver has done.
    pub fn stats(&self) -> PageStats {
        self.stats
    }

    /// The options in use.
    pub fn options(&self) -> PageOptions {
        self.options
    }

    /// A reading of the driver's clock.
    pub fn now(&self) -> Timestamp {
        self.clock.now()
    }

    /// Starts the loop at the clock's reading. `hidden` is the page's
    /// `document.hidden` now: a page opened in a background tab starts
    /// ticking, and is away until it is first shown.
    ///
    /// # Errors
    ///
    /// [`WebError::AlreadyStarted`] if the loop is running.
    pub fn start(&mut self, hidden: bool) -> Result<(), WebError> {
        if self.game_loop.is_running() {
            return Err(WebError::AlreadyStarted);
        }
        self.game_loop.start();
        let now = self.clock.now();
        self.page = PageState {
            hidden,
            ..PageState::default()
        };
        self.last_hidden_wake = None;
        self.absence = hidden.then(|| Absence::new(now, false));
        self.policy = FramePolicy::new(self.options.starved_after);
        let action = self.policy.start(now, hidden);
        self.carry_out(action);
        Ok(())
    }

    /// Stops the loop. An absence in progress is forgotten.
    pub fn stop(&mut self) {
        self.game_loop.stop();
        self.absence = None;
    }

    /// Whether the loop is running.
    pub fn is_running(&self) -> bool {
        self.game_loop.is_running()
    }

    /// An animation frame, with the time the browser passed its callbacks:
    /// a paint pump at that time. Not painted (and `None`) while the page
    /// is away or the loop is not running. Draw if the report says
    /// `rendered`.
    pub fn animation_frame(&mut self, state: &mut S, frame_time: Timestamp) -> Option<PumpReport> {
        if !self.game_loop.is_running() {
            return None;
        }
        let action = self.policy.frame_arrived(frame_time);
        let Some(kind) = action.pump else {
            self.stats.ignored_frames += 1;
            return None;
        };
        // The next frame is asked for in this same callback: the wait for
        // it runs from this frame's time, the page's time for it.
        self.policy.redraw_requested(frame_time);
        let began = self.clock.now();
        let report = self.game_loop.pump_at(state, kind, frame_time).report()?;
        let cost = self.clock.now().saturating_since(began);
        self.stats.paint_pump_time = self.stats.paint_pump_time.saturating_add(cost);
        self.stats.paints += 1;
        Some(report)
    }

    /// A wake-up of the page's timer: a tick pump at the clock's reading
    /// when the page is not painting (away, or a visible page whose frames
    /// stopped for the starvation time) and a step, a real timer or a
    /// request is due. Returns the tick's report if one ran.
    pub fn timer(&mut self, state: &mut S) -> Option<PumpReport> {
        if !self.game_loop.is_running() {
            return None;
        }
        let now = self.clock.now();
        self.stats.wakes += 1;
        if self.page.hidden {
            self.note_hidden_wake(now);
        }
        let action = self.policy.poll(now, self.game_loop.next_due());
        self.carry_out(action);
        action.pump?;
        self.tick(state, now)
    }

    /// A lifecycle event: ticks at the change (so the time up to it is run
    /// while the state is current, and a frozen span is run, budget and
    /// all, as soon as the page runs again), and when the page is no longer
    /// away, ends the absence and returns its [`Away`] report.
    pub fn page_event(&mut self, state: &mut S, event: PageEvent) -> Option<Away> {
        if !self.game_loop.is_running() {
            return None;
        }
        let now = self.clock.now();
        let was_away = self.page.is_away();
        if !self.page.apply(event) {
            return None;
        }
        let suspended = self.page.is_suspended();
        if let Some(absence) = &mut self.absence {
            absence.note_suspension(now, suspended);
        }
        if !self.page.hidden {
            self.last_hidden_wake = None;
        }
        // The tick at the change: before a suspension, the last chance to
        // run what is due; after one, the whole suspended span at once.
        let _ = self.tick(state, now);
        // However short, the spell away is an absence, not a slow frame, in
        // the loop's statistics too: the policy says when one begins.
        let action = self.policy.set_away(now, self.page.is_away());
        self.carry_out(action);
        match (was_away, self.page.is_away()) {
            (false, true) => {
                self.absence = Some(Absence::new(now, suspended));
                None
            }
            (true, false) => {
                self.stats.absences += 1;
                self.absence.take().map(|absence| absence.end(now))
            }
            _ => None,
        }
    }

    /// An input event the page saw, stamped `time_stamp` (the DOM event's
    /// own `timeStamp`, converted as animation-frame times are, with
    /// [`timestamp_from_millis`](crate::timestamp_from_millis)): its
    /// events go into the loop's queue at that time
    /// ([`Loop::push_input`]), so the step whose wall-clock span holds it
    /// reads it, and an event stamped after a pump's time waits for a
    /// later pump's steps.
    ///
    /// `timeStamp` and `performance.now()` share the page's time origin,
    /// and an event is made before its handler runs, so a stamp later
    /// than the driver's clock cannot be a real one: it is taken at the
    /// clock's reading and counted in
    /// [`InputStats::stamps_after_now`]. Every refusal is counted in
    /// [`PageStats::input`], and the latest kept, as well as returned.
    ///
    /// # Errors
    ///
    /// The [`InputRefusal`]: a value [`PageInput::into_events`] refuses
    /// (nothing is pushed), or the loop's [`InputError`](evenstep::input::InputError)
    /// (the events before it are pushed).
    pub fn input(&mut self, time_stamp: Timestamp, input: PageInput) -> Result<(), InputRefusal> {
        let now = self.clock.now();
        let at = if time_stamp > now {
            self.stats.input.stamps_after_now += 1;
            now
        } else {
            time_stamp
        };
        let pushed = input.into_events().and_then(|events| {
            for event in events {
                self.game_loop
                    .push_input(at, event)
                    .map_err(InputRefusal::Loop)?;
                self.stats.input.forwarded += 1;
            }
            Ok(())
        });
        if let Err(refusal) = pushed {
            self.stats.input.refused += 1;
            self.stats.input.last_refusal = Some(refusal);
        }
        pushed
    }

    /// How long from now the page's timer should wake, or `None` when it
    /// need not (the loop is not running, or the page is suspended and no
    /// timer would run). While painting: when the frames would count as
    /// stopped (at once, if that has passed). Otherwise: when the loop's
    /// next step, real timer or request is due ([`Loop::next_due`]), at
    /// least a millisecond away so a due time that has passed cannot spin
    /// ([`FramePolicy::MIN_TICK_WAIT`]); `None` if nothing is ever due (a
    /// paused loop without real timers).
    pub fn next_wake(&self) -> Option<Nanos> {
        if !self.game_loop.is_running() || self.page.is_suspended() {
            return None;
        }
        let now = self.clock.now();
        let at = self.policy.wake_at(now, self.game_loop.next_due())?;
        Some(at.saturating_since(now))
    }

    /// Whether animation frames should be asked for: the loop runs and the
    /// page is not away. A starved page keeps asking: a frame arriving is
    /// how it says it renders again. (Every frame the policy asks for is
    /// asked for this way.)
    pub fn wants_frames(&self) -> bool {
        self.game_loop.is_running() && self.policy.wants_frames()
    }

    /// Carries out what the policy answered, but its pump and its request
    /// for a frame (see [`wants_frames`](PageDriver::wants_frames)).
    fn carry_out(&mut self, action: FrameAction) {
        if action.begin_absence() {
            self.game_loop.begin_absence();
        }
        if action.painting == Some(Painting::Starved) {
            self.stats.starvations += 1;
        }
    }

    /// Counts a timer wake-up while hidden, and its gap from the previous
    /// one while the page stayed hidden.
    fn note_hidden_wake(&mut self, now: Timestamp) {
        self.stats.hidden_wakes += 1;
        if let Some(previous) = self.last_hidden_wake.replace(now) {
            let gap = now.saturating_since(previous);
            let counts = &mut self.stats;
            counts.shortest_hidden_wake_gap =
                Some(counts.shortest_hidden_wake_gap.map_or(gap, |g| g.min(gap)));
            counts.longest_hidden_wake_gap =
                Some(counts.longest_hidden_wake_gap.map_or(gap, |g| g.max(gap)));
        }
    }

    fn tick(&mut self, state: &mut S, now: Timestamp) -> Option<PumpReport> {
        let report = self
            .game_loop
            .pump_at(state, PumpKind::Tick, now)
            .report()?;
        self.stats.ticks += 1;
        if let Some(absence) = &mut self.absence {
            absence.count(&report);
        }
        Some(report)
    }
}

impl<S> std::fmt::Debug for PageDriver<S> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageDriver")
            .field("game_loop", &self.game_loop)
            .field("options", &self.options)
            .field("page", &self.page())
            .field("policy", &self.policy)
            .field("stats", &self.stats)
            .finish_non_exhaustive()
    }
}

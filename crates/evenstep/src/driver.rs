//! The loop driver: [`Loop`] owns a planner, a clock, two timelines, jobs and
//! subscribers, and runs them in a fixed order each time the host pumps it.
//! Nothing runs on its own: no thread, no timer, no autostart. The host (a
//! window's redraw callback, a server's tick, a test) calls
//! [`pump`](Loop::pump), and the loop does one frame's worth of work.

use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

use evenstep_core::{
    FrameLoop, FramePlan, FrameRateGovernor, Nanos, Pacing, Rate, Speed, StepBudget, Timestamp,
    Timestep,
};

use crate::context::{Control, RenderContext, StepContext};
use crate::jobs::{JobHandle, Jobs};
use crate::stats::{Collector, LoopStats, MAX_GAP_WINDOW_SECS, PumpSample, StatsConfig};
use crate::{Clock, MonotonicClock, Timeline};

type Update<S> = Box<dyn FnMut(&mut S, &StepContext<'_>)>;
type Render<S> = Box<dyn FnMut(&S, &RenderContext<'_>)>;
type Stall<S> = Box<dyn FnMut(&mut S, &FramePlan)>;
type Hook<S> = Box<dyn FnMut(&mut S, &FramePlan)>;

/// Which kind of frame a pump is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PumpKind {
    /// A frame the display shows: everything runs, renders included.
    Paint,
    /// A wake-up while nothing is painted (a hidden or minimized window, a
    /// server): real time, jobs, timers and steps run; renders do not.
    Tick,
}

/// Names an update or render subscriber, to remove it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SubscriberId(u64);

/// What a pump did.
#[allow(
    clippy::large_enum_variant,
    reason = "returned by value once a pump, never stored in bulk; a box would allocate every pump"
)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pump {
    /// The loop has not been started: nothing ran.
    NotStarted,
    /// The loop is stopped: nothing ran.
    Stopped,
    /// The pump ran.
    Ran(PumpReport),
}

impl Pump {
    /// The report, if the pump ran.
    pub fn report(self) -> Option<PumpReport> {
        match self {
            Pump::Ran(report) => Some(report),
            Pump::NotStarted | Pump::Stopped => None,
        }
    }

    /// Whether the pump ran.
    pub fn ran(self) -> bool {
        matches!(self, Pump::Ran(_))
    }
}

/// The outcome of a pump that ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PumpReport {
    /// The pump's kind.
    pub kind: PumpKind,
    /// The pump's one accounting clock reading.
    pub now: Timestamp,
    /// Real time elapsed since the previous pump (unclamped, unpaused).
    pub elapsed: Nanos,
    /// Jobs that ran.
    pub jobs: usize,
    /// Fixed steps that ran (fewer than the plan's if `stop` cut them short).
    pub steps: u64,
    /// Whether render subscribers ran.
    pub rendered: bool,
    /// Whether the loop was stopped from inside this pump.
    pub stopped: bool,
    /// The planner's plan for the pump.
    pub plan: FramePlan,
}

/// The result of [`Loop::catch_up`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CatchUp {
    /// Fixed steps run.
    pub steps: u64,
    /// The whole bank after the catch-up, under one step: what this
    /// catch-up left of its span together with any time banked before it.
    /// The next frame's steps start from it.
    pub remainder: Nanos,
    /// Whether the loop was stopped from inside the catch-up.
    pub stopped: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Run {
    NotStarted,
    Running,
    Stopped,
}

/// A fixed-timestep loop driving a game state `S` that the caller owns and
/// passes to every pump.
///
/// Each [`pump`](Loop::pump) (or [`pump_at`](Loop::pump_at)), in this
/// order:
///
/// 1. the pump's accounting time: one clock reading, or the timestamp given
///    to `pump_at` (neither taken earlier than a stamp the loop was given
///    before);
/// 2. real time and the [`real`](Loop::real) timeline advance by the
///    unclamped, unpaused time since the previous pump;
/// 3. requested jobs run, once each, in creation order;
/// 4. the scaled elapsed time goes to the planner; the step budget clamps it,
///    and a clamp calls the stall hook with the plan;
/// 5. the [before-steps hooks](Loop::on_before_steps) run with the plan, in
///    registration order (a network session polls its sockets here);
/// 6. for each fixed step: the [`sim`](Loop::sim) timeline advances to the
///    step's end, the update subscribers run in registration order, and the
///    tick rises by one (the planner numbers the steps: see
///    [`tick`](Loop::tick));
/// 7. the [after-steps hooks](Loop::on_after_steps) run with the plan, in
///    registration order (a network session sends here);
/// 8. on a paint pump, the render subscribers run in registration order;
/// 9. statistics are recorded.
///
/// Hooks run on every pump that runs, with or without steps, paused too.
///
/// The steps a loop runs follow its speed: over any run of pumps, under
/// every pacing, the simulated time is the speed in force times the time
/// the planner accounted for, plus queued steps, less dropped time, within
/// one step; paused pumps and the first pump after a resume account for
/// nothing, and the time accounted for stays within the display's rate
/// error of the wall time (see [`FrameLoop`]'s rules).
///
/// # Driving the loop
///
/// A frame source (a window, a browser page, a server's wait loop) pumps
/// the loop; the loop never pumps itself. It calls [`pump`](Loop::pump) to
/// run a frame at the clock's time, or [`pump_at`](Loop::pump_at) when it
/// has a better timestamp of its own (the display's vsync time), with
/// [`PumpKind::Paint`] for a frame the display shows and [`PumpKind::Tick`]
/// for a wake-up while nothing is painted. Between pumps,
/// [`next_due`](Loop::next_due) says when the next step, real timer or
/// request is due, so the host sleeps exactly that long:
///
/// ```
/// use evenstep::{Clock, Loop, ManualClock, PumpKind, Timestep};
///
/// let clock = ManualClock::new();
/// let mut server = Loop::<u64>::builder()
///     .clock(clock.clone())
///     .timestep(Timestep::HZ_30)
///     .build()?;
/// server.on_update(|steps, _| *steps += 1);
/// server.start();
/// let mut steps = 0;
/// while steps < 90 {
///     let Some(due) = server.next_due() else { break };
///     clock.set(due.max(clock.now())); // a real host sleeps until `due`
///     let _ = server.pump(&mut steps, PumpKind::Tick);
/// }
/// assert_eq!(steps, 90); // three seconds of steps, one per wake-up
/// # Ok::<(), evenstep::ConfigError>(())
/// ```
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use evenstep::{Loop, ManualClock, PumpKind, Timestep};
///
/// #[derive(Default)]
/// struct Game { x: f64, previous_x: f64, drawn: Vec<f64> }
///
/// let clock = ManualClock::new();
/// let mut game_loop = Loop::<Game>::builder()
///     .clock(clock.clone())
///     .timestep(Timestep::HZ_60)
///     .build()?;
/// game_loop.on_update(|game, step| {
///     game.previous_x = game.x;
///     game.x += 2.0 * step.dt_secs_f64();
/// });
/// game_loop.on_render(|game, frame| {
///     let _at = frame.alpha().lerp_f64(game.previous_x, game.x);
/// });
///
/// let mut game = Game::default();
/// game_loop.start();
/// for _ in 0..60 {
///     clock.advance(Duration::from_nanos(16_666_667));
///     let _ = game_loop.pump(&mut game, PumpKind::Paint);
/// }
/// assert_eq!(game_loop.tick(), 60);
/// # Ok::<(), evenstep::ConfigError>(())
/// ```
pub struct Loop<S> {
    clock: Box<dyn Clock>,
    frames: FrameLoop,
    /// The speed asked for; the planner runs at `PAUSED` while paused.
    speed: Speed,
    run: Run,
    paused: bool,
    control: Control,
    last_pump: Timestamp,
    /// The latest time a stamp given to `pump_at` set (or the start): a
    /// clock reading behind it is taken as it, so a host that mixes stamped
    /// and clock pumps never runs the loop's time backwards.
    stamped: Timestamp,
    real_time: Nanos,
    real: Timeline<S>,
    sim: Timeline<S>,
    jobs: Jobs<S>,
    updates: Vec<(SubscriberId, Update<S>)>,
    renders: Vec<(SubscriberId, Render<S>)>,
    before_steps: Vec<(SubscriberId, Hook<S>)>,
    after_steps: Vec<(SubscriberId, Hook<S>)>,
    on_stall: Option<Stall<S>>,
    /// The budget as a span of simulation, when it was given so: the
    /// budget in steps follows it across changes of the step.
    budget_window: Option<Duration>,
    /// Raw time, and scaled time in accumulator units, since the previous
    /// render (or the start), for the render context.
    since_render: Nanos,
    since_render_units: u128,
    /// The render cap the game set; the planner's is the lower of it and
    /// the governor's.
    render_cap: Option<Rate>,
    governor: Option<FrameRateGovernor>,
    next_id: u64,
    stats: Box<Collector>,
    /// True while a pump runs; still true at the next call only if a
    /// callback panicked out of the previous one.
    in_pump: bool,
    /// The steps of the pump in progress.
    in_flight: InFlight,
}

/// The steps a pump planned, `next..end`. Kept in the loop, not in the
/// pump's locals, so that after a callback panicked out of a pump the next
/// call on the loop knows which steps began (they keep their ticks) and
/// which never did (they are dropped).
#[derive(Clone, Copy, Debug)]
struct InFlight {
    /// The tick of the next step to begin.
    next: u64,
    /// The tick the plan's steps end at: the planner's tick once it planned.
    end: u64,
}

impl InFlight {
    /// Nothing planned: the next step is `tick`.
    fn idle(tick: u64) -> InFlight {
        InFlight {
            next: tick,
            end: tick,
        }
    }

    /// The steps of `plan`, none begun yet.
    fn planned(plan: &FramePlan) -> InFlight {
        InFlight {
            next: plan.first_tick(),
            end: plan.end_tick(),
        }
    }

    /// Planned steps that have not begun.
    fn not_begun(&self) -> u64 {
        self.end - self.next
    }
}

impl<S> Loop<S> {
    /// A builder with the defaults: [`MonotonicClock`], 60 Hz, a budget of
    /// 5 steps, normal speed.
    pub fn builder() -> LoopBuilder<S> {
        LoopBuilder::new()
    }

    /// Adds an update subscriber. Updates run once per fixed step, in
    /// registration order, and may mutate the state.
    pub fn on_update<F>(&mut self, update: F) -> SubscriberId
    where
        F: FnMut(&mut S, &StepContext<'_>) + 'static,
    {
        let id = self.next_subscriber();
        self.updates.push((id, Box::new(update)));
        id
    }

    /// Adds a render subscriber. Renders run once per paint pump, in
    /// registration order, and cannot mutate the state.
    pub fn on_render<F>(&mut self, render: F) -> SubscriberId
    where
        F: FnMut(&S, &RenderContext<'_>) + 'static,
    {
        let id = self.next_subscriber();
        self.renders.push((id, Box::new(render)));
        id
    }

    /// Adds a hook that runs on every pump after the plan is made and
    /// before its steps (step 5 of the pump order), with the plan, in
    /// registration order: a network session polls its sockets and feeds
    /// the inputs of the steps about to run. It runs on pumps with no step
    /// too, and while paused.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, PumpKind};
    ///
    /// #[derive(Default)]
    /// struct Session { log: Vec<String> }
    ///
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<Session>::builder().clock(clock.clone()).build()?;
    /// game_loop.on_before_steps(|s, plan| s.log.push(format!("poll for {}", plan.steps_run())));
    /// game_loop.on_update(|s, step| s.log.push(format!("step {}", step.tick())));
    /// game_loop.on_after_steps(|s, _| s.log.push("send".into()));
    /// game_loop.start();
    /// clock.advance(Duration::from_millis(20));
    /// let mut session = Session::default();
    /// let _ = game_loop.pump(&mut session, PumpKind::Tick);
    /// assert_eq!(session.log, ["poll for 1", "step 0", "send"]);
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn on_before_steps<F>(&mut self, hook: F) -> SubscriberId
    where
        F: FnMut(&mut S, &FramePlan) + 'static,
    {
        let id = self.next_subscriber();
        self.before_steps.push((id, Box::new(hook)));
        id
    }

    /// Adds a hook that runs on every pump after its steps (step 7 of the
    /// pump order) and before the renders, with the plan, in registration
    /// order: a network session sends what the steps produced. It runs on
    /// pumps with no step too, and while paused; not after a `stop` from an
    /// update, which ends the pump at once.
    pub fn on_after_steps<F>(&mut self, hook: F) -> SubscriberId
    where
        F: FnMut(&mut S, &FramePlan) + 'static,
    {
        let id = self.next_subscriber();
        self.after_steps.push((id, Box::new(hook)));
        id
    }

    /// Removes an update, render or hook subscriber. Returns whether it was
    /// there.
    pub fn remove(&mut self, id: SubscriberId) -> bool {
        let count = |l: &Loop<S>| {
            l.updates.len() + l.renders.len() + l.before_steps.len() + l.after_steps.len()
        };
        let before = count(self);
        self.updates.retain(|(i, _)| *i != id);
        self.renders.retain(|(i, _)| *i != id);
        self.before_steps.retain(|(i, _)| *i != id);
        self.after_steps.retain(|(i, _)| *i != id);
        before != count(self)
    }

    /// Sets the hook called when the step budget drops time, with the plan
    /// (`plan.dropped()` is the excess). For a performance warning; never a
    /// source of credited resources.
    pub fn on_stall<F>(&mut self, hook: F)
    where
        F: FnMut(&mut S, &FramePlan) + 'static,
    {
        self.on_stall = Some(Box::new(hook));
    }

    /// Adds a coalesced job: any number of [`JobHandle::request`] calls
    /// before a pump run it exactly once, before that pump's steps, on tick
    /// pumps and while paused too.
    pub fn coalesce<F>(&mut self, job: F) -> JobHandle
    where
        F: FnMut(&mut S) + 'static,
    {
        self.jobs.add(Box::new(job))
    }

    /// Removes a job. Returns whether it was there.
    pub fn remove_job(&mut self, job: &JobHandle) -> bool {
        self.jobs.remove(job)
    }

    /// The real timeline: advanced once per pump by unclamped, unpaused
    /// elapsed time. Its timers fire while paused, on tick pumps and at any
    /// speed. Use it for autosaves and telemetry.
    pub fn real(&mut self) -> &mut Timeline<S> {
        &mut self.real
    }

    /// The simulation timeline: advanced once per fixed step, to the step's
    /// end. Its timers pause, scale with speed, are clamped with the steps,
    /// and land on the same tick at any frame rate, so they replay.
    pub fn sim(&mut self) -> &mut Timeline<S> {
        // While no sim timer is armed, the steps leave the timeline behind
        // (see `run_steps`): it catches up here, before anyone can arm one.
        self.sim.bring_empty_to(self.sim_time());
        &mut self.sim
    }

    /// Starts (or restarts) the loop, anchored at a clock reading taken now:
    /// the first pump's delta is measured from here, so time before the
    /// start, or spent stopped, is never billed. Start after loading, not
    /// before. The tick carries on from where it stopped. Starting a running
    /// loop does nothing.
    pub fn start(&mut self) {
        self.recover();
        if self.run != Run::Running {
            let now = self.clock.now();
            self.run = Run::Running;
            self.last_pump = now;
            self.stamped = now;
            self.since_render = Nanos::ZERO;
            self.since_render_units = 0;
            self.frames.resync(now);
            self.stats.rebase();
        }
    }

    /// Stops the loop: pumps are no-ops until [`start`](Loop::start). Inside
    /// a callback, use the context's [`Control::stop`], which also stops the
    /// pump in progress.
    pub fn stop(&mut self) {
        self.recover();
        if self.run == Run::Running {
            self.run = Run::Stopped;
        }
    }

    /// Pauses from the next pump (see [`Control::pause`]).
    pub fn pause(&mut self) {
        self.control.pause();
    }

    /// Resumes from the next pump, with a zero delta (see [`Control::resume`]).
    pub fn resume(&mut self) {
        self.control.resume();
    }

    /// Sets the time scale from the next pump.
    pub fn set_speed(&mut self, speed: Speed) {
        self.control.set_speed(speed);
    }

    /// Sets the time scale from a float, from the next pump.
    ///
    /// # Errors
    ///
    /// [`ConfigError::Speed`] if `speed` is NaN, infinite, negative or above
    /// 65535.
    pub fn set_speed_f64(&mut self, speed: f64) -> Result<(), ConfigError> {
        let speed = Speed::from_f64(speed).map_err(ConfigError::Speed)?;
        self.control.set_speed(speed);
        Ok(())
    }

    /// Changes the fixed step from the next pump (see [`Control::set_timestep`]
    /// and [`FrameLoop::set_timestep`]): the banked time is kept as time,
    /// the tick carries on, simulation time and the sim timeline go on
    /// exactly from where they stood, and a budget given as a span of time
    /// ([`set_budget_window`](Loop::set_budget_window)) is counted again in
    /// the new steps. [`timestep`](Loop::timestep) says the new step from
    /// that pump on.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, Nanos, Pacing, PumpKind, Timestep};
    ///
    /// let clock = ManualClock::new();
    /// let mut server = Loop::<()>::builder()
    ///     .clock(clock.clone())
    ///     .timestep(Timestep::HZ_20)
    ///     .pacing(Pacing::OFF)
    ///     .budget_window(Duration::from_millis(250))
    ///     .build()?;
    /// server.start();
    /// assert_eq!(server.budget().get(), 5); // 250 ms of 20 Hz steps
    /// clock.advance(Duration::from_millis(200));
    /// let _ = server.pump(&mut (), PumpKind::Tick); // 4 steps of 50 ms
    ///
    /// server.set_timestep(Timestep::HZ_60); // from the next pump
    /// clock.advance(Duration::from_millis(100));
    /// let _ = server.pump(&mut (), PumpKind::Tick); // 6 steps of 16⅔ ms
    /// assert_eq!(server.tick(), 10);
    /// assert_eq!(server.sim_time(), Nanos::from_millis(300));
    /// assert_eq!(server.budget().get(), 15); // 250 ms of 60 Hz steps
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn set_timestep(&mut self, timestep: Timestep) {
        self.control.set_timestep(timestep);
    }

    /// Runs `count` extra steps at the next pump, outside the budget and even
    /// while paused.
    pub fn queue_steps(&mut self, count: u32) {
        self.control.queue_steps(count);
    }

    /// Sets the step budget, in steps, from the next pump: the most steps
    /// one pump runs at normal speed (see [`StepBudget`]). It stays this
    /// many steps if the step rate changes.
    pub fn set_budget(&mut self, budget: StepBudget) {
        self.budget_window = None;
        self.frames.set_budget(budget);
    }

    /// Sets the step budget as a span of simulation, from the next pump:
    /// the fewest whole steps that cover `window` at the current step
    /// ([`StepBudget::covering`]), and again at each change of the step
    /// rate, so the budget can never disagree with the step.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, Timestep};
    ///
    /// let mut game_loop = Loop::<()>::builder().clock(ManualClock::new()).build()?;
    /// game_loop.set_budget_window(Duration::from_millis(250));
    /// assert_eq!(game_loop.budget().get(), 15); // 60 Hz
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn set_budget_window(&mut self, window: Duration) {
        self.budget_window = Some(window);
        self.frames
            .set_budget(StepBudget::covering(window, self.frames.timestep()));
    }

    /// The step budget in steps.
    pub fn budget(&self) -> StepBudget {
        self.frames.budget()
    }

    /// The budget's span of simulation, if it was given as one
    /// ([`set_budget_window`](Loop::set_budget_window) or
    /// [`LoopBuilder::budget_window`]).
    pub fn budget_window(&self) -> Option<Duration> {
        self.budget_window
    }

    /// Sets the frame pacing (see [`Pacing`]); takes effect at the next pump.
    pub fn set_pacing(&mut self, pacing: Pacing) {
        self.frames.set_pacing(pacing);
    }

    /// Tells the loop the period the display says it refreshes at (a
    /// monitor's reported rate; `None`: nothing said). Until the planner's
    /// display model has measured a period of its own, the render cap and
    /// the governor go by it (see [`FrameLoop::set_refresh_hint`]); a frame
    /// source that knows its monitor's rate passes it here.
    pub fn set_refresh_hint(&mut self, period: Option<Duration>) {
        self.frames
            .set_refresh_hint(period.map(Nanos::from_duration));
    }

    /// Caps renders at `rate` a second of real time, a rate that need not
    /// be whole (`None`: render every paint pump; see
    /// [`FrameLoop::set_render_cap`]). Steps, timers and jobs run on the
    /// pumps it skips.
    pub fn set_render_cap(&mut self, rate: Option<Rate>) {
        self.render_cap = rate;
        self.apply_render_cap();
    }

    /// The render cap the game set (the governor may hold renders lower:
    /// see [`set_governor`](Loop::set_governor)).
    pub fn render_cap(&self) -> Option<Rate> {
        self.render_cap
    }

    /// Sets (or, with `None`, removes) the frame-rate governor: while paint
    /// pumps keep missing their display refresh, it halves the render rate
    /// (and halves it again), and it restores the rate once they stop, with
    /// the thresholds it was built with
    /// ([`FrameRateGovernor::with_thresholds`]). It learns the display's
    /// period from the paint pumps itself, so it works under any pacing, and
    /// only ever lowers renders below the game's own render cap. Steps,
    /// timers and jobs run on every pump as before.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{FrameRateGovernor, Loop, ManualClock, PumpKind};
    ///
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<()>::builder()
    ///     .clock(clock.clone())
    ///     .governor(FrameRateGovernor::new())
    ///     .build()?;
    /// game_loop.start();
    /// for k in 0..200_u64 {
    ///     // A 60 Hz display on which every third frame misses a refresh.
    ///     clock.advance(Duration::from_nanos(if k % 3 == 2 { 33_333_333 } else { 16_666_667 }));
    ///     let _ = game_loop.pump(&mut (), PumpKind::Paint);
    /// }
    /// assert_eq!(game_loop.governor().map(|g| g.divisor()), Some(8));
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn set_governor(&mut self, governor: Option<FrameRateGovernor>) {
        self.governor = governor;
        self.apply_render_cap();
    }

    /// The frame-rate governor, if one is set.
    pub fn governor(&self) -> Option<&FrameRateGovernor> {
        self.governor.as_ref()
    }

    /// Shows the governor, if any, a frame the display showed; a change of
    /// its render rate applies from the next frame. Out of line: most loops
    /// have no governor, and with this folded into it every pump measured
    /// about 1.5 ns slower (`benches/driver.rs`, `pump_steady_60hz`).
    #[inline(never)]
    fn govern(&mut self, plan: &FramePlan) {
        let Some(governor) = self.governor.as_mut() else {
            return;
        };
        let divisor = governor.divisor();
        governor.observe(
            plan,
            self.frames.refresh_period().or(self.frames.refresh_hint()),
        );
        if governor.divisor() != divisor {
            self.apply_render_cap();
        }
    }

    /// Gives the planner the lower of the game's render cap and the
    /// governor's.
    fn apply_render_cap(&mut self) {
        let governed = self
            .governor
            .as_ref()
            .and_then(FrameRateGovernor::render_cap);
        let cap = match (self.render_cap, governed) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (cap, governed) => cap.or(governed),
        };
        self.frames.set_render_cap(cap);
    }

    /// Runs one frame of the loop at the clock's time. `kind` says whether
    /// the display shows it.
    ///
    /// Before [`start`](Loop::start), and after [`stop`](Loop::stop), this is
    /// a no-op that returns [`Pump::NotStarted`] or [`Pump::Stopped`].
    ///
    /// The pump's accounting time is one reading of the loop's clock. A
    /// reading behind a stamp given to [`pump_at`](Loop::pump_at) is taken
    /// as that stamp's time. A clock that steps back on its own gives a zero
    /// delta, and the next delta is measured from the earlier reading (see
    /// [`Clock`]).
    ///
    /// # Panics
    ///
    /// Only if a callback panics; the panic passes through. The loop is then
    /// stopped: every step the interrupted pump began (the one that panicked
    /// included) is counted in the tick and never re-run, the steps it had
    /// not begun are dropped and reported in [`LoopStats::dropped_steps`],
    /// jobs it had not reached stay requested, a timer whose callback
    /// panicked is disarmed (the other timers stay armed), the statistics
    /// skip the pump, and [`start`](Loop::start) resumes from a fresh clock
    /// reading.
    pub fn pump(&mut self, state: &mut S, kind: PumpKind) -> Pump {
        self.pump_with(state, kind, None)
    }

    /// Runs one frame of the loop at `now`, a timestamp the frame source
    /// supplies (a display's vsync time, a browser's animation-frame time),
    /// in the same time base as the loop's clock. Otherwise exactly
    /// [`pump`](Loop::pump).
    ///
    /// The loop never sees time go backwards: a `now` earlier than the time
    /// of the previous pump (or of [`start`](Loop::start)) is taken as that
    /// time, a zero delta, and so is a later [`pump`](Loop::pump)'s clock
    /// reading that is earlier than `now`. Steps, timers, paint gaps and the
    /// fps count follow `now`; the costs of the update and render phases are
    /// durations, and are still timed on the loop's clock, read once more
    /// at the top of the pump.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep::{Loop, ManualClock, PumpKind, Timestamp};
    ///
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<u64>::builder().clock(clock.clone()).build()?;
    /// game_loop.on_update(|steps, _| *steps += 1);
    /// game_loop.start(); // at the clock's zero
    /// let mut steps = 0;
    /// // A vsync at 50 ms: three 60 Hz steps, whatever the clock says.
    /// let vsync = Timestamp::from_nanos(50_000_000);
    /// let _ = game_loop.pump_at(&mut steps, PumpKind::Paint, vsync);
    /// assert_eq!(steps, 3);
    /// // A stamp from before it is taken as 50 ms: no time, no step.
    /// let late = game_loop.pump_at(&mut steps, PumpKind::Paint, Timestamp::from_nanos(40_000_000));
    /// assert_eq!(late.report().map(|r| r.now), Some(vsync));
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    ///
    /// # Panics
    ///
    /// Only if a callback panics, as [`pump`](Loop::pump) says.
    pub fn pump_at(&mut self, state: &mut S, kind: PumpKind, now: Timestamp) -> Pump {
        self.pump_with(state, kind, Some(now))
    }

    /// The instant the next thing is due, in the loop's time base: when a
    /// host that has nothing else to do should pump next (sleep, or wait
    /// for a timer, until then). `None` when nothing is ever due: the loop
    /// is not started, or stopped.
    ///
    /// The earliest of:
    ///
    /// - **the next fixed step**: the instant the bank reaches one whole
    ///   step at the current speed, measured from the previous pump and
    ///   rounded up to the nanosecond, so a pump at that instant runs it.
    ///   None while paused (or at speed zero). Sim timers fire inside
    ///   steps, so the next step covers them too;
    /// - **the next real timer**, at its due time;
    /// - **a pending request**: a requested job, queued steps, or a pause,
    ///   resume or speed change waiting for a pump, are due at once, and
    ///   give the previous pump's time (already past).
    ///
    /// Paint pumps come from the display; this is for the wake-ups in
    /// between. Two things it does not foresee: the render cap (its next
    /// slot is the planner's own state; a capped render lands on a paint
    /// pump, which the display sends anyway), and snapping (a paint pump
    /// under [`Pacing::LOCKED`] or [`Pacing::snapped`] may bank whole
    /// refreshes of the display instead of its delta, so its step can come
    /// earlier or later; tick pumps are never snapped). At a fractional speed the planner carries
    /// a fraction of a unit between pumps that this does not see, so the
    /// step may come slightly earlier than said, never later.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep::{Loop, ManualClock, Pacing, PumpKind, Timestamp};
    ///
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<u64>::builder()
    ///     .clock(clock.clone())
    ///     .pacing(Pacing::OFF) // the bank starts empty
    ///     .build()?;
    /// game_loop.on_update(|steps, _| *steps += 1);
    /// assert_eq!(game_loop.next_due(), None); // not started
    ///
    /// game_loop.start();
    /// // One 60 Hz step is 16,666,666⅔ ns: due at the next whole nanosecond.
    /// let due = game_loop.next_due().unwrap();
    /// assert_eq!(due, Timestamp::from_nanos(16_666_667));
    ///
    /// let mut steps = 0;
    /// clock.set(due);
    /// let _ = game_loop.pump(&mut steps, PumpKind::Tick);
    /// assert_eq!(steps, 1);
    /// assert_eq!(game_loop.next_due(), Some(Timestamp::from_nanos(33_333_334)));
    /// # Ok::<(), evenstep::ConfigError>(())
    /// ```
    pub fn next_due(&self) -> Option<Timestamp> {
        if !self.is_running() {
            return None;
        }
        // Queued steps reach the planner through a control request, so a
        // pending request covers them.
        if self.control.is_pending() || self.jobs.any_requested() {
            return Some(self.last_pump);
        }
        let timer = self.real.next_due().map(|due| {
            self.last_pump
                .saturating_add(due.saturating_sub(self.real.now()))
        });
        match (self.next_step_due(), timer) {
            (Some(step), Some(timer)) => Some(step.min(timer)),
            (step, timer) => step.or(timer),
        }
    }

    /// The instant the next fixed step is due: when the bank reaches one
    /// whole step at the current speed, measured from the previous pump and
    /// rounded up to the nanosecond, so a pump at that instant runs it.
    /// `None` while paused (or at speed zero), and when the loop is not
    /// running. [`next_due`](Loop::next_due) is the earliest of this and
    /// everything else that is due.
    pub fn next_step_due(&self) -> Option<Timestamp> {
        if !self.is_running() {
            return None;
        }
        let speed = self.frames.speed();
        if speed.is_paused() || self.frames.tick() == u64::MAX {
            return None;
        }
        let timestep = self.frames.timestep();
        // The bank is under one step between frames, so at least one unit
        // is missing; right after a change to a shorter step it may hold
        // whole steps, which are due at once.
        let missing =
            u128::from(timestep.units_per_step()).saturating_sub(self.frames.remainder_units());
        // `wait` ns bank `wait · Q · num / den` units: the smallest whole
        // `wait` that brings the missing units.
        let per_nano = u128::from(timestep.units_per_nanosecond()) * u128::from(speed.numerator());
        let wait = (missing * u128::from(speed.denominator())).div_ceil(per_nano);
        let wait = Nanos::from_nanos(u64::try_from(wait).unwrap_or(u64::MAX));
        Some(self.frames.last_frame().saturating_add(wait))
    }

    /// The pump: at the supplied timestamp if there is one, else at the
    /// clock's reading.
    #[inline]
    fn pump_with(&mut self, state: &mut S, kind: PumpKind, supplied: Option<Timestamp>) -> Pump {
        self.recover();
        match self.run {
            Run::NotStarted => return Pump::NotStarted,
            Run::Stopped => return Pump::Stopped,
            Run::Running => {}
        }
        self.in_pump = true;
        // No step of this pump is planned yet: a panic before the plan
        // abandons nothing.
        self.in_flight = InFlight::idle(self.frames.tick());

        // 1. The accounting time, and control requests made since the
        //    previous pump. The clock reading also starts the cost timing.
        let started = self.clock.now();
        let now = match supplied {
            None => started.max(self.stamped),
            Some(stamp) => {
                self.stamped = stamp.max(self.last_pump);
                self.stamped
            }
        };
        if self.apply_control() {
            // Resumed: the planner forgets the paused gap, so no burst of
            // steps; real time keeps the gap, as it kept running.
            self.frames.resync(now);
        }

        // 2. Real time: unclamped and unpaused.
        let elapsed = now.saturating_since(self.last_pump);
        self.last_pump = now;
        self.real_time += elapsed;
        self.real.advance_to(state, self.real_time);

        // 3. Jobs, before any step can need their results.
        let jobs = self.jobs.run(state);

        // 4. Plan; the budget has clamped and reported. A tick pump draws
        //    nothing, so it spends no render of the render cap.
        let plan = match kind {
            PumpKind::Paint => self.frames.begin_frame(now),
            PumpKind::Tick => self.frames.begin_hidden_frame(now),
        };
        // Planned from here on: a panic in the stall hook abandons them all.
        self.in_flight = InFlight::planned(&plan);
        if kind == PumpKind::Paint && self.governor.is_some() {
            self.govern(&plan);
        }
        self.since_render = self.since_render.saturating_add(plan.raw_delta());
        self.since_render_units = self.since_render_units.saturating_add(plan.scaled_units());
        // Only a clamped plan drops time. Its drops are recorded at once, so
        // a panic later in the pump cannot lose them.
        if plan.clamped() {
            self.stats
                .record_dropped(plan.dropped_units(), plan.steps_dropped(), plan.timestep());
            if let Some(hook) = self.on_stall.as_mut() {
                hook(state, &plan);
            }
        }

        // 5. Hooks before the steps.
        for (_, hook) in &mut self.before_steps {
            hook(state, &plan);
        }

        // 6. The fixed steps.
        let steps = self.run_steps(state, plan.timestep());
        let stopped = self.control.stop_requested();

        // 7. Hooks after the steps, unless an update stopped the loop.
        if !stopped {
            for (_, hook) in &mut self.after_steps {
                hook(state, &plan);
            }
        }
        let update_end = self.clock.now();

        // 8. Paint, unless the render cap skips this frame.
        let rendered = kind == PumpKind::Paint && !stopped && plan.render();
        if rendered {
            self.render(state, &plan, now);
        }
        // `stop` from a render also takes effect at once: the next pump does
        // not run.
        let stopped = stopped || self.control.stop_requested();
        let end = if rendered {
            self.clock.now()
        } else {
            update_end
        };

        // 9. Statistics.
        self.stats.record(&PumpSample {
            now,
            real_time: self.real_time,
            painted: rendered,
            frame_cost: end.saturating_since(started),
            update_cost: update_end.saturating_since(started),
            render_cost: end.saturating_since(update_end),
            steps,
            timestep: plan.timestep(),
            abandoned_steps: plan.steps_run() - steps,
        });

        if stopped {
            self.control.clear_stop();
            self.run = Run::Stopped;
        }
        self.in_pump = false;
        Pump::Ran(PumpReport {
            kind,
            now,
            elapsed,
            jobs,
            steps,
            rendered,
            stopped,
            plan,
        })
    }

    /// Runs the render subscribers for `plan`'s frame at `now`, and starts
    /// counting the time to the next render.
    fn render(&mut self, state: &S, plan: &FramePlan, now: Timestamp) {
        let frame = RenderContext {
            alpha: plan.alpha(),
            frames: &self.frames,
            tick: self.frames.tick(),
            now,
            real_time: self.real_time,
            control: &self.control,
            frame_delta: plan.raw_delta(),
            render_delta: self.since_render,
            scaled_render_units: self.since_render_units,
        };
        for (_, render) in &mut self.renders {
            render(state, &frame);
        }
        self.since_render = Nanos::ZERO;
        self.since_render_units = 0;
    }

    /// Runs `span` of simulation time now, as whole fixed steps with no
    /// budget: offline progress for a headless tool. Sim timers fire and
    /// updates run exactly as in a pump; nothing renders and real time does
    /// not move. The sub-step remainder is banked for the next frame, so `dt`
    /// never varies. The loop never does this on its own.
    ///
    /// Returns `None` (and runs nothing) unless the loop is started.
    ///
    /// # Panics
    ///
    /// Only if a callback panics; the loop is then left as after a panicking
    /// pump.
    pub fn catch_up(&mut self, state: &mut S, span: Duration) -> Option<CatchUp> {
        self.recover();
        if self.run != Run::Running {
            return None;
        }
        self.in_pump = true;
        let plan = self.frames.catch_up(Nanos::from_duration(span));
        self.in_flight = InFlight::planned(&plan);
        let steps = self.run_steps(state, plan.timestep());
        let stopped = self.control.stop_requested();
        if stopped {
            self.control.clear_stop();
            self.run = Run::Stopped;
            self.stats
                .record_abandoned(plan.steps_run() - steps, plan.timestep());
        }
        self.in_pump = false;
        Some(CatchUp {
            steps,
            remainder: plan.remainder(),
            stopped,
        })
    }

    /// Runs the steps in flight, in tick order. For each, the sim timeline
    /// advances to the step's end, then the updates run in registration
    /// order. A step's tick is counted as it begins, so a step cut short by
    /// `stop` or by a panic is never run again under the same tick. Returns
    /// the steps begun.
    fn run_steps(&mut self, state: &mut S, timestep: Timestep) -> u64 {
        let first = self.in_flight.next;
        'steps: while self.in_flight.next < self.in_flight.end {
            let tick = self.in_flight.next;
            self.in_flight.next = tick + 1;
            // An empty sim timeline has nothing to fire: it is brought up to
            // date when `sim()` hands it out, so a long catch-up does not
            // pay for a time it never reads.
            if !self.sim.is_empty() {
                self.sim
                    .advance_to(state, self.frames.sim_time_at(tick + 1));
            }
            let step = StepContext {
                timestep,
                frames: &self.frames,
                tick,
                real_time: self.real_time,
                control: &self.control,
            };
            for (_, update) in &mut self.updates {
                update(state, &step);
                // Only an update can ask to stop: jobs, timers and the stall
                // hook are given no control.
                if self.control.stop_requested() {
                    break 'steps;
                }
            }
        }
        if self.in_flight.not_begun() > 0 {
            // The planner numbered steps that will never run: the next step
            // takes the first of their ticks.
            self.frames.set_tick(self.in_flight.next);
        }
        self.in_flight.next - first
    }

    /// Applies pause, speed and queue requests. Returns whether the loop
    /// resumed (so the pump re-anchors).
    fn apply_control(&mut self) -> bool {
        if !self.control.take_pending() {
            return false;
        }
        let mut resumed = false;
        if let Some(speed) = self.control.take_speed() {
            self.speed = speed;
        }
        if let Some(timestep) = self.control.take_timestep() {
            // Scaled time since the last render, re-expressed like the bank.
            self.since_render_units = self
                .since_render_units
                .saturating_mul(u128::from(timestep.units_per_nanosecond()))
                / u128::from(self.frames.timestep().units_per_nanosecond());
            self.frames.set_timestep(timestep);
            if let Some(window) = self.budget_window {
                self.frames
                    .set_budget(StepBudget::covering(window, timestep));
            }
        }
        if let Some(pause) = self.control.take_pause() {
            resumed = self.paused && !pause;
            self.paused = pause;
        }
        self.frames.set_speed(if self.paused {
            Speed::PAUSED
        } else {
            self.speed
        });
        let queued = self.control.take_queue();
        if queued > 0 {
            self.frames.queue_steps(queued);
        }
        resumed
    }

    /// Puts the loop in its documented post-panic state if a callback
    /// panicked out of the previous pump: stopped, numbering the next step
    /// after the last one begun, with the steps the pump never began
    /// reported as dropped.
    fn recover(&mut self) {
        if !self.in_pump {
            return;
        }
        self.in_pump = false;
        self.control.clear_stop();
        self.run = Run::Stopped;
        self.stats
            .record_abandoned(self.in_flight.not_begun(), self.frames.timestep());
        self.frames.set_tick(self.in_flight.next);
        // A timer callback may have been the one that panicked.
        self.real.recover();
        self.sim.recover();
    }

    fn next_subscriber(&mut self) -> SubscriberId {
        let id = SubscriberId(self.next_id);
        self.next_id += 1;
        id
    }

    /// Tells the statistics that the frame source stopped showing the
    /// loop's frames (a hidden, occluded or minimized window, a hidden
    /// page): the gap from the last paint to the next one is counted as one
    /// [absence](LoopStats::absences), however short, and kept out of the
    /// frame-gap figures, so a hidden half second is not reported as a slow
    /// frame. Call it when painting stops; a gap at or over the absence
    /// threshold is an absence without it.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    /// use evenstep::{Loop, ManualClock, PumpKind};
    ///
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<()>::builder().clock(clock.clone()).build()?;
    /// game_loop.start();
    /// clock.advance(Duration::from_millis(16));
    /// let _ = game_loop.pump(&mut (), PumpKind::Paint);
    /// game_loop.begin_absence(); // the window was hidden
    /// clock.advance(Duration::from_millis(400));
    /// let _ = game_loop.pump(&mut (), PumpKind::Paint); // shown again
    /// assert_eq!(game_loop.stats().absences(), 1);
    /// assert!(game_loop.stats().worst_gap() < evenstep::Nanos::from_millis(400));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn begin_absence(&mut self) {
        self.stats.begin_absence();
    }

    /// The measured statistics.
    ///
    /// Right after a callback panicked out of a pump, the figures already
    /// include what that pump lost, as the next call on the loop records it.
    pub fn stats(&self) -> LoopStats {
        if self.in_pump {
            let mut stats = Collector::clone(&self.stats);
            stats.record_abandoned(self.in_flight.not_begun(), self.frames.timestep());
            return stats.snapshot();
        }
        self.stats.snapshot()
    }

    /// Forgets every measured statistic (warm-up is not restarted).
    pub fn reset_stats(&mut self) {
        self.stats.reset();
    }

    /// Steps run over the loop's life: the next step's tick.
    ///
    /// The planner owns the tick ([`FrameLoop::tick`]): it numbers the steps
    /// it plans, and the loop reads the number from it. When a stop or a
    /// panic cuts a pump's steps short, the loop tells the planner where
    /// the steps really ended ([`FrameLoop::set_tick`]); after a panic,
    /// until the next call on the loop does so, this already reads the
    /// corrected tick.
    pub fn tick(&self) -> u64 {
        if self.in_pump {
            // A callback panicked out of the pump: the planner still counts
            // the steps that never began.
            self.in_flight.next
        } else {
            self.frames.tick()
        }
    }

    /// Simulation time: `tick · dt` for a loop whose step never changed,
    /// and in general the simulation time at the last change of step plus
    /// the steps since ([`FrameLoop::sim_time_at`]). Exact, rounded down to
    /// the nanosecond.
    pub fn sim_time(&self) -> Nanos {
        self.frames.sim_time_at(self.tick())
    }

    /// Real time: unclamped, unpaused elapsed time over the pumps since the
    /// loop first started (time spent stopped is not counted).
    pub fn real_time(&self) -> Nanos {
        self.real_time
    }

    /// The fixed step.
    pub fn timestep(&self) -> Timestep {
        self.frames.timestep()
    }

    /// The speed asked for (the planner runs at zero while paused).
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// The current blend factor.
    pub fn alpha(&self) -> evenstep_core::Alpha {
        self.frames.alpha()
    }

    /// Whether the loop is started and not stopped.
    pub fn is_running(&self) -> bool {
        self.run == Run::Running && !self.in_pump
    }

    /// Whether the loop is paused (as of the latest pump).
    pub fn is_paused(&self) -> bool {
        self.paused
    }

    /// The loop's clock: the time base of every pump, of
    /// [`next_due`](Loop::next_due), and of the cost timings.
    pub fn clock(&self) -> &dyn Clock {
        &*self.clock
    }

    /// The planner, for reading its state.
    pub fn planner(&self) -> &FrameLoop {
        &self.frames
    }

    /// The number of coalesced jobs.
    pub fn job_count(&self) -> usize {
        self.jobs.len()
    }
}

impl<S> fmt::Debug for Loop<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Loop")
            .field("run", &self.run)
            .field("paused", &self.paused)
            .field("tick", &self.tick())
            .field("real_time", &self.real_time)
            .field("frames", &self.frames)
            .finish_non_exhaustive()
    }
}

/// Configures a [`Loop`]. Every setting has a default; see each method.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use evenstep::{Loop, ManualClock, StepBudget, Timestep};
///
/// let game_loop = Loop::<()>::builder()
///     .clock(ManualClock::new())
///     .budget_window(Duration::from_millis(250)) // in steps of the loop's timestep
///     .timestep(Timestep::HZ_20)
///     .warmup_frames(0)
///     .build()?;
/// assert_eq!(game_loop.timestep(), Timestep::HZ_20);
/// assert_eq!(game_loop.budget(), StepBudget::try_new(5)?);
///
/// let refused = Loop::<()>::builder().absence_threshold(Duration::ZERO).build();
/// assert!(refused.is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use = "a builder does nothing until `build`"]
pub struct LoopBuilder<S> {
    state: PhantomData<fn(&mut S)>,
    clock: Option<Box<dyn Clock>>,
    timestep: Timestep,
    budget: Budget,
    speed: Speed,
    pacing: Pacing,
    render_cap: Option<Rate>,
    governor: Option<FrameRateGovernor>,
    warmup_frames: u32,
    absence: Duration,
    work_budget: Duration,
    gap_window: Duration,
}

impl<S> LoopBuilder<S> {
    fn new() -> LoopBuilder<S> {
        LoopBuilder {
            state: PhantomData,
            clock: None,
            timestep: Timestep::HZ_60,
            budget: Budget::Steps(StepBudget::DEFAULT),
            speed: Speed::NORMAL,
            pacing: Pacing::LOCKED,
            render_cap: None,
            governor: None,
            warmup_frames: 10,
            absence: Duration::from_secs(1),
            work_budget: Duration::from_nanos(16_666_667),
            gap_window: Duration::from_secs(5),
        }
    }

    /// The clock (default: a [`MonotonicClock`] created at `build`).
    pub fn clock(mut self, clock: impl Clock + 'static) -> LoopBuilder<S> {
        self.clock = Some(Box::new(clock));
        self
    }

    /// The fixed step (default: 60 Hz).
    pub fn timestep(mut self, timestep: Timestep) -> LoopBuilder<S> {
        self.timestep = timestep;
        self
    }

    /// The most steps one pump may run at normal speed (default: 5). The
    /// later of this and [`budget_window`](LoopBuilder::budget_window) wins.
    pub fn budget(mut self, budget: StepBudget) -> LoopBuilder<S> {
        self.budget = Budget::Steps(budget);
        self
    }

    /// The budget as a span of simulation: the fewest whole steps that
    /// cover `window` at the loop's step, whatever order
    /// [`timestep`](LoopBuilder::timestep) and this are called in, and again
    /// whenever the step rate changes (see [`Loop::set_budget_window`]). The
    /// later of this and [`budget`](LoopBuilder::budget) wins.
    pub fn budget_window(mut self, window: Duration) -> LoopBuilder<S> {
        self.budget = Budget::Window(window);
        self
    }

    /// The initial time scale (default: 1).
    pub fn speed(mut self, speed: Speed) -> LoopBuilder<S> {
        self.speed = speed;
        self
    }

    /// The frame pacing (default: [`Pacing::LOCKED`], the planner's
    /// default: plain until the frames keep a display's rhythm, then
    /// snapped to it). A server wants off.
    pub fn pacing(mut self, pacing: Pacing) -> LoopBuilder<S> {
        self.pacing = pacing;
        self
    }

    /// A render cap in renders a second of real time, a rate that need not
    /// be whole (default: none; see [`Loop::set_render_cap`]).
    pub fn render_cap(mut self, rate: Option<Rate>) -> LoopBuilder<S> {
        self.render_cap = rate;
        self
    }

    /// A frame-rate governor (default: none; see [`Loop::set_governor`]).
    pub fn governor(mut self, governor: FrameRateGovernor) -> LoopBuilder<S> {
        self.governor = Some(governor);
        self
    }

    /// Paint gaps discarded at the start before gap statistics count
    /// (default: 10, the frames of a load rather than a scene).
    pub fn warmup_frames(mut self, frames: u32) -> LoopBuilder<S> {
        self.warmup_frames = frames;
        self
    }

    /// A paint gap this long or longer is an absence (a hidden window), not
    /// a slow frame: counted, and excluded from gap statistics (default: 1 s).
    pub fn absence_threshold(mut self, threshold: Duration) -> LoopBuilder<S> {
        self.absence = threshold;
        self
    }

    /// A pump that costs more than this counts as over budget (default: one
    /// 60 Hz frame, 16.67 ms).
    pub fn work_budget(mut self, budget: Duration) -> LoopBuilder<S> {
        self.work_budget = budget;
        self
    }

    /// How far back the worst gap and cadence look, in whole seconds from 1
    /// to 60 (default: 5 s).
    pub fn gap_window(mut self, window: Duration) -> LoopBuilder<S> {
        self.gap_window = window;
        self
    }

    /// Builds the loop, stopped until [`Loop::start`].
    ///
    /// # Errors
    ///
    /// [`ConfigError`] for a zero absence threshold or work budget, or a gap
    /// window that is not a whole number of seconds from 1 to 60.
    pub fn build(self) -> Result<Loop<S>, ConfigError> {
        if self.absence.is_zero() {
            return Err(ConfigError::ZeroDuration("absence_threshold"));
        }
        if self.work_budget.is_zero() {
            return Err(ConfigError::ZeroDuration("work_budget"));
        }
        let window = self.gap_window;
        if window.subsec_nanos() != 0
            || window.as_secs() == 0
            || window.as_secs() > MAX_GAP_WINDOW_SECS
        {
            return Err(ConfigError::GapWindow(window));
        }
        let clock = self
            .clock
            .unwrap_or_else(|| Box::new(MonotonicClock::new()));
        let (budget, budget_window) = match self.budget {
            Budget::Steps(budget) => (budget, None),
            Budget::Window(window) => (StepBudget::covering(window, self.timestep), Some(window)),
        };
        let mut frames =
            FrameLoop::new(self.timestep, budget, Timestamp::ZERO).with_pacing(self.pacing);
        frames.set_speed(self.speed);
        frames.set_render_cap(self.render_cap);
        Ok(Loop {
            clock,
            frames,
            speed: self.speed,
            run: Run::NotStarted,
            paused: false,
            control: Control::default(),
            last_pump: Timestamp::ZERO,
            stamped: Timestamp::ZERO,
            real_time: Nanos::ZERO,
            real: Timeline::new(),
            sim: Timeline::new(),
            jobs: Jobs::new(),
            updates: Vec::new(),
            renders: Vec::new(),
            before_steps: Vec::new(),
            after_steps: Vec::new(),
            on_stall: None,
            budget_window,
            since_render: Nanos::ZERO,
            since_render_units: 0,
            render_cap: self.render_cap,
            governor: self.governor,
            next_id: 0,
            stats: Box::new(Collector::new(StatsConfig {
                warmup_frames: self.warmup_frames,
                absence: Nanos::from_duration(self.absence),
                work_budget: Nanos::from_duration(self.work_budget),
                gap_window_secs: window.as_secs(),
            })),
            in_pump: false,
            in_flight: InFlight::idle(0),
        })
    }
}

/// The budget as the builder was given it.
#[derive(Clone, Copy, Debug)]
enum Budget {
    Steps(StepBudget),
    Window(Duration),
}

impl<S> Default for LoopBuilder<S> {
    fn default() -> LoopBuilder<S> {
        LoopBuilder::new()
    }
}

impl<S> fmt::Debug for LoopBuilder<S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LoopBuilder")
            .field("timestep", &self.timestep)
            .field("budget", &self.budget)
            .field("speed", &self.speed)
            .field("pacing", &self.pacing)
            .field("render_cap", &self.render_cap)
            .field("governor", &self.governor)
            .field("warmup_frames", &self.warmup_frames)
            .field("absence", &self.absence)
            .field("work_budget", &self.work_budget)
            .field("gap_window", &self.gap_window)
            .finish_non_exhaustive()
    }
}

/// Why a [`Loop`] could not be configured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ConfigError {
    /// A duration that must be positive was zero; names the setting.
    ZeroDuration(&'static str),
    /// The gap window was not a whole number of seconds from 1 to 60.
    GapWindow(Duration),
    /// A speed was out of range.
    Speed(evenstep_core::SpeedError),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::ZeroDuration(setting) => {
                write!(
                    f,
                    "`{setting}` must be a positive duration (at least 1 ns), got 0"
                )
            }
            ConfigError::GapWindow(window) => write!(
                f,
                "`gap_window` must be a whole number of seconds from 1 to \
                 {MAX_GAP_WINDOW_SECS}, got {window:?}"
            ),
            ConfigError::Speed(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::Speed(error) => Some(error),
            _ => None,
        }
    }
}

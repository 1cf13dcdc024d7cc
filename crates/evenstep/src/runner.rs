//! The headless runner: drives a [`Loop`] with no window, for a game server,
//! a simulation tool or a bot. It sleeps until the loop's next step, real
//! timer or request is due ([`Loop::next_due`]), pumps, and repeats, until a
//! [`StopHandle`] (another thread, a Ctrl-C handler) or a callback stops it.
//! It measures itself: how late each step ran against when it was due, and
//! the process's CPU time.
//!
//! Sleeping goes through the [`Sleep`] trait. [`PreciseSleep`] sleeps on the
//! operating system to shortly before the deadline and waits out the rest
//! in a short, bounded spin: an OS sleep alone wakes late by the timer's
//! slack and the scheduler's latency (tens of microseconds to a
//! millisecond), and a spin alone holds a core. [`ManualSleep`] moves a
//! [`ManualClock`] instead, so a test runs an hour of server in
//! microseconds, exactly.

use std::fmt;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::{self, JoinHandle, Thread};
use std::time::Duration;

use evenstep_core::{FramePlan, Nanos, Speed, Timestamp, Timestep};

use crate::clock::{Clock, ManualClock};
pub use crate::cpu::process_cpu_time;
use crate::game_loop::{Loop, PumpKind, PumpReport};
use crate::stats::LogHistogram;

/// How a runner waits for a deadline on a clock.
///
/// An implementation returns once `clock` reads `deadline` or later, or
/// early, as soon as it can, once `stop` [is stopped](StopHandle::is_stopped).
/// Returning early for any other reason is allowed (the runner checks the
/// time and sleeps again); returning late is lateness the runner reports.
pub trait Sleep {
    /// Waits until `clock` reads `deadline` or later, or until `stop` is
    /// stopped.
    fn sleep_until(&mut self, clock: &dyn Clock, deadline: Timestamp, stop: &StopHandle);
}

/// Sleeps on the operating system until `margin` before the deadline, then
/// polls the clock until it reaches the deadline. A stop wakes the OS sleep
/// at once.
///
/// The margin trades CPU for punctuality: the spin costs about one margin of
/// CPU per wake-up, and an OS sleep that oversleeps by more than the margin
/// makes the wake-up late. The default, 250 µs, covers Linux's default timer
/// slack (50 µs) and a lightly loaded scheduler; `bench/README.md` ("The
/// headless runner") measures what it costs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreciseSleep {
    margin: Duration,
}

impl PreciseSleep {
    /// The default margin: 250 µs.
    pub const DEFAULT_MARGIN: Duration = Duration::from_micros(250);

    /// A sleeper whose spin starts `margin` before each deadline
    /// ([`Duration::ZERO`]: OS sleep only).
    pub const fn with_margin(margin: Duration) -> PreciseSleep {
        PreciseSleep { margin }
    }

    /// The margin before each deadline that is waited out without the OS.
    pub const fn margin(&self) -> Duration {
        self.margin
    }
}

impl Default for PreciseSleep {
    fn default() -> PreciseSleep {
        PreciseSleep::with_margin(PreciseSleep::DEFAULT_MARGIN)
    }
}

impl Sleep for PreciseSleep {
    fn sleep_until(&mut self, clock: &dyn Clock, deadline: Timestamp, stop: &StopHandle) {
        let margin = Nanos::from_duration(self.margin);
        loop {
            if stop.is_stopped() {
                return;
            }
            let now = clock.now();
            if now >= deadline {
                return;
            }
            let left = deadline.saturating_since(now);
            if left > margin {
                // Parked, not slept, so that `StopHandle::stop` can wake it.
                // A park may return early; the loop sleeps again.
                thread::park_timeout((left - margin).as_duration());
            } else {
                // The last stretch, bounded by the margin: handing the core
                // back now could cost a scheduler slice of lateness.
                std::hint::spin_loop();
            }
        }
    }
}

/// Moves a [`ManualClock`] to each deadline (plus a fixed oversleep) instead
/// of sleeping: for tests and tools that run a server's hours in
/// microseconds.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use evenstep::{Loop, ManualClock, Runner, Timestep, runner::ManualSleep};
///
/// let clock = ManualClock::new();
/// let mut server = Loop::<u64>::builder()
///     .clock(clock.clone())
///     .timestep(Timestep::HZ_30)
///     .build()?;
/// server.on_update(|steps, step| {
///     *steps += 1;
///     if step.tick() == 299 {
///         step.control().stop(); // ten seconds of steps, then stop
///     }
/// });
/// // Every wake-up 40 µs late.
/// let mut runner = Runner::with_sleeper(ManualSleep::new(clock.clone(), Duration::from_micros(40)));
/// let mut steps = 0;
/// let report = runner.run(&mut server, &mut steps);
/// assert_eq!(steps, 300);
/// assert_eq!(report.lateness.max, evenstep::Nanos::from_micros(40));
/// # Ok::<(), evenstep::ConfigError>(())
/// ```
#[derive(Clone, Debug)]
pub struct ManualSleep {
    clock: ManualClock,
    oversleep: Nanos,
}

impl ManualSleep {
    /// Moves `clock` to each deadline plus `oversleep`.
    pub fn new(clock: ManualClock, oversleep: Duration) -> ManualSleep {
        ManualSleep {
            clock,
            oversleep: Nanos::from_duration(oversleep),
        }
    }
}

impl Sleep for ManualSleep {
    fn sleep_until(&mut self, clock: &dyn Clock, deadline: Timestamp, stop: &StopHandle) {
        if stop.is_stopped() {
            return;
        }
        let wake = deadline.saturating_add(self.oversleep);
        if wake > clock.now() {
            self.clock.set(wake);
        }
    }
}

/// Stops a [`Runner`] from any thread: `Send`, `Sync`, and cheap to clone.
///
/// Each stop ends one run: the run in progress (after its current pump,
/// waking it if it sleeps), or else the next run, at once. The run it ends
/// stops the loop, which a later run (or [`Loop::start`]) restarts.
#[derive(Clone, Debug, Default)]
pub struct StopHandle {
    shared: Arc<StopShared>,
}

#[derive(Debug, Default)]
struct StopShared {
    stopped: AtomicBool,
    /// The thread of the run in progress, to wake from its sleep.
    sleeper: Mutex<Option<Thread>>,
}

impl StopHandle {
    /// Asks the runner to stop, and wakes it if it sleeps.
    pub fn stop(&self) {
        self.shared.stopped.store(true, Ordering::SeqCst);
        let sleeper = self
            .shared
            .sleeper
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if let Some(thread) = sleeper.as_ref() {
            thread.unpark();
        }
    }

    /// Whether a stop was asked for and has not yet ended a run.
    pub fn is_stopped(&self) -> bool {
        self.shared.stopped.load(Ordering::SeqCst)
    }

    fn take(&self) -> bool {
        self.shared.stopped.swap(false, Ordering::SeqCst)
    }

    fn set_sleeper(&self, thread: Option<Thread>) {
        *self
            .shared
            .sleeper
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = thread;
    }
}

/// How late steps ran against when they were due, over one run: a step's
/// lateness is the pump's clock reading less the instant the step fell due.
/// A step that runs on time is 0 late.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Lateness {
    /// Steps measured.
    pub steps: u64,
    /// The median, within 3.1% (a log-linear histogram's bucket).
    pub p50: Nanos,
    /// The 99th percentile, within 3.1%.
    pub p99: Nanos,
    /// The latest step, exactly.
    pub max: Nanos,
}

/// What a run did and what it cost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunReport {
    /// Pumps that ran (saturating).
    pub pumps: u64,
    /// Fixed steps that ran (saturating).
    pub steps: u64,
    /// Steps the budget dropped (a stall longer than the budget); saturates
    /// at `u64::MAX`, as
    /// [`LoopStats::dropped_steps`](crate::stats::LoopStats::dropped_steps)
    /// does.
    pub dropped_steps: u64,
    /// Time on the loop's clock from the start of the run to its end.
    pub wall: Duration,
    /// Process CPU time used during the run (`None` where it cannot be read:
    /// see [`process_cpu_time`]).
    pub cpu: Option<Duration>,
    /// How late the steps ran.
    pub lateness: Lateness,
    /// Whether a [`StopHandle`] ended the run (otherwise a callback stopped
    /// the loop).
    pub stopped_by_handle: bool,
}

impl RunReport {
    /// A run that has done nothing yet.
    fn empty() -> RunReport {
        RunReport {
            pumps: 0,
            steps: 0,
            dropped_steps: 0,
            wall: Duration::ZERO,
            cpu: None,
            lateness: Lateness::default(),
            stopped_by_handle: false,
        }
    }

    /// Counts one pump of the run. Every count saturates, as the loop's
    /// statistics do: a stall of days at a fine step and a high speed drops
    /// more steps than a `u64` counts.
    fn count(&mut self, pump: &PumpReport) {
        self.pumps = self.pumps.saturating_add(1);
        self.steps = self.steps.saturating_add(pump.steps);
        self.dropped_steps = self.dropped_steps.saturating_add(pump.plan.steps_dropped());
    }

    /// CPU time per second of wall time: 0.015 is 1.5% of one core.
    pub fn cpu_share(&self) -> Option<f64> {
        let wall = self.wall.as_secs_f64();
        let cpu = self.cpu?.as_secs_f64();
        (wall > 0.0).then(|| cpu / wall)
    }
}

/// Drives a [`Loop`] with no window: sleeps until the next thing is due,
/// pumps ([`PumpKind::Tick`]: nothing renders), and repeats until stopped.
///
/// [`run`](Runner::run) drives a loop on the calling thread. A [`Loop`]
/// holds callbacks that need not be `Send`, so to run on another thread,
/// [`spawn`](Runner::spawn) builds the loop there, inside a closure.
///
/// # Examples
///
/// On another thread (here on a [`ManualClock`], so the example runs at
/// once; a server uses [`Runner::new`] on the real clock, and calls
/// [`RunnerThread::stop`] from its Ctrl-C handler: see `examples/server.rs`):
///
/// ```
/// use std::time::Duration;
/// use evenstep::{Loop, ManualClock, Runner, Timestep, runner::ManualSleep};
///
/// let clock = ManualClock::new();
/// let sleeper = ManualSleep::new(clock.clone(), Duration::ZERO);
/// let server = Runner::with_sleeper(sleeper).spawn(move |runner| {
///     // Built on the runner's thread: the callbacks need not be `Send`.
///     let mut game_loop = Loop::<u64>::builder().clock(clock).timestep(Timestep::HZ_30).build()?;
///     game_loop.on_update(|steps, step| {
///         *steps += 1;
///         if step.tick() == 89 {
///             step.control().stop();
///         }
///     });
///     let mut steps = 0;
///     let report = runner.run(&mut game_loop, &mut steps);
///     Ok::<_, evenstep::ConfigError>((steps, report.lateness.max))
/// })?;
/// let (steps, latest) = server.join().expect("the server thread panicked")?;
/// assert_eq!(steps, 90);
/// assert_eq!(latest, evenstep::Nanos::ZERO);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Runner<Z = PreciseSleep> {
    sleeper: Z,
    stop: StopHandle,
    idle_wake: Nanos,
    lateness: Box<LogHistogram>,
    latest: Nanos,
}

impl<Z: fmt::Debug> fmt::Debug for Runner<Z> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runner")
            .field("sleeper", &self.sleeper)
            .field("stop", &self.stop)
            .field("idle_wake", &self.idle_wake)
            .field("lateness", &self.lateness())
            .finish_non_exhaustive()
    }
}

impl Runner<PreciseSleep> {
    /// The longest a runner sleeps when nothing is due (a paused loop with
    /// no real timer) before it looks again: 1 s.
    pub const DEFAULT_IDLE_WAKE: Duration = Duration::from_secs(1);

    /// A runner that sleeps with [`PreciseSleep`]'s default margin.
    pub fn new() -> Runner<PreciseSleep> {
        Runner::with_sleeper(PreciseSleep::default())
    }
}

impl Default for Runner<PreciseSleep> {
    fn default() -> Runner<PreciseSleep> {
        Runner::new()
    }
}

impl<Z> Runner<Z> {
    /// A runner that sleeps with `sleeper`.
    pub fn with_sleeper(sleeper: Z) -> Runner<Z> {
        Runner {
            sleeper,
            stop: StopHandle::default(),
            idle_wake: Nanos::from_duration(Runner::DEFAULT_IDLE_WAKE),
            lateness: Box::new(LogHistogram::new()),
            latest: Nanos::ZERO,
        }
    }

    /// The handle that stops this runner's runs, from any thread.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Sets the longest sleep when nothing is due (default
    /// [`Runner::DEFAULT_IDLE_WAKE`]). A stop wakes the
    /// runner at once whatever this is; it bounds how long a loop paused by
    /// hand goes unlooked-at.
    pub fn set_idle_wake(&mut self, idle_wake: Duration) {
        self.idle_wake = Nanos::from_duration(idle_wake).max(Nanos::from_nanos(1));
    }

    /// How late the steps of the run in progress (or the last run) were.
    pub fn lateness(&self) -> Lateness {
        Lateness {
            steps: self.lateness.total(),
            p50: self.lateness.percentile(500),
            p99: self.lateness.percentile(990),
            max: self.latest,
        }
    }
}

impl<Z: Sleep> Runner<Z> {
    /// Runs `game_loop` on this thread until a [`StopHandle`] or a callback
    /// stops it, and reports. Starts the loop if it is not running (see
    /// [`Loop::start`]); returns with it stopped, ready to start again.
    ///
    /// Each round: ask the loop what is due next, sleep until then, and pump
    /// a [`PumpKind::Tick`]. A stop during the sleep ends the run without a
    /// further pump; a stop during a pump ends it after that pump.
    ///
    /// # Panics
    ///
    /// Only if a callback panics; the panic passes through, leaving the loop
    /// as a panicking pump does.
    pub fn run<S>(&mut self, game_loop: &mut Loop<S>, state: &mut S) -> RunReport {
        self.lateness.clear();
        self.latest = Nanos::ZERO;
        let mut report = RunReport::empty();
        if self.stopped_by_handle(game_loop, &mut report) {
            return report;
        }
        self.stop.set_sleeper(Some(thread::current()));
        let cpu_start = process_cpu_time();
        let wall_start = game_loop.clock().now();
        game_loop.start();
        while game_loop.is_running() {
            if self.round(game_loop, state, &mut report).is_break() {
                break;
            }
        }
        self.stop.set_sleeper(None);
        report.wall = game_loop
            .clock()
            .now()
            .saturating_since(wall_start)
            .as_duration();
        report.cpu = cpu_start
            .zip(process_cpu_time())
            .map(|(start, end)| end.saturating_sub(start));
        report.lateness = self.lateness();
        report
    }

    /// One round of a run: sleeps until what is due next, then pumps a
    /// [`PumpKind::Tick`] and counts it. Breaks when the run ends.
    fn round<S>(
        &mut self,
        game_loop: &mut Loop<S>,
        state: &mut S,
        report: &mut RunReport,
    ) -> ControlFlow<()> {
        let step_due = game_loop.next_step_due();
        let deadline = game_loop
            .next_due()
            .unwrap_or_else(|| game_loop.clock().now().saturating_add(self.idle_wake));
        self.sleeper
            .sleep_until(game_loop.clock(), deadline, &self.stop);
        if self.stopped_by_handle(game_loop, report) {
            return ControlFlow::Break(());
        }
        if game_loop.clock().now() < deadline {
            // Woken early: nothing new is due yet.
            return ControlFlow::Continue(());
        }
        let Some(pump) = game_loop.pump(state, PumpKind::Tick).report() else {
            return ControlFlow::Break(());
        };
        report.count(&pump);
        if let Some(due) = step_due {
            self.record_lateness(pump.now, due, &pump.plan, pump.steps);
        }
        if self.stopped_by_handle(game_loop, report) {
            return ControlFlow::Break(());
        }
        ControlFlow::Continue(())
    }

    /// Whether a stop was asked for through the handle; if so, takes it,
    /// stops the loop and says so in `report`.
    fn stopped_by_handle<S>(&self, game_loop: &mut Loop<S>, report: &mut RunReport) -> bool {
        if !self.stop.take() {
            return false;
        }
        game_loop.stop();
        report.stopped_by_handle = true;
        true
    }

    /// Records the lateness of the steps a pump at `now` ran from elapsed
    /// time (queued steps were due at once, and are not measured): the
    /// first fell due at `first_due`, each later one a step's worth of
    /// scaled time after it.
    fn record_lateness(
        &mut self,
        now: Timestamp,
        first_due: Timestamp,
        plan: &FramePlan,
        ran: u64,
    ) {
        let timed = ran.min(plan.steps_run().saturating_sub(plan.steps_queued()));
        for i in 0..timed {
            let due = first_due.saturating_add(scaled_steps(i, plan.timestep(), plan.speed()));
            let late = now.saturating_since(due);
            self.lateness.record(late);
            self.latest = self.latest.max(late);
        }
    }
}

impl<Z: Sleep + Send + 'static> Runner<Z> {
    /// Runs `body` on a new thread with this runner, and returns at once
    /// with the thread and the runner's stop handle. `body` builds the loop
    /// on that thread (a [`Loop`]'s callbacks need not be `Send`), runs it
    /// with [`run`](Runner::run), and returns what it likes.
    ///
    /// # Errors
    ///
    /// The operating system's error if it cannot create the thread.
    pub fn spawn<T, F>(self, body: F) -> std::io::Result<RunnerThread<T>>
    where
        F: FnOnce(&mut Runner<Z>) -> T + Send + 'static,
        T: Send + 'static,
    {
        let stop = self.stop_handle();
        let mut runner = self;
        let thread = thread::Builder::new()
            .name("evenstep-runner".into())
            .spawn(move || body(&mut runner))?;
        Ok(RunnerThread { thread, stop })
    }
}

/// A runner on its own thread, from [`Runner::spawn`].
#[derive(Debug)]
#[must_use = "dropping the thread handle detaches the runner: it runs until stopped"]
pub struct RunnerThread<T> {
    thread: JoinHandle<T>,
    stop: StopHandle,
}

impl<T> RunnerThread<T> {
    /// Asks the runner to stop (see [`StopHandle::stop`]).
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// The runner's stop handle.
    pub fn stop_handle(&self) -> StopHandle {
        self.stop.clone()
    }

    /// Waits for the thread to finish, and returns what its body returned.
    ///
    /// # Errors
    ///
    /// The panic's payload, if the body panicked.
    pub fn join(self) -> thread::Result<T> {
        self.thread.join()
    }
}

/// `count` steps of `timestep` at `speed`, in wall time, rounded up to the
/// nanosecond (the instant a pump runs the last of them).
fn scaled_steps(count: u64, timestep: Timestep, speed: Speed) -> Nanos {
    if count == 0 || speed.is_paused() {
        return Nanos::ZERO;
    }
    // Saturating: a budget of billions of steps at a long step and a fine
    // speed multiplies past 2¹²⁸; the instant is then the end of time.
    let units = (u128::from(count) * u128::from(timestep.units_per_step()))
        .saturating_mul(u128::from(speed.denominator()));
    let per_nano = u128::from(timestep.units_per_nanosecond()) * u128::from(speed.numerator());
    Nanos::from_nanos(u64::try_from(units.div_ceil(per_nano)).unwrap_or(u64::MAX))
}

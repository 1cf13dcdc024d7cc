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
use std::thread::{self, JoinHandle};
use std::time::Duration;

use evenstep_core::Nanos;

#[cfg(doc)]
use crate::clock::ManualClock;
pub use crate::cpu::process_cpu_time;
use crate::game_loop::Loop;
#[cfg(doc)]
use crate::game_loop::PumpKind;

mod lateness;
mod sleep;
mod stop;

pub use lateness::Lateness;
pub(crate) use lateness::{LatenessTally, MeasuredPump, measured_tick, wake_deadline};
pub use sleep::{ManualSleep, PreciseSleep, Sleep};
pub use stop::StopHandle;

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
    fn count(&mut self, pump: &MeasuredPump) {
        self.pumps = self.pumps.saturating_add(1);
        self.steps = self.steps.saturating_add(pump.report.steps);
        self.dropped_steps = self
            .dropped_steps
            .saturating_add(pump.plan().steps_dropped());
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
    lateness: LatenessTally,
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
            lateness: LatenessTally::new(),
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
        self.lateness.lateness()
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
        let deadline = wake_deadline(game_loop, self.idle_wake);
        self.sleeper
            .sleep_until(game_loop.clock(), deadline, &self.stop);
        if self.stopped_by_handle(game_loop, report) {
            return ControlFlow::Break(());
        }
        if game_loop.clock().now() < deadline {
            // Woken early: nothing new is due yet.
            return ControlFlow::Continue(());
        }
        let Some(pump) = measured_tick(game_loop, state) else {
            return ControlFlow::Break(());
        };
        report.count(&pump);
        for late in pump.step_lateness() {
            self.lateness.record(late);
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

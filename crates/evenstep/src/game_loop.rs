//! The loop: [`Loop`] owns a planner, a clock, two timelines, jobs and
//! subscribers, and runs them in a fixed order each time the host pumps it.
//! Nothing runs on its own: no thread, no timer, no autostart. The host (a
//! window's redraw callback, a server's tick, a test) calls
//! [`pump`](Loop::pump), and the loop does one frame's worth of work.
//!
//! Each room of the loop has its own file: the pump order (`pump`), the
//! fixed steps (`steps`), the builder and its errors (`builder`), the
//! controls (`controls`), the subscribers (`subscribers`), the render rate
//! and the governor (`render_rate`), the time since the previous render
//! (`render_delta`), the clock and the pumps' times (`time_base`), recovery
//! after a panic (`recovery`), due times (`due`), catch-up (`catch_up`), display
//! feedback (`feedback`), recording a capture (`capture`) and what a pump
//! reports (`report`).

mod builder;
mod capture;
mod catch_up;
mod controls;
mod due;
mod feedback;
mod input;
mod pump;
mod recovery;
mod render_delta;
mod render_rate;
mod report;
mod steps;
mod subscribers;
mod time_base;

use std::fmt;

use evenstep_core::{Alpha, FrameLoop, Nanos, Speed, Timestep};

pub use self::builder::{ConfigError, LoopBuilder};
pub use self::report::{CatchUp, Pump, PumpKind, PumpReport};
pub use self::subscribers::SubscriberId;

use crate::capture::CaptureWriter;
use crate::clock::Clock;
#[cfg(doc)]
use crate::clock::MonotonicClock;
#[cfg(doc)]
use crate::control::Control;
use crate::game_loop::controls::Steering;
use crate::game_loop::recovery::Recovery;
use crate::game_loop::render_delta::RenderDelta;
use crate::game_loop::render_rate::RenderRate;
use crate::game_loop::subscribers::Subscribers;
use crate::game_loop::time_base::TimeBase;
use crate::input::queue::InputQueue;
use crate::jobs::{JobHandle, Jobs};
use crate::stats::{Collector, LoopStats};
use crate::timeline::Timeline;

/// Whether the loop runs.
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
/// 6. for each fixed step: the step takes its [input](crate::input), the
///    [`sim`](Loop::sim) timeline advances to the step's end, the update
///    subscribers run in registration order, and the tick rises by one (the
///    planner numbers the steps: see [`tick`](Loop::tick)); a paused pump
///    that runs no step hands its input to the
///    [paused-input hooks](Loop::on_paused_input) instead;
/// 7. the [after-steps hooks](Loop::on_after_steps) run with the plan, in
///    registration order (a network session sends here);
/// 8. on a paint pump, the render subscribers run in registration order;
/// 9. statistics are recorded, and a [capture](crate::capture) being
///    recorded writes the frames that left flight.
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
    /// The clock, the previous pump's time and real time.
    time: TimeBase,
    frames: FrameLoop,
    run: Run,
    /// Requests waiting for the next pump, speed, pause and budget window.
    steering: Steering,
    real: Timeline<S>,
    sim: Timeline<S>,
    jobs: Jobs<S>,
    subscribers: Subscribers<S>,
    /// The game's render cap and the governor.
    render_rate: RenderRate,
    since_render: RenderDelta,
    stats: Box<Collector>,
    /// The pump in progress, for the state after a panic out of it.
    recovery: Recovery,
    /// Input waiting for its step, and the recorder.
    input: InputQueue<S>,
    /// The capture recording, if any (boxed: its ring of frames in flight
    /// would more than double the loop's size).
    capture: Option<Box<CaptureWriter>>,
}

impl<S> Loop<S> {
    /// A builder with the defaults: [`MonotonicClock`], 60 Hz, a budget of
    /// 5 steps, normal speed.
    pub fn builder() -> LoopBuilder<S> {
        LoopBuilder::new()
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
            let now = self.time.anchor();
            self.run = Run::Running;
            self.since_render.restart();
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
        if self.recovery.in_pump() {
            let mut stats = Collector::clone(&self.stats);
            stats.record_abandoned(self.recovery.not_begun(), self.frames.timestep());
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
        if self.recovery.in_pump() {
            // A callback panicked out of the pump: the planner still counts
            // the steps that never began.
            self.recovery.next_tick()
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
        self.time.real_time()
    }

    /// The fixed step.
    pub fn timestep(&self) -> Timestep {
        self.frames.timestep()
    }

    /// The speed asked for (the planner runs at zero while paused).
    pub fn speed(&self) -> Speed {
        self.steering.speed
    }

    /// The current blend factor.
    pub fn alpha(&self) -> Alpha {
        self.frames.alpha()
    }

    /// Whether the loop is started and not stopped.
    pub fn is_running(&self) -> bool {
        self.run == Run::Running && !self.recovery.in_pump()
    }

    /// Whether the loop is paused (as of the latest pump).
    pub fn is_paused(&self) -> bool {
        self.steering.paused
    }

    /// The loop's clock: the time base of every pump, of
    /// [`next_due`](Loop::next_due), and of the cost timings.
    pub fn clock(&self) -> &dyn Clock {
        self.time.clock()
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
            .field("paused", &self.steering.paused)
            .field("tick", &self.tick())
            .field("real_time", &self.time.real_time())
            .field("frames", &self.frames)
            .finish_non_exhaustive()
    }
}

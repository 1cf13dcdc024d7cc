//! The pump: one frame of the loop, in the order the [`Loop`] type's doc
//! numbers, each numbered step a call.

use evenstep_core::{FramePlan, Nanos, Timestamp};

#[cfg(doc)]
use crate::clock::Clock;
use crate::contexts::RenderContext;
use crate::game_loop::report::{Pump, PumpKind, PumpReport};
use crate::game_loop::{Loop, Run};
#[cfg(doc)]
use crate::stats::LoopStats;
use crate::stats::PumpSample;

impl<S> Loop<S> {
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
        // No step of this pump is planned yet: a panic before the plan
        // abandons nothing.
        self.recovery.enter(self.frames.tick());

        // 1. The accounting time, and control requests made since the
        //    previous pump. The clock reading also starts the cost timing.
        let (started, now) = self.accounting_time(supplied);
        // 2. Real time: unclamped and unpaused.
        let elapsed = self.advance_real_time(state, now);
        // 3. Jobs, before any step can need their results.
        let jobs = self.jobs.run(state);
        // 4. Plan; the budget has clamped and reported.
        let plan = self.plan(kind, now);
        self.note_plan(state, kind, &plan);
        // 5. Hooks before the steps.
        self.subscribers.before_steps(state, &plan);
        // 6. The fixed steps, or a paused pump's input.
        let steps = self.run_pump_steps(state, &plan, now);
        let stopped = self.steering.control.stop_requested();
        // 7. Hooks after the steps, unless an update stopped the loop.
        if !stopped {
            self.subscribers.after_steps(state, &plan);
        }
        let updated = self.time.read();
        // 8. Paint, unless the render cap skips this frame.
        let rendered = kind == PumpKind::Paint && !stopped && plan.render();
        if rendered {
            self.render(state, &plan, now);
        }
        // `stop` from a render also takes effect at once: the next pump does
        // not run.
        let stopped = stopped || self.steering.control.stop_requested();
        let ended = if rendered { self.time.read() } else { updated };
        // 9. Statistics, and the capture.
        let readings = Readings {
            started,
            updated,
            ended,
        };
        self.record(&plan, now, rendered, steps, &readings);
        self.capture_plan(&plan, now, rendered);
        self.finish(stopped);
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

    /// Step 1: the pump's clock reading and its accounting time, after the
    /// control requests made since the previous pump are applied.
    #[inline]
    fn accounting_time(&mut self, supplied: Option<Timestamp>) -> (Timestamp, Timestamp) {
        let started = self.time.read();
        let now = self.time.accounting_time(started, supplied);
        if self.apply_control() {
            // Resumed: the planner forgets the paused gap, so no burst of
            // steps; real time keeps the gap, as it kept running.
            self.frames.resync(now);
        }
        (started, now)
    }

    /// Step 2: real time and the real timeline advance to `now`. Returns
    /// the real time elapsed since the previous pump.
    #[inline]
    fn advance_real_time(&mut self, state: &mut S, now: Timestamp) -> Nanos {
        let elapsed = self.time.advance_to(now);
        self.real.advance_to(state, self.time.real_time());
        elapsed
    }

    /// Step 4: the plan for a pump of `kind` at `now`. A tick pump draws
    /// nothing, so it spends no render of the render cap.
    #[inline]
    fn plan(&mut self, kind: PumpKind, now: Timestamp) -> FramePlan {
        match kind {
            PumpKind::Paint => self.frames.begin_frame(now),
            PumpKind::Tick => self.frames.begin_hidden_frame(now),
        }
    }

    /// Step 4, once planned: the steps of `plan` are in flight, the plan is
    /// shown to the governor and counted towards the render delta, and a
    /// clamped plan's drops are recorded and the stall hook called.
    #[inline]
    fn note_plan(&mut self, state: &mut S, kind: PumpKind, plan: &FramePlan) {
        // Planned from here on: a panic in the stall hook abandons them all.
        self.recovery.planned(plan);
        if kind == PumpKind::Paint && self.render_rate.is_governed() {
            self.govern(plan);
        }
        self.since_render.add(plan);
        // Only a clamped plan drops time. Its drops are recorded at once, so
        // a panic later in the pump cannot lose them.
        if plan.clamped() {
            self.stats
                .record_dropped(plan.dropped_units(), plan.steps_dropped(), plan.timestep());
            self.subscribers.stall(state, plan);
        }
    }

    /// Step 6: runs `plan`'s steps; a paused pump at `now` that runs none
    /// hands its input to the paused-input hooks instead. Returns the
    /// steps run.
    #[inline]
    fn run_pump_steps(&mut self, state: &mut S, plan: &FramePlan, now: Timestamp) -> u64 {
        let steps = self.run_steps(state, plan, Some(now));
        if steps == 0 && plan.speed().is_paused() {
            self.input.paused_pump(state, now);
        }
        steps
    }

    /// Step 8: runs the render subscribers for `plan`'s frame at `now`, and
    /// starts counting the time to the next render.
    fn render(&mut self, state: &S, plan: &FramePlan, now: Timestamp) {
        let frame = RenderContext {
            alpha: plan.alpha(),
            frames: &self.frames,
            tick: self.frames.tick(),
            now,
            real_time: self.time.real_time(),
            control: &self.steering.control,
            frame_delta: plan.raw_delta(),
            render_delta: self.since_render.raw(),
            scaled_render_units: self.since_render.scaled_units(),
            frame: plan.frame(),
        };
        self.subscribers.render(state, &frame);
        self.since_render.restart();
    }

    /// Step 9: records the pump at `now` that ran `steps` of `plan` in the
    /// statistics, with the clock readings that time its phases.
    #[inline]
    fn record(
        &mut self,
        plan: &FramePlan,
        now: Timestamp,
        painted: bool,
        steps: u64,
        readings: &Readings,
    ) {
        self.stats.record(&PumpSample {
            now,
            real_time: self.time.real_time(),
            painted,
            frame_cost: readings.ended.saturating_since(readings.started),
            update_cost: readings.updated.saturating_since(readings.started),
            render_cost: readings.ended.saturating_since(readings.updated),
            steps,
            timestep: plan.timestep(),
            abandoned_steps: plan.steps_run() - steps - self.recovery.given_back(),
        });
    }

    /// Ends the pump (or catch-up) in progress: a `stop` asked for inside it
    /// stops the loop.
    pub(crate) fn finish(&mut self, stopped: bool) {
        if stopped {
            self.steering.control.clear_stop();
            self.run = Run::Stopped;
        }
        self.recovery.leave();
    }
}

/// The clock readings that time a pump's phases: at its start, after its
/// updates and at its end.
struct Readings {
    started: Timestamp,
    updated: Timestamp,
    ended: Timestamp,
}

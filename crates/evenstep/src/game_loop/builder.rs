//! The builder: [`LoopBuilder`] configures a [`Loop`], and [`ConfigError`]
//! says why a configuration was refused.

use std::fmt;
use std::marker::PhantomData;
use std::num::NonZeroU64;
use std::time::Duration;

use evenstep_core::{
    FrameLoop, FrameRateGovernor, Nanos, Pacing, Rate, Speed, StepBudget, Timestamp, Timestep,
};

use crate::clock::{Clock, MonotonicClock};
use crate::game_loop::controls::Steering;
use crate::game_loop::recovery::Recovery;
use crate::game_loop::render_delta::RenderDelta;
use crate::game_loop::render_rate::RenderRate;
use crate::game_loop::subscribers::Subscribers;
use crate::game_loop::time_base::TimeBase;
use crate::game_loop::{Loop, Run};
use crate::input::queue::{InputQueue, StateHasher};
use crate::jobs::Jobs;
use crate::stats::{Collector, MAX_GAP_WINDOW_SECS, StatsConfig};
use crate::timeline::Timeline;

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
    /// The input recording asked for: checkpoint spacing and state hash.
    record_input: Option<(NonZeroU64, StateHasher<S>)>,
}

impl<S> LoopBuilder<S> {
    pub(crate) fn new() -> LoopBuilder<S> {
        LoopBuilder {
            state: PhantomData,
            clock: None,
            timestep: Timestep::HZ_60,
            budget: Budget::Steps(StepBudget::DEFAULT),
            speed: Speed::NORMAL,
            pacing: Pacing::LOCKED,
            render_cap: None,
            governor: None,
            record_input: None,
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
    /// whenever the step rate changes (see [`Loop::set_budget_window`]). A
    /// window shorter than one step, zero included, covers one step: a
    /// budget is never below one. The later of this and
    /// [`budget`](LoopBuilder::budget) wins.
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

    /// Records every step's input from the first step on, with no code in
    /// the game: each event delivered to a step is logged at its tick, and
    /// after every `checkpoint_every` ticks' updates `hash` of the state is
    /// the checkpoint. Read the log with [`Loop::input_log`] (save it at
    /// any moment) or take it with [`Loop::take_input_log`];
    /// [`replay`](crate::replay()) hands each step the same input.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::num::NonZeroU64;
    /// use evenstep::{Loop, ManualClock, PumpKind, StateHash, Timestamp, Timestep, replay};
    /// use evenstep::input::{InputEvent, Key};
    ///
    /// let update = |x: &mut i64, step: &evenstep::StepContext| {
    ///     if step.input().held(Key::D) {
    ///         *x += 1;
    ///     }
    /// };
    /// let hash = |x: &i64| StateHash::new().i64(*x).finish();
    /// let clock = ManualClock::new();
    /// let mut game_loop = Loop::<i64>::builder()
    ///     .clock(clock.clone())
    ///     .record_input(NonZeroU64::new(10).unwrap(), hash)
    ///     .build()?;
    /// game_loop.on_update(update);
    /// game_loop.start();
    /// game_loop.push_input(Timestamp::from_nanos(1), InputEvent::Press(Key::D.into()))?;
    /// let mut x = 0;
    /// clock.set(Timestamp::from_nanos(1_000_000_000)); // a second: 5 steps, the budget
    /// let _ = game_loop.pump(&mut x, PumpKind::Paint);
    /// let mut log = game_loop.take_input_log().unwrap();
    /// let report = replay(&mut log, Timestep::HZ_60, &mut 0, update, hash)?;
    /// assert_eq!((x, log.ticks(), report.is_green()), (5, 5, false)); // no checkpoint yet
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn record_input(
        mut self,
        checkpoint_every: NonZeroU64,
        hash: impl FnMut(&S) -> u64 + 'static,
    ) -> LoopBuilder<S> {
        self.record_input = Some((checkpoint_every, Box::new(hash)));
        self
    }

    /// Builds the loop, stopped until [`Loop::start`].
    ///
    /// # Errors
    ///
    /// [`ConfigError`] for a zero absence threshold or work budget, or a gap
    /// window that is not a whole number of seconds from 1 to 60.
    pub fn build(self) -> Result<Loop<S>, ConfigError> {
        let stats = self.stats_config()?;
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
        let mut input = InputQueue::new();
        if let Some((every, hash)) = self.record_input {
            input.record(self.timestep, every, hash);
        }
        Ok(Loop {
            time: TimeBase::new(clock),
            frames,
            run: Run::NotStarted,
            steering: Steering::new(self.speed, budget_window),
            real: Timeline::new(),
            sim: Timeline::new(),
            jobs: Jobs::new(),
            subscribers: Subscribers::new(),
            render_rate: RenderRate::new(self.render_cap, self.governor),
            since_render: RenderDelta::default(),
            stats: Box::new(Collector::new(stats)),
            recovery: Recovery::new(),
            input,
            capture: None,
        })
    }

    /// The statistics' settings, checked.
    fn stats_config(&self) -> Result<StatsConfig, ConfigError> {
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
        Ok(StatsConfig {
            warmup_frames: self.warmup_frames,
            absence: Nanos::from_duration(self.absence),
            work_budget: Nanos::from_duration(self.work_budget),
            gap_window_secs: window.as_secs(),
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

//! What the plugin tells the game about each frame: the frame's plan, as a
//! resource, and a stall and a refusal, as messages.

use core::fmt;
use core::time::Duration;

use bevy_ecs::message::Message;
#[cfg(feature = "reflect")]
use bevy_ecs::reflect::ReflectResource;
use bevy_ecs::resource::Resource;
use evenstep_core::{Alpha, FramePlan, Nanos, Pacing, Speed, Timestep};

/// This frame's plan: the steps `FixedMain` ran, the steps and time the
/// budget dropped, the blend factor and the pacing's state.
///
/// The plugin inserts it at the first frame's `RunFixedMainLoop` and
/// replaces it at every frame's, so systems from `Update` on read this
/// frame's plan (read it as `Option<Res<FixedPlan>>` in `Startup` and
/// `First`).
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "reflect",
    derive(bevy_reflect::Reflect),
    // Opaque: it holds the planner's `FramePlan`; read it through its
    // accessors, or as its `Debug` text.
    reflect(opaque),
    reflect(Resource, Debug, PartialEq, Clone)
)]
pub struct FixedPlan {
    plan: FramePlan,
    pacing: Pacing,
    refresh_period: Option<Nanos>,
    beyond_max_delta: Nanos,
}

impl FixedPlan {
    pub(crate) const fn new(
        plan: FramePlan,
        pacing: Pacing,
        refresh_period: Option<Nanos>,
        beyond_max_delta: Nanos,
    ) -> FixedPlan {
        FixedPlan {
            plan,
            pacing,
            refresh_period,
            beyond_max_delta,
        }
    }

    /// The planner's plan for this frame, in full.
    pub const fn plan(&self) -> &FramePlan {
        &self.plan
    }

    /// How many times `FixedMain` ran this frame.
    pub const fn steps_run(&self) -> u64 {
        self.plan.steps_run()
    }

    /// How many whole steps the frame's time paid for, before the budget.
    pub const fn steps_due(&self) -> u64 {
        self.plan.steps_due()
    }

    /// How many due steps the budget refused.
    pub const fn steps_dropped(&self) -> u64 {
        self.plan.steps_dropped()
    }

    /// The simulation time the budget dropped, rounded down to the
    /// nanosecond.
    pub const fn dropped(&self) -> Duration {
        self.plan.dropped().as_duration()
    }

    /// The frame's real time beyond `Time<Virtual>::max_delta`, cut off
    /// before the frame was planned, as Bevy's loop cuts it: under
    /// [`Budget::MaxDelta`](crate::Budget::MaxDelta) only, zero otherwise
    /// (the other budgets plan the whole real delta and drop steps).
    pub const fn beyond_max_delta(&self) -> Duration {
        self.beyond_max_delta.as_duration()
    }

    /// Where between the last two steps to draw, in `[0, 1)`: what
    /// `Time<Fixed>::overstep_fraction` says, within `f32` rounding.
    pub const fn alpha(&self) -> Alpha {
        self.plan.alpha()
    }

    /// The pacing the frame was planned under.
    pub const fn pacing(&self) -> Pacing {
        self.pacing
    }

    /// Whether the frame's delta was snapped to whole display refreshes.
    pub const fn snapped(&self) -> bool {
        self.plan.snapped()
    }

    /// The display's refresh period as the pacing has learned it from the
    /// frames, while it follows a steady one (always `None` under
    /// [`Pacing::OFF`] and [`Pacing::CENTRED`], which do not learn it).
    pub fn refresh_period(&self) -> Option<Duration> {
        self.refresh_period.map(Nanos::as_duration)
    }
}

/// A frame whose budget dropped steps, or whose time
/// [`Budget::MaxDelta`](crate::Budget::MaxDelta) cut to
/// `Time<Virtual>::max_delta`: written on every frame that does, after its
/// steps have run.
///
/// # Examples
///
/// ```
/// use bevy_ecs::message::MessageReader;
/// use evenstep_bevy::Stall;
///
/// fn report_stalls(mut stalls: MessageReader<Stall>) {
///     for stall in stalls.read() {
///         eprintln!("{} steps ({:?}) dropped", stall.steps_dropped, stall.dropped);
///     }
/// }
/// # let _ = report_stalls;
/// ```
#[derive(Message, Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "reflect",
    derive(bevy_reflect::Reflect),
    reflect(Debug, PartialEq, Clone)
)]
pub struct Stall {
    /// The real time since the previous frame, whole.
    pub frame_delta: Duration,
    /// The part of it beyond `Time<Virtual>::max_delta`, cut off before
    /// planning under [`Budget::MaxDelta`](crate::Budget::MaxDelta): zero
    /// under the other budgets.
    pub beyond_max_delta: Duration,
    /// The whole steps the frame's time paid for.
    pub steps_due: u64,
    /// The steps that ran.
    pub steps_run: u64,
    /// The steps the budget refused.
    pub steps_dropped: u64,
    /// Their simulation time, rounded down to the nanosecond.
    pub dropped: Duration,
    /// The number of the first step the frame ran.
    pub first_tick: u64,
}

impl Stall {
    /// The stall `plan` reports, if its budget refused any step or
    /// `max_delta` cut `beyond_max_delta` off its frame.
    pub(crate) const fn of(plan: &FramePlan, beyond_max_delta: Nanos) -> Option<Stall> {
        if !plan.clamped() && beyond_max_delta.is_zero() {
            return None;
        }
        Some(Stall {
            frame_delta: plan
                .raw_delta()
                .saturating_add(beyond_max_delta)
                .as_duration(),
            beyond_max_delta: beyond_max_delta.as_duration(),
            steps_due: plan.steps_due(),
            steps_run: plan.steps_run(),
            steps_dropped: plan.steps_dropped(),
            dropped: plan.dropped().as_duration(),
            first_tick: plan.first_tick(),
        })
    }
}

/// A value the plugin was given and could not follow, written on the frame
/// that refused it (and logged, for an app with a logger), so that an app
/// without one can still see it.
///
/// # Examples
///
/// ```
/// use bevy_ecs::message::MessageReader;
/// use evenstep_bevy::Refusal;
///
/// fn report_refusals(mut refusals: MessageReader<Refusal>) {
///     for refusal in refusals.read() {
///         eprintln!("{refusal}");
///     }
/// }
/// # let _ = report_refusals;
/// ```
#[derive(Message, Clone, Copy, Debug, PartialEq)]
#[cfg_attr(
    feature = "reflect",
    derive(bevy_reflect::Reflect),
    reflect(opaque),
    reflect(Debug, PartialEq, Clone)
)]
pub enum Refusal {
    /// `Time<Fixed>`'s step was changed while
    /// [`EvenstepSettings::timestep`](crate::EvenstepSettings::timestep)
    /// names the step: the step in force is kept, and `Time<Fixed>` is set
    /// back to it.
    FixedStep {
        /// The step written to `Time<Fixed>`.
        requested: Duration,
        /// The step in force, exactly.
        kept: Timestep,
        /// What `Time<Fixed>::timestep` says again: `kept`, rounded to the
        /// nanosecond.
        nominal: Duration,
    },
    /// `Time<Fixed>`'s step is outside evenstep's range of 1 ns to 1 hour:
    /// steps of an hour run instead.
    StepOutOfRange {
        /// The step `Time<Fixed>` holds.
        requested: Duration,
        /// The step run instead.
        taken: Timestep,
    },
    /// `Time<Virtual>`'s relative speed is above 65535, the fastest
    /// [`Speed`]: the planner runs at 65535.
    Speed {
        /// `Time<Virtual>::relative_speed_f64`.
        requested: f64,
        /// The speed run instead.
        taken: Speed,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Refusal::FixedStep {
                requested,
                kept,
                nominal,
            } => write!(
                f,
                "Time<Fixed>'s step was set to {requested:?}, but EvenstepSettings::timestep \
                 names the step ({kept}); keeping it and setting Time<Fixed> back to \
                 {nominal:?}. Change EvenstepSettings::timestep instead, or set it to None \
                 to follow Time<Fixed>"
            ),
            Refusal::StepOutOfRange { requested, taken } => write!(
                f,
                "Time<Fixed>'s step of {requested:?} is outside evenstep's range of 1 ns to \
                 1 hour; running steps of 1 hour ({taken}) instead"
            ),
            Refusal::Speed { requested, taken } => write!(
                f,
                "Time<Virtual>'s relative speed is {requested:?}, outside evenstep's range \
                 of 0 to 65535 (a fraction with terms up to 65535); running at {taken}"
            ),
        }
    }
}

impl Refusal {
    /// Logs the refusal: a step refused is an error, a speed clamped a
    /// warning.
    pub(crate) fn log(&self) {
        match self {
            Refusal::FixedStep { .. } | Refusal::StepOutOfRange { .. } => log::error!("{self}"),
            Refusal::Speed { .. } => log::warn!("{self}"),
        }
    }
}

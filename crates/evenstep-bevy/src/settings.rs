//! The plugin's settings: the step, the budget and the pacing, as a
//! resource a game may change while it runs.

use core::time::Duration;

use bevy_ecs::resource::Resource;
use evenstep_core::{Pacing, StepBudget, Timestep};
#[cfg(feature = "reflect")]
use {bevy_ecs::reflect::ReflectResource, bevy_reflect::std_traits::ReflectDefault};

/// How the fixed loop runs, read at the start of every frame: a change
/// takes effect from the next frame on.
///
/// Insert it before or after adding the plugin (the plugin keeps one that is
/// already there), or change it through `ResMut<EvenstepSettings>` at any
/// time.
///
/// # Examples
///
/// ```
/// use core::time::Duration;
/// use evenstep_bevy::{Budget, EvenstepSettings, Pacing, Timestep};
///
/// let settings = EvenstepSettings {
///     timestep: Some(Timestep::HZ_59_94), // exactly 60000/1001 steps a second
///     budget: Budget::Span(Duration::from_millis(250)),
///     pacing: Pacing::OFF,
/// };
/// let max_delta = Duration::from_millis(250);
/// assert_eq!(settings.budget.steps(Timestep::HZ_59_94, max_delta).get(), 15);
/// assert_eq!(EvenstepSettings::default().pacing, Pacing::LOCKED);
/// ```
///
/// [`EvenstepSettings::default`] is evenstep's loop: a budget of five
/// steps and locked pacing. [`EvenstepSettings::bevy_compatible`] is Bevy's:
/// catch-up bounded by `Time<Virtual>::max_delta` and no pacing.
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "reflect",
    derive(bevy_reflect::Reflect),
    // Opaque: its fields are the planner's types, which evenstep-core
    // keeps free of dependencies, Reflect included.
    reflect(opaque),
    reflect(Resource, Default, Debug, PartialEq, Clone)
)]
pub struct EvenstepSettings {
    /// The fixed step, as an exact rate. `None` (the default) follows the
    /// rate the app configured for `Time<Fixed>`, read at the first frame
    /// and again whenever user code changes it (see the crate doc, *A change
    /// of `Time<Fixed>`'s rate*).
    pub timestep: Option<Timestep>,
    /// The most steps one frame may run; the time of the steps beyond it is
    /// dropped and reported.
    pub budget: Budget,
    /// The frame pacing: [`Pacing::LOCKED`] by default, as in the core.
    pub pacing: Pacing,
}

impl EvenstepSettings {
    /// Bevy's own loop, on the planner: the step of `Time<Fixed>`, each
    /// frame's time clamped to `Time<Virtual>::max_delta`
    /// ([`Budget::MaxDelta`]) and no pacing ([`Pacing::OFF`]). Steps,
    /// `overstep_fraction` and the catch-up after a hitch are those of
    /// Bevy's runner wherever Bevy's step is a whole number of nanoseconds
    /// (64 Hz, Bevy's default, 50, 20, 100 Hz): at 60 Hz Bevy's
    /// 16,666,667 ns steps run 20 ns a second slow, and the plugin's exact
    /// ones do not. What `max_delta` cut off is still reported
    /// ([`FixedPlan::beyond_max_delta`](crate::FixedPlan::beyond_max_delta),
    /// [`Stall`](crate::Stall)).
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_bevy::{Budget, EvenstepSettings, Pacing};
    ///
    /// let settings = EvenstepSettings::bevy_compatible();
    /// assert_eq!(settings.budget, Budget::MaxDelta);
    /// assert_eq!(settings.pacing, Pacing::OFF);
    /// assert_eq!(settings.timestep, None);
    /// ```
    pub const fn bevy_compatible() -> EvenstepSettings {
        EvenstepSettings {
            timestep: None,
            budget: Budget::MaxDelta,
            pacing: Pacing::OFF,
        }
    }
}

/// The step budget: a number of steps, or a span of simulation counted in
/// steps of the step in force (again at each change of step), or Bevy's
/// bound on a frame's time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(
    feature = "reflect",
    derive(bevy_reflect::Reflect),
    reflect(opaque),
    reflect(Default, Debug, PartialEq, Clone)
)]
pub enum Budget {
    /// At most this many steps a frame.
    Steps(StepBudget),
    /// At most the steps that cover this span of simulation:
    /// [`StepBudget::covering`] of the step in force.
    Span(Duration),
    /// As Bevy bounds catch-up: each frame's real time is clamped to
    /// `Time<Virtual>::max_delta` (read every frame) before it is planned,
    /// as `Time<Virtual>` clamps it, and the steps that cover `max_delta`
    /// are the budget, so that the clamp, not the budget, is what drops
    /// time: after a hitch the bank holds what Bevy's would. The time cut
    /// off is reported as
    /// [`FixedPlan::beyond_max_delta`](crate::FixedPlan::beyond_max_delta)
    /// and in a [`Stall`](crate::Stall).
    MaxDelta,
}

impl Budget {
    /// The budget in steps of `timestep`, with `Time<Virtual>::max_delta`
    /// at `max_delta` (read by [`Budget::MaxDelta`] only).
    ///
    /// # Examples
    ///
    /// ```
    /// use core::time::Duration;
    /// use evenstep_bevy::{Budget, Timestep};
    ///
    /// let max_delta = Duration::from_millis(250); // Bevy's default
    /// assert_eq!(Budget::MaxDelta.steps(Timestep::HZ_64, max_delta).get(), 16);
    /// assert_eq!(Budget::default().steps(Timestep::HZ_64, max_delta).get(), 5);
    /// ```
    pub const fn steps(self, timestep: Timestep, max_delta: Duration) -> StepBudget {
        match self {
            Budget::Steps(steps) => steps,
            Budget::Span(span) => StepBudget::covering(span, timestep),
            // `covering` rounds up, so that with the bank (under a step)
            // on top of `max_delta` no step is ever dropped by the budget.
            Budget::MaxDelta => StepBudget::covering(max_delta, timestep),
        }
    }

    /// The longest real time a frame may plan under this budget, when it
    /// is bounded by `max_delta`.
    pub(crate) const fn clamp(self, max_delta: Duration) -> Option<Duration> {
        match self {
            Budget::MaxDelta => Some(max_delta),
            Budget::Steps(_) | Budget::Span(_) => None,
        }
    }
}

impl Default for Budget {
    /// [`StepBudget::DEFAULT`]: five steps, as in the core.
    fn default() -> Budget {
        Budget::Steps(StepBudget::DEFAULT)
    }
}

//! The plugin's settings: the step, the budget and the pacing, as a
//! resource a game may change while it runs.

use core::time::Duration;

use bevy_ecs::resource::Resource;
use evenstep_core::{Pacing, StepBudget, Timestep};

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
/// assert_eq!(settings.budget.steps(Timestep::HZ_59_94).get(), 15);
/// assert_eq!(EvenstepSettings::default().pacing, Pacing::LOCKED);
/// ```
#[derive(Resource, Clone, Copy, Debug, Default, PartialEq, Eq)]
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

/// The step budget: a number of steps, or a span of simulation counted in
/// steps of the step in force (again at each change of step).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// At most this many steps a frame.
    Steps(StepBudget),
    /// At most the steps that cover this span of simulation:
    /// [`StepBudget::covering`] of the step in force.
    Span(Duration),
}

impl Budget {
    /// The budget in steps of `timestep`.
    pub const fn steps(self, timestep: Timestep) -> StepBudget {
        match self {
            Budget::Steps(steps) => steps,
            Budget::Span(span) => StepBudget::covering(span, timestep),
        }
    }
}

impl Default for Budget {
    /// [`StepBudget::DEFAULT`]: five steps, as in the core.
    fn default() -> Budget {
        Budget::Steps(StepBudget::DEFAULT)
    }
}

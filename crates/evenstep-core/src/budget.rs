//! The step budget: the most fixed steps one frame may run. It is the single
//! guard against the spiral of death, where a slow frame makes the next one
//! owe more steps, which makes it slower still. Steps beyond the budget are
//! dropped and reported, never banked.

use core::fmt;
use core::num::NonZeroU32;
use core::time::Duration;

use crate::timestep::Timestep;

/// The most fixed steps one frame may run; never zero.
///
/// The default is 5 steps. [`StepBudget::covering`] converts a catch-up
/// window ("at most 250 ms of simulation per frame") into steps.
///
/// # Examples
///
/// ```
/// use core::time::Duration;
/// use evenstep_core::{StepBudget, Timestep};
///
/// assert_eq!(StepBudget::default().get(), 5);
/// let quarter_second = StepBudget::covering(Duration::from_millis(250), Timestep::HZ_60);
/// assert_eq!(quarter_second.get(), 15);
/// assert!(StepBudget::try_new(0).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StepBudget(NonZeroU32);

impl StepBudget {
    /// Five steps a frame: at 60 Hz, a frame may catch up 83 ms of simulation
    /// before time is dropped.
    pub const DEFAULT: StepBudget = StepBudget(NonZeroU32::new(5).unwrap());
    /// One step a frame: every frame runs at most one step.
    pub const ONE: StepBudget = StepBudget(NonZeroU32::MIN);
    /// No practical limit (`u32::MAX` steps a frame). Use it for headless
    /// tools that must never drop time; a windowed game wants a real budget.
    pub const UNLIMITED: StepBudget = StepBudget(NonZeroU32::MAX);

    /// A budget of `steps` steps a frame.
    pub const fn new(steps: NonZeroU32) -> StepBudget {
        StepBudget(steps)
    }

    /// A budget of `steps` steps a frame.
    ///
    /// # Errors
    ///
    /// [`BudgetError`] if `steps` is 0: a frame must be allowed at least one
    /// step.
    pub const fn try_new(steps: u32) -> Result<StepBudget, BudgetError> {
        match NonZeroU32::new(steps) {
            Some(steps) => Ok(StepBudget(steps)),
            None => Err(BudgetError),
        }
    }

    /// The smallest budget whose steps cover `window` of simulation at
    /// `timestep`: `ceil(window / dt)`, at least one step, at most `u32::MAX`.
    pub const fn covering(window: Duration, timestep: Timestep) -> StepBudget {
        let units = window
            .as_nanos()
            .saturating_mul(timestep.units_per_nanosecond() as u128);
        let per_step = timestep.units_per_step() as u128;
        let steps = units.div_ceil(per_step);
        let steps = if steps > u32::MAX as u128 {
            u32::MAX
        } else {
            steps as u32
        };
        match NonZeroU32::new(steps) {
            Some(steps) => StepBudget(steps),
            None => StepBudget::ONE,
        }
    }

    /// The budget in steps.
    pub const fn get(self) -> u32 {
        self.0.get()
    }

    /// The budget as a non-zero count.
    pub const fn non_zero(self) -> NonZeroU32 {
        self.0
    }
}

impl Default for StepBudget {
    /// [`StepBudget::DEFAULT`], 5 steps.
    fn default() -> StepBudget {
        StepBudget::DEFAULT
    }
}

impl From<NonZeroU32> for StepBudget {
    fn from(steps: NonZeroU32) -> StepBudget {
        StepBudget(steps)
    }
}

impl TryFrom<u32> for StepBudget {
    type Error = BudgetError;
    fn try_from(steps: u32) -> Result<StepBudget, BudgetError> {
        StepBudget::try_new(steps)
    }
}

/// A step budget of zero steps was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BudgetError;

impl fmt::Display for BudgetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a step budget of 0 steps per frame; the budget must be from 1 to {} steps",
            u32::MAX
        )
    }
}

impl core::error::Error for BudgetError {}

#[cfg(test)]
mod tests {
    extern crate std;
    use std::string::ToString;

    use super::*;

    #[test]
    fn covering_rounds_a_window_up_to_whole_steps() {
        let hz60 = Timestep::HZ_60;
        assert_eq!(
            StepBudget::covering(Duration::from_millis(250), hz60).get(),
            15
        );
        assert_eq!(
            StepBudget::covering(Duration::from_millis(251), hz60).get(),
            16
        );
        assert_eq!(StepBudget::covering(Duration::ZERO, hz60), StepBudget::ONE);
        assert_eq!(
            StepBudget::covering(Duration::MAX, hz60),
            StepBudget::UNLIMITED
        );
        let exact = StepBudget::covering(Duration::from_nanos(16_666_667), hz60);
        assert_eq!(
            exact.get(),
            2,
            "16,666,667 ns is a hair over one 60 Hz step"
        );
    }

    #[test]
    fn a_zero_budget_is_refused_with_the_valid_range() {
        assert_eq!(StepBudget::try_new(0), Err(BudgetError));
        assert_eq!(
            BudgetError.to_string(),
            "a step budget of 0 steps per frame; the budget must be from 1 to 4294967295 steps"
        );
        assert_eq!(StepBudget::try_from(3).unwrap().get(), 3);
    }
}

//! The planner configurations the lab runs side by side, and the settings
//! they share: the step rate, the step budget and the snap tolerance.

use core::fmt;
use core::time::Duration;

use evenstep_core::{BudgetError, Pacing, PacingError, StepBudget, Timestep, TimestepError};

use crate::rate::Rate;

/// Frames at the start of a trace that the stutter count skips: the display
/// model needs a few deltas before snapping can start, and every
/// configuration gets the same grace.
pub const WARM_UP_FRAMES: usize = 16;

/// One planner configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Config {
    /// The plain floating-point accumulator most engines and crates use, in
    /// `f64` seconds: `acc += min(delta_secs, 0.25); while acc >= 1.0 / hz
    /// { acc -= 1.0 / hz; steps += 1 }`. No step budget: the 0.25 s clamp is
    /// its only stall guard, and it starts with an empty bank.
    NaiveF64,
    /// Godot's physics clock with its jitter fix at the default 0.5
    /// ([`GodotJitterFix`](crate::GodotJitterFix)), in `f64` seconds; the
    /// budget drops steps as Godot's main loop does.
    Godot,
    /// evenstep's planner with [`Pacing::OFF`]: the exact integer
    /// accumulator, starting empty.
    Off,
    /// evenstep's planner with [`Pacing::CENTRED`]: the bank starts at half a
    /// step and returns there after a budget overrun.
    Centred,
    /// evenstep's planner with [`Pacing::snapped`] at the settings' snap
    /// tolerance: while the display model follows a steady lattice of
    /// refreshes, frames bank the refreshes they span.
    Snapped,
    /// evenstep's planner with [`Pacing::LOCKED`]: the plain accumulator
    /// until the display model locks onto a lattice whose period fits the
    /// step, then snapped to it.
    Locked,
    /// The default, [`Pacing::LOCKED`], told when each shown frame reached
    /// the screen (display feedback), as late as a game would learn it:
    /// a display time is first used by the plan of the first row presented
    /// after it, plus the settings' [feedback
    /// delay](Settings::feedback_delay) in rows. Where a trace has no
    /// display times, or a run feeds none (the stutter table), it plans as
    /// [`Config::Locked`].
    Feedback,
}

impl Config {
    /// Every configuration, in the order the lab reports them.
    pub const ALL: [Config; 7] = [
        Config::NaiveF64,
        Config::Godot,
        Config::Off,
        Config::Centred,
        Config::Snapped,
        Config::Locked,
        Config::Feedback,
    ];

    /// The label in tables and plots.
    pub const fn label(self) -> &'static str {
        match self {
            Config::NaiveF64 => "naive f64",
            Config::Godot => "godot jitter fix",
            Config::Off => "evenstep off",
            Config::Centred => "evenstep centred",
            Config::Snapped => "evenstep snapped",
            Config::Locked => "evenstep locked",
            Config::Feedback => "evenstep feedback",
        }
    }

    /// A short machine-readable name, for JSON.
    pub const fn key(self) -> &'static str {
        match self {
            Config::NaiveF64 => "naive_f64",
            Config::Godot => "godot",
            Config::Off => "off",
            Config::Centred => "centred",
            Config::Snapped => "snapped",
            Config::Locked => "locked",
            Config::Feedback => "feedback",
        }
    }
}

impl fmt::Display for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// What every configuration shares: the step rate, the step budget (for
/// evenstep; the naive accumulator has its 0.25 s clamp instead) and the snap
/// tolerance.
///
/// The default is 60 steps a second, a budget of 5 steps and a 2 ms snap
/// tolerance (twice the ±0.75 ms stamp jitter a good compositor shows, and
/// so the width of the jitter of its frame deltas).
///
/// # Examples
///
/// ```
/// use core::time::Duration;
/// use evenstep_lab::{Rate, Settings};
///
/// let settings = Settings::new(Rate::hz(120)?, 8, Duration::from_millis(1))?;
/// assert_eq!(settings.budget().get(), 8);
/// assert!(Settings::new(Rate::hz(60)?, 0, Duration::from_millis(2)).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    step_rate: Rate,
    timestep: Timestep,
    budget: StepBudget,
    snap_tolerance: Duration,
    snapped: Pacing,
    feedback_delay: u32,
}

/// The longest feedback delay, in rows: past it every report would name a
/// frame the planner no longer remembers. It is an upper bound: the delay
/// counts from the first row presented after the display time, so a
/// pipeline `k` rows deep is refused from about `32 - k` rows on.
pub const MAX_FEEDBACK_DELAY: u32 = evenstep_core::FRAMES_IN_FLIGHT as u32 - 1;

impl Settings {
    /// Settings for `step_rate` steps a second, a budget of `budget` steps a
    /// frame, and snapping within `snap_tolerance`.
    ///
    /// # Errors
    ///
    /// [`SettingsError`] when the step rate is not a valid
    /// [`Timestep`] (a step from 1 ns to an hour), the budget is 0, or the
    /// snap tolerance is outside 1 ns to 50 ms.
    pub fn new(
        step_rate: Rate,
        budget: u32,
        snap_tolerance: Duration,
    ) -> Result<Settings, SettingsError> {
        let timestep = u32::try_from(step_rate.numerator())
            .ok()
            .zip(u32::try_from(step_rate.denominator()).ok())
            .map(|(num, den)| Timestep::from_ratio(num, den))
            .ok_or(SettingsError::StepRate(TimestepError::ZeroRate))?
            .map_err(SettingsError::StepRate)?;
        let budget = StepBudget::try_new(budget).map_err(SettingsError::Budget)?;
        let snapped = Pacing::snapped(snap_tolerance).map_err(SettingsError::SnapTolerance)?;
        Ok(Settings {
            step_rate,
            timestep,
            budget,
            snap_tolerance,
            snapped,
            feedback_delay: 0,
        })
    }

    /// The same settings, with display feedback reaching
    /// [`Config::Feedback`] `rows` rows later than the first row presented
    /// after the display time.
    ///
    /// # Errors
    ///
    /// [`SettingsError::FeedbackDelay`] past [`MAX_FEEDBACK_DELAY`] rows.
    pub const fn with_feedback_delay(self, rows: u32) -> Result<Settings, SettingsError> {
        if rows > MAX_FEEDBACK_DELAY {
            return Err(SettingsError::FeedbackDelay { rows });
        }
        Ok(Settings {
            feedback_delay: rows,
            ..self
        })
    }

    /// Rows display feedback waits beyond the first row presented after
    /// the display time (0 by default).
    pub const fn feedback_delay(&self) -> u32 {
        self.feedback_delay
    }

    /// Steps a second.
    pub const fn step_rate(&self) -> Rate {
        self.step_rate
    }

    /// The fixed step, exactly.
    pub const fn timestep(&self) -> Timestep {
        self.timestep
    }

    /// evenstep's step budget.
    pub const fn budget(&self) -> StepBudget {
        self.budget
    }

    /// The snap tolerance of [`Config::Snapped`].
    pub const fn snap_tolerance(&self) -> Duration {
        self.snap_tolerance
    }

    /// The pacing of an evenstep configuration; `None` for the baselines.
    pub const fn pacing(&self, config: Config) -> Option<Pacing> {
        match config {
            Config::NaiveF64 | Config::Godot => None,
            Config::Locked | Config::Feedback => Some(Pacing::LOCKED),
            Config::Off => Some(Pacing::OFF),
            Config::Centred => Some(Pacing::CENTRED),
            Config::Snapped => Some(self.snapped),
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            step_rate: Rate::hz(60).unwrap_or_else(|_| unreachable!("60 Hz is a rate")),
            timestep: Timestep::HZ_60,
            budget: StepBudget::DEFAULT,
            snap_tolerance: Duration::from_millis(2),
            snapped: Pacing::snapped(Duration::from_millis(2))
                .unwrap_or_else(|_| unreachable!("2 ms is a tolerance")),
            feedback_delay: 0,
        }
    }
}

/// Settings that evenstep refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// The step rate is not a valid timestep.
    StepRate(TimestepError),
    /// The budget is 0.
    Budget(BudgetError),
    /// The snap tolerance is out of range.
    SnapTolerance(PacingError),
    /// The feedback delay is past [`MAX_FEEDBACK_DELAY`] rows.
    FeedbackDelay {
        /// The delay asked for.
        rows: u32,
    },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::StepRate(error) => write!(f, "step rate: {error}"),
            SettingsError::Budget(error) => write!(f, "budget: {error}"),
            SettingsError::SnapTolerance(error) => write!(f, "snap tolerance: {error}"),
            SettingsError::FeedbackDelay { rows } => write!(
                f,
                "feedback delay: {rows} rows is past {MAX_FEEDBACK_DELAY}, the most after \
                 which the planner still remembers the frame"
            ),
        }
    }
}

impl std::error::Error for SettingsError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SettingsError::StepRate(error) => Some(error),
            SettingsError::Budget(error) => Some(error),
            SettingsError::SnapTolerance(error) => Some(error),
            SettingsError::FeedbackDelay { .. } => None,
        }
    }
}

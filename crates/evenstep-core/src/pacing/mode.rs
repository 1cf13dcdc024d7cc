//! The pacing mode: whether the planner paces at all, keeps the bank
//! centred, or also snaps frame deltas to whole display refreshes, and the
//! snap tolerance that goes with snapping.

use core::fmt;
use core::time::Duration;

use crate::Nanos;

/// How the planner paces frames.
///
/// - [`Pacing::OFF`]: the plain accumulator.
/// - [`Pacing::CENTRED`] (the default): the bank starts at half a step, as far
///   from both step boundaries as it can be, and returns there after a budget
///   overrun, so timestamp jitter does not turn into 0- and 2-step frames.
/// - [`Pacing::snapped`]: centred, and a frame delta within the tolerance of
///   a whole number of refresh periods becomes exactly that many periods;
///   when the period is within 1% of a whole multiple or divisor of the step,
///   exactly that many steps, with the bank kept mid-range. Game time then
///   follows the frame count: one step per frame at 60 Hz, one every other
///   frame at 120 Hz, two after a missed refresh. (A 59.94 Hz display then
///   runs 60 Hz game time 0.1% slow.)
///
/// Whatever the pacing adds to or takes from the bank is reported as the
/// plan's [phase shift](crate::FramePlan::phase_shift_units).
///
/// # Examples
///
/// ```
/// use core::time::Duration;
/// use evenstep_core::Pacing;
///
/// assert_eq!(Pacing::default(), Pacing::CENTRED);
/// let snapped = Pacing::snapped(Duration::from_millis(2))?; // twice the stamp jitter
/// assert_eq!(snapped.snap_tolerance(), Some(Duration::from_millis(2)));
/// assert!(Pacing::snapped(Duration::ZERO).is_err());
/// # Ok::<(), evenstep_core::PacingError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pacing {
    mode: Mode,
    tolerance: Nanos,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Mode {
    Off,
    Centred,
    Snapped,
}

impl Pacing {
    /// No pacing: the bank starts empty and keeps its remainder after a
    /// budget overrun (the plain accumulator).
    pub const OFF: Pacing = Pacing {
        mode: Mode::Off,
        tolerance: Nanos::ZERO,
    };
    /// The bank starts at half a step and is re-centred after a budget
    /// overrun. The default.
    pub const CENTRED: Pacing = Pacing {
        mode: Mode::Centred,
        tolerance: Nanos::ZERO,
    };

    /// The largest snap tolerance accepted: 50 ms.
    pub const MAX_SNAP_TOLERANCE: Duration = Duration::from_millis(50);

    /// Centred, and frame deltas within `tolerance` of a whole number of
    /// refresh periods are snapped to it. About twice the timestamp jitter is
    /// right: stamps jittering by ±0.75 ms give deltas jittering by ±1.5 ms,
    /// so 2 ms fits.
    ///
    /// # Errors
    ///
    /// [`PacingError`] unless `tolerance` is from 1 ns to 50 ms.
    pub const fn snapped(tolerance: Duration) -> Result<Pacing, PacingError> {
        let nanos = tolerance.as_nanos();
        if nanos == 0 || nanos > Pacing::MAX_SNAP_TOLERANCE.as_nanos() {
            return Err(PacingError { tolerance });
        }
        Ok(Pacing {
            mode: Mode::Snapped,
            tolerance: Nanos::from_nanos(nanos as u64),
        })
    }

    /// Whether the bank is kept centred (true for centred and snapped).
    pub const fn is_centred(self) -> bool {
        !matches!(self.mode, Mode::Off)
    }

    /// Whether deltas are snapped to whole refresh periods.
    pub const fn is_snapped(self) -> bool {
        matches!(self.mode, Mode::Snapped)
    }

    /// The snap tolerance, if snapping.
    pub const fn snap_tolerance(self) -> Option<Duration> {
        match self.mode {
            Mode::Snapped => Some(self.tolerance.as_duration()),
            Mode::Off | Mode::Centred => None,
        }
    }

    /// The snap tolerance (zero unless snapping).
    pub(crate) const fn tolerance(self) -> Nanos {
        self.tolerance
    }
}

impl Default for Pacing {
    /// [`Pacing::CENTRED`].
    fn default() -> Pacing {
        Pacing::CENTRED
    }
}

/// A snap tolerance outside 1 ns to 50 ms was asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PacingError {
    tolerance: Duration,
}

impl fmt::Display for PacingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a snap tolerance of {:?}; it must be from 1 ns to 50 ms \
             (about twice the timestamp jitter)",
            self.tolerance
        )
    }
}

impl core::error::Error for PacingError {}

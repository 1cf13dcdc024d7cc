//! The pacing mode: whether the planner paces at all, keeps the bank
//! centred, or snaps frames to whole display refreshes (always, or only
//! once it has locked onto the display), and the snap tolerance that goes
//! with snapping.

use core::fmt;
use core::time::Duration;

use crate::Nanos;

/// How the planner paces frames.
///
/// - [`Pacing::LOCKED`] (the default): snapped to the display's refreshes
///   once the [display model](crate::DisplayModel) locks onto a steady
///   lattice whose period is a whole multiple or divisor of the step
///   (60 steps a second on a 60, 120 or 240 Hz display, or 59.95). Once
///   snapping, it follows the stamps' own pace while they stay steady and
///   within a twentieth of that refresh (a game behind a deep vsync queue,
///   a little faster or slower than the display), as snapped pacing does,
///   also through a lattice the model loses and finds again. Every frame it
///   does not snap (before it locks, after it stands down, on a display it
///   never locks onto) is held to the game's own step pattern by the
///   hysteresis rule Godot ships as its physics jitter fix: a frame runs
///   the count typical of the last twelve frames while the bank is within
///   half a step of allowing it, and owes what it moved to the next frame.
///   The bank is never moved back to where the plain accumulator's would
///   be. A stall the budget clamps, a frame at another speed than 1 and the
///   first frame after a start or gap plan as pacing off does.
/// - [`Pacing::OFF`]: the plain accumulator.
/// - [`Pacing::CENTRED`]: the bank starts at half a step, as far from both
///   step boundaries as it can be, and returns there after a budget
///   overrun.
/// - [`Pacing::snapped`]: centred, and while the display model follows a
///   lattice whose stamps wander no more than the tolerance, snapped to it,
///   whatever its period (144 and 75 Hz included).
///
/// A snapped frame banks the refreshes it spans on the display's lattice
/// instead of its measured delta; when the period is within 2% of a whole
/// multiple or divisor of the step, exactly that many steps' worth, with the
/// bank kept mid-range; on a period that fits no fraction of the step,
/// refreshes of the period the display model measured. Game time then follows the display: one step a
/// frame at 60 Hz, one every other frame at 120 Hz, two after a missed
/// refresh, and a 59.95 Hz display runs 60 Hz game time 0.08% slow. At
/// any speed, a snapped frame banks its refreshes scaled by the speed, so
/// slow and fast motion keep their rate; how far game time may part from
/// the wall is bounded in [`FrameLoop`](crate::FrameLoop)'s rules.
///
/// **Why locked is the default.** Judged by what the player sees (each
/// shown frame's steps against the refreshes it stayed on screen), a
/// game's frame times alone cannot say where the display's refreshes fall
/// unless its frames follow them (vsync, or a frame cap the display paces).
/// When they do, snapping to them removes nearly every wrong frame that
/// timestamp jitter causes, and a refresh of queue slack absorbs a late
/// frame that Godot's half step of give cannot. When they do not (a game
/// presenting faster than the display, a frame limiter of its own, a
/// variable refresh display), the plain accumulator is right or wrong by
/// the luck of its start phase, and Godot's rule, which needs no lattice,
/// is right from every phase about as often as the luckiest. Locked pacing
/// takes each where it is better, with the rule's constants Godot's own,
/// not fitted here: on every real capture and synthetic profile of the
/// lab it runs no more wrong frames than Godot's rule plus a frame or 2%,
/// and on the vsync captures fewer. The lab's README has the measurements.
///
/// **With display feedback.** Once a game reports when its frames were
/// shown ([`FrameLoop::frame_shown`](crate::FrameLoop::frame_shown)),
/// snapped and locked pacing alike weigh two plans for each frame: the
/// refreshes from the previous frame's predicted showing to its own, and
/// the frame timestamps' plan, as above. Each report judges both, and
/// feedback plans once it has been right on a dozen showings the timestamps
/// got wrong, until it is wrong on one they got right (a compositor that
/// latches frames at a fixed point, where the stamps jitter and the
/// showing does not); behind a FIFO queue, where the showing swings with
/// the queue, the timestamps go on planning. Either way, feedback never
/// makes pacing worse on the captures and profiles the lab judges. Off and
/// centred pacing take no feedback.
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
/// assert_eq!(Pacing::default(), Pacing::LOCKED);
/// let snapped = Pacing::snapped(Duration::from_millis(2))?; // the stamps' wander
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
    Locked,
}

impl Pacing {
    /// No pacing: the bank starts empty and keeps its remainder after a
    /// budget overrun (the plain accumulator).
    pub const OFF: Pacing = Pacing {
        mode: Mode::Off,
        tolerance: Nanos::ZERO,
    };
    /// The bank starts at half a step and is re-centred after a budget
    /// overrun.
    pub const CENTRED: Pacing = Pacing {
        mode: Mode::Centred,
        tolerance: Nanos::ZERO,
    };

    /// The plain accumulator until the display model locks onto a steady
    /// lattice of refreshes whose period is a whole multiple or divisor of
    /// the step, then snapped to it, and to the stamps' own pace while it
    /// stays within a twentieth of that refresh. The default.
    pub const LOCKED: Pacing = Pacing {
        mode: Mode::Locked,
        tolerance: Nanos::ZERO,
    };

    /// The largest snap tolerance accepted: 50 ms.
    pub const MAX_SNAP_TOLERANCE: Duration = Duration::from_millis(50);

    /// Centred, and snapped to the display's refreshes while the display
    /// model follows a lattice whose stamps sit, on average, within
    /// `tolerance` of their refreshes; past it, frames are banked as
    /// measured. Stamps jittering evenly by ±J sit J/2 from their refreshes
    /// on average, so 2 ms suits jitter up to ±4 ms.
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
        matches!(self.mode, Mode::Centred | Mode::Snapped)
    }

    /// Whether frames are snapped to whole refreshes (snapped and locked),
    /// and so whether the planner's display model learns from the frames.
    /// Off and centred plan without one, at the plain accumulator's cost,
    /// and the planner's
    /// [`refresh_period`](crate::FrameLoop::refresh_period) is `None` under
    /// them. What learning changes besides the snap: the render cap expects
    /// frames a refresh period apart once the period is known, so a frame
    /// after a hitch claims at most half a refresh of the cap's schedule
    /// ahead, rather than half its own long delta.
    pub const fn is_snapped(self) -> bool {
        matches!(self.mode, Mode::Snapped | Mode::Locked)
    }

    /// The snap tolerance, if snapping with one: how far, on average, the
    /// display model's stamps may wander from their refreshes for snapping
    /// to go on. `None` unless snapped; locked pacing goes by the model's
    /// own bound.
    pub const fn snap_tolerance(self) -> Option<Duration> {
        match self.mode {
            Mode::Snapped => Some(self.tolerance.as_duration()),
            Mode::Off | Mode::Centred | Mode::Locked => None,
        }
    }

    /// Whether snapping needs the period to be a whole multiple or divisor
    /// of the step to start, and the frames it does not snap are held to
    /// the game's step pattern by the hysteresis rule (locked), or snaps
    /// any period (snapped).
    pub(crate) const fn needs_lattice(self) -> bool {
        matches!(self.mode, Mode::Locked)
    }
}

impl Default for Pacing {
    /// [`Pacing::LOCKED`].
    fn default() -> Pacing {
        Pacing::LOCKED
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
             (how far, on average, frame stamps may sit from the display's refreshes)",
            self.tolerance
        )
    }
}

impl core::error::Error for PacingError {}

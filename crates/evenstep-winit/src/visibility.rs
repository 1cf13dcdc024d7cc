//! Visibility: what the adapter can know about whether the window's frames
//! are seen. No platform reports every case (`Occluded` is not delivered on
//! Wayland or Windows, nor for a minimized X11 window, and X11 may go on
//! delivering redraws to an unmapped or minimized window), so four signals
//! are kept and any one of them stops painting: the game hid the window
//! through the adapter, the platform said it is occluded, the platform says
//! it is minimized, or redraws asked for stopped arriving for a few refresh
//! periods.

use std::time::Duration;

/// Why a window is not being painted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[allow(
    clippy::struct_excessive_bools,
    reason = "four independent signals from four sources, any of which may be up at once; not the states of one machine"
)]
pub struct Visibility {
    /// Hidden with [`WindowDriver::set_visible`](crate::WindowDriver::set_visible).
    pub hidden: bool,
    /// The platform sent `WindowEvent::Occluded(true)` and not yet `false`.
    pub occluded: bool,
    /// The platform says the window is minimized: `Window::is_minimized`
    /// answered `Some(true)` when last asked. It is asked on `Resized` and
    /// `Focused` events and every [`MINIMIZED_CHECK_PERIOD`]; an answer of
    /// `None` (always, on Wayland) leaves this as it was, so there the
    /// other signals decide. This is how a minimized X11 window stops
    /// painting: X11 sends it no `Occluded` and goes on sending redraws.
    ///
    /// [`MINIMIZED_CHECK_PERIOD`]: Visibility::MINIMIZED_CHECK_PERIOD
    pub minimized: bool,
    /// Redraws asked for have not arrived for the starvation time
    /// ([`WindowOptions::starved_after`](crate::WindowOptions::starved_after)
    /// refresh periods): a minimized window or a compositor that stopped
    /// sending frames. Cleared by the next redraw that arrives, and when
    /// one of the other signals goes up.
    pub starved: bool,
}

impl Visibility {
    /// How often the driver asks the window whether it is minimized, besides
    /// on `Resized` and `Focused` events. While the window paints, the
    /// question rides on a frame's wake-up; while it is minimized, the
    /// driver wakes for it, so a restored window is painted again within
    /// a quarter of a second even when no event says so, at the cost of
    /// four wake-ups a second.
    pub const MINIMIZED_CHECK_PERIOD: Duration = Duration::from_millis(250);

    /// Whether frames are being painted: none of the four signals is up.
    pub fn is_painting(self) -> bool {
        !(self.hidden || self.occluded || self.minimized || self.starved)
    }

    /// Whether the platform's signals say the frames are not seen: hidden,
    /// occluded or minimized. Such a window's redraws are not painted (X11
    /// sends them to unmapped and minimized windows); a starved window's
    /// are, since one arriving is the sign the window is back.
    pub(crate) fn is_away(self) -> bool {
        self.hidden || self.occluded || self.minimized
    }
}

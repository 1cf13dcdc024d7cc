//! Visibility: what the adapter can know about whether the window's frames
//! are seen. No platform reports every case (`Occluded` is not delivered on
//! Wayland or Windows, nor for a minimized X11 window, and X11 may go on
//! delivering redraws to an unmapped window), so three signals are kept and
//! any one of them stops painting: the game hid the window through the
//! adapter, the platform said it is occluded, or redraws asked for stopped
//! arriving for a few refresh periods.

/// Why a window is not being painted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Visibility {
    /// Hidden with [`WindowDriver::set_visible`](crate::WindowDriver::set_visible).
    pub hidden: bool,
    /// The platform sent `WindowEvent::Occluded(true)` and not yet `false`.
    pub occluded: bool,
    /// Redraws asked for have not arrived for the starvation time
    /// ([`WindowOptions::starved_after`](crate::WindowOptions::starved_after)
    /// refresh periods): a minimized window or a compositor that stopped
    /// sending frames. Cleared by the next redraw that arrives.
    pub starved: bool,
}

impl Visibility {
    /// Whether frames are being painted: none of the three signals is up.
    pub fn is_painting(self) -> bool {
        !(self.hidden || self.occluded || self.starved)
    }

    /// Whether a redraw that arrives now should be painted. A starved
    /// window's redraw should (it is the sign the window is back); a hidden
    /// or occluded one's should not (X11 sends them to unmapped windows).
    pub(crate) fn accepts_redraw(self) -> bool {
        !(self.hidden || self.occluded)
    }
}

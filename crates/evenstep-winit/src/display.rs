//! The display as the adapter knows it: the monitor's refresh period (or a
//! documented fallback when the platform does not say), whether the surface
//! waits for vsync, and from those, how often a visible window is painted.

use std::num::NonZeroU32;

use evenstep::Nanos;

/// Where the refresh period came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefreshSource {
    /// The monitor reported it (`MonitorHandle::refresh_rate_millihertz`).
    Monitor,
    /// The monitor did not report one (Xvfb, some Wayland compositors, a
    /// window on no monitor yet), or reported one outside 1 Hz to 1000 Hz;
    /// [`Refresh::FALLBACK_MILLIHERTZ`] is used.
    Fallback,
}

/// A display refresh rate, held exactly as millihertz, the unit winit
/// reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refresh {
    millihertz: NonZeroU32,
    source: RefreshSource,
}

impl Refresh {
    /// The rate assumed when the monitor reports none: 60 Hz, the most
    /// common desktop rate. A window on a faster display is then painted at
    /// 60 Hz at most until the game sets its own cap; one on a slower display
    /// asks for more frames than it shows, which costs a little CPU and
    /// nothing else.
    pub const FALLBACK_MILLIHERTZ: u32 = 60_000;
    /// The lowest believable report: 1 Hz.
    const MIN_MILLIHERTZ: u32 = 1_000;
    /// The highest believable report: 1000 Hz.
    const MAX_MILLIHERTZ: u32 = 1_000_000;

    /// The rate a monitor reported, or the fallback when it reported none
    /// or an unbelievable one.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_winit::{Refresh, RefreshSource};
    ///
    /// let monitor = Refresh::from_millihertz(Some(59_951));
    /// assert_eq!(monitor.source(), RefreshSource::Monitor);
    /// assert_eq!(monitor.period().as_nanos(), 16_680_289);
    /// assert_eq!(Refresh::from_millihertz(None).millihertz(), 60_000);
    /// assert_eq!(Refresh::from_millihertz(Some(0)).source(), RefreshSource::Fallback);
    /// ```
    pub fn from_millihertz(reported: Option<u32>) -> Refresh {
        match reported {
            Some(mhz) if (Refresh::MIN_MILLIHERTZ..=Refresh::MAX_MILLIHERTZ).contains(&mhz) => {
                Refresh {
                    millihertz: NonZeroU32::new(mhz).unwrap_or(NonZeroU32::MIN),
                    source: RefreshSource::Monitor,
                }
            }
            _ => Refresh::fallback(),
        }
    }

    /// [`FALLBACK_MILLIHERTZ`](Refresh::FALLBACK_MILLIHERTZ).
    pub const fn fallback() -> Refresh {
        let millihertz = match NonZeroU32::new(Refresh::FALLBACK_MILLIHERTZ) {
            Some(mhz) => mhz,
            None => NonZeroU32::MIN,
        };
        Refresh {
            millihertz,
            source: RefreshSource::Fallback,
        }
    }

    /// The rate in millihertz.
    pub const fn millihertz(self) -> u32 {
        self.millihertz.get()
    }

    /// Where the rate came from.
    pub const fn source(self) -> RefreshSource {
        self.source
    }

    /// One refresh, rounded to the nearest nanosecond.
    pub const fn period(self) -> Nanos {
        let mhz = self.millihertz.get() as u64;
        Nanos::from_nanos((1_000_000_000_000 + mhz / 2) / mhz)
    }

    /// The rate in whole frames per second, rounded up (a 59.95 Hz display
    /// gives 60), as a render cap takes it.
    pub const fn whole_hz(self) -> NonZeroU32 {
        match NonZeroU32::new(self.millihertz.get().div_ceil(1_000)) {
            Some(hz) => hz,
            None => NonZeroU32::MIN,
        }
    }
}

/// How a visible window is painted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Presentation {
    /// The surface waits for vsync when it presents, so the display paces
    /// the frames: the adapter asks for the next redraw as soon as one is
    /// painted. Only the game knows this (the adapter cannot see the
    /// surface); a GPU swap chain in FIFO mode is the usual case.
    Vsync,
    /// The surface presents at once (a software surface such as
    /// softbuffer's, or a GPU one in immediate or mailbox mode): the adapter
    /// paints at most `max_fps` times a second, or at the refresh rate when
    /// `None`, and sleeps in between. Without a cap such a window repaints
    /// as fast as the CPU allows and keeps a core busy. The default.
    Immediate {
        /// Paints per second at most; `None` for the refresh rate.
        max_fps: Option<NonZeroU32>,
    },
}

impl Default for Presentation {
    /// [`Presentation::Immediate`] at the refresh rate: safe whatever the
    /// surface does.
    fn default() -> Presentation {
        Presentation::Immediate { max_fps: None }
    }
}

impl Presentation {
    /// The time between paints the adapter keeps, if it paces them itself.
    pub(crate) fn frame_period(self, refresh: Refresh) -> Option<Nanos> {
        match self {
            Presentation::Vsync => None,
            Presentation::Immediate { max_fps: None } => Some(refresh.period()),
            Presentation::Immediate { max_fps: Some(fps) } => {
                let fps = u64::from(fps.get());
                Some(Nanos::from_nanos((1_000_000_000 + fps / 2) / fps))
            }
        }
    }
}

//! The page's lifecycle as the frame source sees it: whether the page is
//! hidden (`document.hidden`), frozen (`freeze` until `resume`), or put in
//! the back-forward cache (`pagehide` until a `pageshow` that restores it),
//! and whether its animation frames have stopped arriving although it says
//! it is visible. Each of these stops painting; the first three also start
//! an absence the game is told about when the page is painted again.

/// A change in the page's lifecycle, as the browser announces it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PageEvent {
    /// `visibilitychange` with `document.hidden` true: another tab, a
    /// minimized window. Animation frames stop; timers are throttled.
    Hidden,
    /// `visibilitychange` with `document.hidden` false.
    Shown,
    /// `freeze`: the browser suspends the page's tasks, timers included,
    /// until `resume`. Sent to hidden pages kept in the background a long
    /// time, or to save memory.
    Frozen,
    /// `resume`: the page runs again after a freeze.
    Resumed,
    /// `pagehide`: the page is navigated away from. With `persisted` it is
    /// kept, suspended, in the back-forward cache and may come back.
    PageHide {
        /// Whether the page goes into the back-forward cache.
        persisted: bool,
    },
    /// `pageshow`: with `persisted`, the page was restored from the
    /// back-forward cache; without, it is the page's first load.
    PageShow {
        /// Whether the page came back from the back-forward cache.
        persisted: bool,
    },
}

/// Why a page is not being painted.
#[allow(
    clippy::struct_excessive_bools,
    reason = "four independent signals, any of them may be up at once (a hidden page is often frozen too)"
)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PageState {
    /// `document.hidden`: no animation frames, throttled timers.
    pub hidden: bool,
    /// Frozen between `freeze` and `resume`: nothing runs.
    pub frozen: bool,
    /// In the back-forward cache, between `pagehide` and `pageshow`:
    /// nothing runs.
    pub cached: bool,
    /// Visible, but no animation frame has arrived for the starvation time
    /// ([`PageOptions::starved_after`](crate::PageOptions::starved_after)):
    /// a cross-origin frame scrolled out of view, a browser that stopped
    /// rendering. Cleared by the next frame, and when the page goes away.
    pub starved: bool,
}

impl PageState {
    /// Whether frames are being painted: none of the four is true.
    pub fn is_painting(self) -> bool {
        !(self.hidden || self.frozen || self.cached || self.starved)
    }

    /// Whether the page is away: hidden, frozen or in the back-forward
    /// cache. Starvation is not an absence: the page says it is seen.
    pub fn is_away(self) -> bool {
        self.hidden || self.frozen || self.cached
    }

    /// Whether the page's tasks are suspended (frozen or cached), so no
    /// timer can run.
    pub fn is_suspended(self) -> bool {
        self.frozen || self.cached
    }

    /// Notes `event`. Returns false for a first load's `pageshow`, which
    /// changes nothing; a restored page's ends its stay in the cache.
    pub(crate) fn apply(&mut self, event: PageEvent) -> bool {
        match event {
            PageEvent::Hidden => self.hidden = true,
            PageEvent::Shown => self.hidden = false,
            PageEvent::Frozen => self.frozen = true,
            PageEvent::Resumed => self.frozen = false,
            PageEvent::PageHide { .. } => self.cached = true,
            PageEvent::PageShow { persisted } => {
                if !persisted && !self.cached {
                    return false;
                }
                self.cached = false;
            }
        }
        true
    }
}

//! Time sync: a peer that runs ahead of the others slows its loop by an
//! exact [`Speed`] until they catch up, so rollbacks stay short and ggrs
//! need not recommend skipping frames.
//!
//! ggrs measures how far ahead a peer runs ([`ggrs::P2PSession::frames_ahead`]:
//! half the difference of the local and remote frame advantages, averaged
//! over the last 30 frames and truncated to whole frames) and, once a peer
//! is 3 or more frames ahead, recommends skipping that many frames, at most
//! once every 60 frames: GGPO's answer, a wait, which shows as a hitch.
//! ggrs's guide recommends the smoother alternative of running each frame
//! a little longer while ahead, and `bevy_ggrs` runs its fixed step about
//! 10% longer. [`TimeSync::DEFAULT`] does what ggrs's guide shows: each frame ahead
//! makes a step 10% longer, up to 3 frames (the speed is `10/11`, `10/12`
//! or `10/13`). A peer behind never speeds up: the peers ahead wait for it.

use std::fmt;

use evenstep::Speed;

/// How a peer's loop follows the session's estimate of how far it runs
/// ahead of the others. Off, or a slowdown per frame ahead, exact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSync {
    /// Percent of a step added per frame ahead, and the most frames
    /// counted; `None` when off.
    slowdown: Option<(u16, u16)>,
}

impl TimeSync {
    /// No adjustment: the loop runs at the speed its host set. A peer
    /// whose clock runs fast drifts ahead until ggrs recommends skipping
    /// frames.
    pub const OFF: TimeSync = TimeSync { slowdown: None };

    /// Each frame ahead makes a step 10% longer, counting up to 3 frames.
    pub const DEFAULT: TimeSync = TimeSync {
        slowdown: Some((10, 3)),
    };

    /// Each frame ahead makes a step `percent_per_frame`% longer, counting
    /// up to `max_frames` frames ahead: at `f` frames ahead the speed is
    /// exactly `100 / (100 + percent_per_frame · min(f, max_frames))`.
    ///
    /// # Errors
    ///
    /// [`TimeSyncError`] unless `percent_per_frame` is in `1..=100` and
    /// `max_frames` in `1..=10`.
    pub fn adjust(percent_per_frame: u16, max_frames: u16) -> Result<TimeSync, TimeSyncError> {
        if !(1..=100).contains(&percent_per_frame) || !(1..=10).contains(&max_frames) {
            return Err(TimeSyncError {
                percent_per_frame,
                max_frames,
            });
        }
        Ok(TimeSync {
            slowdown: Some((percent_per_frame, max_frames)),
        })
    }

    /// Whether the loop's speed follows the session.
    pub fn is_on(self) -> bool {
        self.slowdown.is_some()
    }

    /// The speed for a peer `frames_ahead` frames ahead of the others
    /// (negative when behind): normal when off, behind or level.
    pub fn speed(self, frames_ahead: i32) -> Speed {
        let Some((percent, max_frames)) = self.slowdown else {
            return Speed::NORMAL;
        };
        let Ok(ahead) = u16::try_from(frames_ahead) else {
            return Speed::NORMAL;
        };
        let counted = ahead.min(max_frames);
        if counted == 0 {
            return Speed::NORMAL;
        }
        // At most 100 + 100 · 10: well inside a u16, so `Speed::new` holds.
        Speed::new(100, 100 + percent * counted).unwrap_or(Speed::NORMAL)
    }
}

impl Default for TimeSync {
    fn default() -> TimeSync {
        TimeSync::DEFAULT
    }
}

/// A time sync [`TimeSync::adjust`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeSyncError {
    /// The percent asked for.
    pub percent_per_frame: u16,
    /// The frame count asked for.
    pub max_frames: u16,
}

impl fmt::Display for TimeSyncError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a time sync of {}% per frame up to {} frames: the percent must be in 1..=100 \
             and the frames in 1..=10",
            self.percent_per_frame, self.max_frames
        )
    }
}

impl std::error::Error for TimeSyncError {}

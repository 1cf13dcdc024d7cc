//! Pacing's tuned constants in one table, so that each can be judged on
//! captures it was not chosen on. Every threshold a pacing rule compares
//! against (a spread, a count of frames, a lead) is a [`Knob`]
//! declared beside its rule, with its shipped value, the values the lab
//! tries and the range its rule accepts. In every build but the lab's a
//! knob is a constant: [`Knob::get`] is its shipped value, folded where it
//! is used. With the `tuning` feature (for the lab's leave-one-capture-out
//! runs, not for games) every knob is also a process-wide setting, so the
//! lab can run the same planner with one value changed; it reads an atomic
//! where the default build reads a constant.
//!
//! Capacities (how many deltas or frames a history holds) and limits of
//! representation (fractional bits, the longest gap kept) are not knobs:
//! they size arrays or bound arithmetic, and no capture chooses them.

#[cfg(feature = "tuning")]
use core::fmt;
use core::ops::RangeInclusive;
#[cfg(feature = "tuning")]
use core::sync::atomic::{AtomicU32, Ordering};

use crate::pacing::{display, hysteresis, referee, shown, snap};

/// One tuned constant of a pacing rule: see the module's docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Knob {
    /// Where it sits in [`KNOBS`] (checked there).
    index: usize,
    name: &'static str,
    shipped: u32,
    tried: &'static [u32],
    least: u32,
    most: u32,
}

impl Knob {
    /// A knob at `index` of [`KNOBS`], named `name`, shipped at `shipped`,
    /// the lab trying `tried`, its rule taking any value in `range`.
    pub(crate) const fn new(
        index: usize,
        name: &'static str,
        shipped: u32,
        tried: &'static [u32],
        range: RangeInclusive<u32>,
    ) -> Knob {
        Knob {
            index,
            name,
            shipped,
            tried,
            least: *range.start(),
            most: *range.end(),
        }
    }

    /// The value its rule uses: the shipped one, or (with the `tuning`
    /// feature) the one last [set](Knob::set).
    #[inline]
    #[cfg(not(feature = "tuning"))]
    pub const fn get(&self) -> u32 {
        self.shipped
    }

    /// The value its rule uses: the shipped one, or (with the `tuning`
    /// feature) the one last [set](Knob::set).
    #[inline]
    #[cfg(feature = "tuning")]
    pub fn get(&self) -> u32 {
        VALUES[self.index].load(Ordering::Relaxed)
    }

    /// [`get`](Knob::get), widened.
    #[inline]
    pub(crate) fn get_u64(&self) -> u64 {
        u64::from(self.get())
    }

    /// The knob's name, as the lab prints it.
    pub const fn name(&self) -> &'static str {
        self.name
    }

    /// The value the library ships.
    pub const fn shipped(&self) -> u32 {
        self.shipped
    }

    /// The values the lab's leave-one-capture-out run tries, the shipped
    /// one among them.
    pub const fn tried(&self) -> &'static [u32] {
        self.tried
    }

    /// The values its rule accepts.
    pub const fn range(&self) -> RangeInclusive<u32> {
        self.least..=self.most
    }
}

/// Every knob, in a fixed order.
pub(crate) const KNOBS: [Knob; 21] = [
    snap::SLACK,
    snap::LOCKED_SPREAD_DIVISOR,
    snap::CLEAN_SPREAD_DIVISOR,
    snap::FOLLOW_DIVISOR,
    display::EVIDENCE,
    display::CLOSE_DIVISOR,
    display::LOCK_DIVISOR,
    display::NO_RHYTHM_AFTER,
    display::SETTLING_FRAMES,
    display::STALL_REFRESHES,
    display::STRAYS_LOST,
    hysteresis::AGREEING,
    shown::TRUST_AFTER,
    shown::FIT_DIVISOR,
    shown::WIDEN_DIVISOR,
    referee::LEAD,
    hysteresis::GIVE_DIVISOR,
    snap::WHOLE_BAND,
    snap::FRACTION_BAND,
    snap::CLOSE_BAND,
    snap::CACHE_BAND,
];

// Each knob knows its place, every shipped and tried value is one its rule
// takes, and the shipped value is among those tried.
const _: () = {
    let mut i = 0;
    while i < KNOBS.len() {
        let knob = KNOBS[i];
        assert!(knob.index == i);
        assert!(knob.least <= knob.shipped && knob.shipped <= knob.most);
        let mut shipped_tried = false;
        let mut t = 0;
        while t < knob.tried.len() {
            assert!(knob.least <= knob.tried[t] && knob.tried[t] <= knob.most);
            shipped_tried |= knob.tried[t] == knob.shipped;
            t += 1;
        }
        assert!(shipped_tried);
        i += 1;
    }
};

/// The values in use, one a knob, each starting at its shipped value.
#[cfg(feature = "tuning")]
static VALUES: [AtomicU32; KNOBS.len()] = {
    let mut values = [const { AtomicU32::new(0) }; KNOBS.len()];
    let mut i = 0;
    while i < KNOBS.len() {
        values[i] = AtomicU32::new(KNOBS[i].shipped);
        i += 1;
    }
    values
};

/// Every knob of pacing, in a fixed order.
#[cfg(feature = "tuning")]
pub fn knobs() -> &'static [Knob] {
    &KNOBS
}

/// The knob of that name, if there is one.
#[cfg(feature = "tuning")]
pub fn knob(name: &str) -> Option<Knob> {
    KNOBS.iter().copied().find(|knob| knob.name == name)
}

/// Sets every knob back to its shipped value.
#[cfg(feature = "tuning")]
pub fn reset() {
    for knob in &KNOBS {
        VALUES[knob.index].store(knob.shipped, Ordering::Relaxed);
    }
}

#[cfg(feature = "tuning")]
impl Knob {
    /// Makes every planner in the process use `value` for this knob from
    /// their next frame on.
    ///
    /// # Errors
    ///
    /// [`TuningError`] when `value` is outside the knob's
    /// [range](Knob::range); the knob keeps its value.
    pub fn set(&self, value: u32) -> Result<(), TuningError> {
        if !self.range().contains(&value) {
            return Err(TuningError {
                knob: *self,
                given: value,
            });
        }
        VALUES[self.index].store(value, Ordering::Relaxed);
        Ok(())
    }
}

/// A knob given a value its rule does not take.
#[cfg(feature = "tuning")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TuningError {
    /// The knob.
    pub knob: Knob,
    /// The value refused.
    pub given: u32,
}

#[cfg(feature = "tuning")]
impl fmt::Display for TuningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the pacing knob {} takes {} to {}, not {}",
            self.knob.name, self.knob.least, self.knob.most, self.given
        )
    }
}

#[cfg(feature = "tuning")]
impl core::error::Error for TuningError {}

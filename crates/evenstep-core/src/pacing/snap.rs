//! Snapping: while the [display model](DisplayModel) follows a steady
//! lattice of refreshes, a frame banks the refreshes it spans on that
//! lattice instead of its measured delta. When the refresh period is a
//! simple fraction of the step (within 2% of a whole multiple or divisor of
//! it, or within 0.25% of `p/q` steps with `q` up to 12), the refreshes and
//! the steps form a
//! [`Lattice`]: a refresh is then worth a fixed number of accumulator units,
//! and the bank is kept in the middle of the part of the step it is in, as
//! far from a step boundary as it can be. Locked pacing starts snapping only
//! on a whole lattice it trusts, and then follows the stamps' own pace while
//! it stays near that lattice's refresh.

mod lattice;

use lattice::Lattice;
pub(super) use lattice::{LatticeCache, refresh_units};

use crate::pacing::Hysteresis;
use crate::pacing::tuning::Knob;
use crate::plan::Snapped;
use crate::{DisplayModel, Nanos, Pacing, Speed, Timestamp, Timestep};

/// A frame delta snapped to whole refreshes. A snap whose units do not fit
/// 63 bits (a delta of centuries, or of seconds at a timestep of billions
/// of units a nanosecond) is not made: the frame plans as pacing off does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Snap {
    /// The delta as whole refreshes, in accumulator units (unscaled); below
    /// zero only when it puts back a bank that was ahead.
    pub(crate) units: i64,
    /// The lattice the refreshes were counted on, if there is one.
    lattice: Option<Lattice>,
    /// Whether display feedback predicted the refreshes.
    pub(crate) predicted: bool,
    /// Whether the units count refreshes (a snap proper), rather than the
    /// delta moved by the [hysteresis](crate::pacing::Hysteresis) rule.
    pub(crate) refreshes: bool,
}

impl Snap {
    /// How `snap` snapped its frame, as the plan reports it.
    pub(crate) const fn snapped(snap: Option<Snap>) -> Snapped {
        match snap {
            None => Snapped::No,
            Some(snap) if !snap.refreshes => Snapped::No,
            Some(snap) if snap.predicted => Snapped::ToShowing,
            Some(_) => Snapped::ToStamps,
        }
    }

    /// A snap of `units`, if they fit.
    pub(crate) fn of(units: i128, lattice: Option<Lattice>) -> Option<Snap> {
        Some(Snap {
            units: i64::try_from(units).ok()?,
            lattice,
            predicted: false,
            refreshes: true,
        })
    }

    /// A snap of `units` that display feedback predicted, if they fit.
    pub(crate) fn predicted(units: i128, lattice: Option<Lattice>) -> Option<Snap> {
        Some(Snap {
            predicted: true,
            ..Snap::of(units, lattice)?
        })
    }

    /// The frame's delta moved to `units` by the hysteresis rule, if they
    /// fit: no refreshes counted, no lattice to centre on.
    pub(crate) fn moved(units: i128) -> Option<Snap> {
        Some(Snap {
            refreshes: false,
            ..Snap::of(units, None)?
        })
    }

    /// Where the bank belongs after this snap, scaled by `speed`, left
    /// `remainder`, if it was counted on a lattice: the middle of the part
    /// of the step it is in (see [`Lattice::part_at`]). Frames of whole
    /// refreshes move the bank by whole parts, so a bank in the middle of
    /// its part is furthest from a step boundary on every frame; when a
    /// refresh is whole steps at normal speed, that is mid-step. Once
    /// there, the bank stays there: centring moves it only when a frame
    /// was not snapped on the same parts. `remainder < per_step`.
    pub(crate) fn centre(self, remainder: u64, per_step: u64, speed: Speed) -> Option<u64> {
        let part = self.lattice?.part_at(speed, per_step)?;
        if part >= per_step {
            return Some(per_step / 2);
        }
        Some(((remainder / part) * part + part / 2).min(per_step - 1))
    }
}

/// Refreshes the display model may count ahead of what the bank has been
/// given: the slack of a display's frame queue.
///
/// A game behind a vsync queue presents a frame late now and then (a slow
/// frame, a hitch in its own clock) while the queue keeps showing one frame
/// a refresh; its next frame then comes early, on the same refresh as the
/// late one. Counted stamp by stamp that is 2 refreshes then 0 where the
/// screen showed 1 and 1. With a refresh of slack, the late frame banks one
/// refresh and owes the other; the early frame is paid from what is owed.
/// A refresh the display really missed is paid on the next frame that
/// counts more than its one refresh, so the game is then one refresh behind
/// the stamps, as the screen is behind the queue; it never falls further.
/// The slack is taken only once the stamps have shown such a queue (two
/// frames on one refresh); until then every refresh is banked as counted.
/// Two refreshes run fewer wrong frames behind the suite's queues of two
/// and three, but hold back four steps on a 30 Hz display at 60 steps a
/// second, past the time-scale law's bound: one it is.
pub(super) const SLACK: Knob = Knob::new(0, "slack", 1, &[0, 1, 2, 3], 0..=8);

/// Once a lattice has settled within 0.5% of the step's, locked pacing
/// snaps while the stamps sit, on average, within this fraction of a period
/// of their refreshes (a sixth: 2.8 ms at 60 Hz): a game behind vsync
/// whose own frame times swing by a few milliseconds still follows the
/// display. Frames that wander more follow their own timing (a frame
/// limiter, a game presenting faster than the display), and snapping them
/// would move the run's phase for nothing.
pub(super) const LOCKED_SPREAD_DIVISOR: Knob =
    Knob::new(1, "locked-spread", 6, &[3, 4, 6, 8, 12], 1..=1024);
/// Locked pacing trusts a lattice at once when its stamps sit within a
/// 16th of a period of their refreshes.
pub(super) const CLEAN_SPREAD_DIVISOR: Knob =
    Knob::new(2, "clean-spread", 16, &[8, 12, 16, 24, 32], 1..=1024);
/// Once locked pacing snaps, it goes on snapping at whatever period the
/// stamps keep (counted on the lattice of that period and the step if there
/// is one, else in the display model's period, as snapped pacing counts)
/// while they stay within a sixth of a period of their refreshes and their
/// period within a twentieth of the refresh it started on, and takes up the
/// next lattice the model finds after losing one on the same terms. A game
/// behind a deep vsync queue runs a little faster than the display while
/// the queue fills and a little slower while it drains, its frames still
/// shown one a refresh: its stamps keep their own pace, a few per cent off
/// the display's. A game presenting at a rate of its own (a frame limiter,
/// a game faster than the display) is further off, or never gave locked
/// pacing a whole lattice to start on.
pub(super) const FOLLOW_DIVISOR: Knob = Knob::new(3, "follow", 20, &[10, 15, 20, 30, 40], 1..=1024);
/// A display refresh of whole steps, or of a whole fraction of one, has a
/// lattice when it is within a 50th (2%) of it. This band is the most the
/// time-scale law lets snapped game time part from the wall on a display
/// that far off (with [`CACHE_BAND`] besides): the lab's grid stops here
/// for that reason, not for the wrong frames (wider bands run fewer on the
/// traces judged).
pub(super) const WHOLE_BAND: Knob = Knob::new(17, "whole-band", 50, &[50, 100, 200], 1..=100_000);
/// A refresh of any other fraction of a step has one within a 400th of
/// it, as close as displays keep to their nominal rates.
pub(super) const FRACTION_BAND: Knob =
    Knob::new(18, "fraction-band", 400, &[200, 400, 800], 1..=100_000);
/// A period within a 200th of a lattice's refresh is close to it (the
/// lattice has settled).
pub(super) const CLOSE_BAND: Knob = Knob::new(19, "close-band", 200, &[100, 200, 400], 1..=100_000);
/// A lattice found for a period is kept for the periods within a 200th of
/// it.
pub(super) const CACHE_BAND: Knob = Knob::new(20, "cache-band", 200, &[100, 200, 400], 1..=100_000);

/// Where snapping stands after a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Stance {
    /// Nothing snapped yet.
    Plain,
    /// The previous frame was snapped.
    Snapping,
    /// Snapping stood down and the bank is still where it left it.
    StoodDown,
    /// Locked pacing stood down because the display model lost its
    /// lattice: the bank stays where snapping left it while the model
    /// looks for the next one, which locked pacing may take up at once.
    Relearning,
}

/// What snapping remembers between frames: the display model, the lattice
/// found for the period it last reported, and the refreshes it counted that
/// the bank has not been given yet.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Snapper {
    display: DisplayModel,
    /// The lattice for the display model's period.
    found: LatticeCache,
    /// Frames in a row the period has had a lattice.
    held: u32,
    /// Refreshes counted and not yet banked (at most [`SLACK`] between
    /// frames).
    owed: u64,
    /// What one owed refresh is worth, in accumulator units.
    owed_unit: i128,
    /// Whether two frames have landed on one refresh while snapping: the
    /// display's queue absorbs late frames, and [`SLACK`] is taken.
    queued: bool,
    /// Whether the previous frame was snapped, and how snapping stood down.
    stance: Stance,
    /// Whether time passed since the previous observed frame that the bank
    /// was given otherwise (hidden frames) or not at all (a resync): the
    /// next frame is learned but not snapped.
    gap: bool,
    /// The refresh, in accumulator units, of the whole lattice locked
    /// pacing last started snapping on (0: none): it goes on snapping while
    /// the period stays near it (see [`FOLLOW_DIVISOR`]).
    followed: u64,
    /// How locked pacing plans a frame it does not snap.
    pub(crate) hysteresis: Hysteresis,
}

impl Snapper {
    /// Nothing learned.
    pub(crate) const fn new() -> Snapper {
        Snapper {
            display: DisplayModel::new(),
            found: LatticeCache::EMPTY,
            held: 0,
            owed: 0,
            owed_unit: 0,
            queued: false,
            stance: Stance::Plain,
            gap: false,
            followed: 0,
            hysteresis: Hysteresis::new(),
        }
    }

    /// Observes the frame at `now` and, if `pacing` snaps and the display
    /// model follows a lattice it trusts, snaps the frame to the refreshes
    /// it spans. While `paused`, the frame is learned but not snapped, so
    /// the bank, and the alpha, stay where they were.
    pub(crate) fn snap(
        &mut self,
        now: Timestamp,
        raw: Nanos,
        pacing: Pacing,
        timestep: Timestep,
        paused: bool,
    ) -> Option<Snap> {
        let refreshes = self.display.observe(now);
        if raw.is_zero() {
            // A frame at the instant of the one before (or earlier) brings
            // no time and says nothing of the display: snapping stays as
            // it stood, with its stance and what it owes.
            return None;
        }
        let gap = core::mem::take(&mut self.gap);
        if gap {
            // What was owed before a gap is forgiven with the gap.
            self.owed = 0;
        }
        let snap = match refreshes {
            Some(refreshes) if pacing.is_snapped() && !paused && !gap => {
                self.snap_refreshes(refreshes, pacing, timestep)
            }
            _ => None,
        };
        let was_snapping = self.stance == Stance::Snapping;
        if snap.is_some() {
            self.stance = Stance::Snapping;
            return snap;
        }
        if was_snapping {
            self.stance = if pacing.needs_lattice() && self.display.period_fixed().is_none() {
                Stance::Relearning
            } else {
                Stance::StoodDown
            };
        }
        // Snapped pacing stands down: the refresh still owed is banked now,
        // so game time keeps to the wall. Locked pacing forgives it, and
        // its hysteresis rule plans on from where snapping left the bank:
        // banking it there runs more wrong frames behind a deep queue (447
        // against 432 a phase on profile 18), and the time-scale law counts
        // the stand-down as one move.
        if was_snapping && self.owed > 0 && !pacing.needs_lattice() && !paused {
            let owed = i128::from(core::mem::take(&mut self.owed));
            let units = i128::try_from(timestep.nanos_to_units(raw)).unwrap_or(i128::MAX)
                + owed * self.owed_unit;
            return Snap::of(units, None);
        }
        None
    }

    /// What snapping has learned forgotten, keeping what the display said
    /// of itself (the period hint).
    pub(crate) fn forget(&mut self) {
        let hint = self.display.period_hint();
        *self = Snapper::new();
        self.display.set_period_hint(hint);
    }

    /// The refresh period while the display model follows a steady
    /// lattice.
    pub(crate) fn refresh_period(&self) -> Option<Nanos> {
        self.display.period()
    }

    /// How far apart frames are expected: the measured period, else the
    /// hint.
    pub(crate) fn frame_spacing(&self) -> Option<Nanos> {
        self.display.period_or_hint()
    }

    /// The period the display says it refreshes at (see
    /// [`DisplayModel::set_period_hint`]).
    pub(crate) fn set_period_hint(&mut self, period: Option<Nanos>) {
        self.display.set_period_hint(period);
    }

    /// The period hint.
    pub(crate) const fn period_hint(&self) -> Option<Nanos> {
        self.display.period_hint()
    }

    /// Marks a gap since the previous observed frame: the time of hidden
    /// frames was banked as it was measured, and the time before a resync
    /// is not the game's to bank, so the refreshes the next frame spans
    /// are not banked again.
    pub(crate) fn mark_gap(&mut self) {
        self.gap = true;
        self.hysteresis.forget();
    }

    fn snap_refreshes(
        &mut self,
        refreshes: u64,
        pacing: Pacing,
        timestep: Timestep,
    ) -> Option<Snap> {
        let period_fixed = self.display.period_fixed()?;
        let period = Nanos::from_nanos(period_fixed >> 16);
        let lattice = self.found.lattice_for(period, timestep);
        self.held = if lattice.is_some() {
            self.held.saturating_add(1)
        } else {
            0
        };
        let spread = self.display.spread()?;
        let steady = if let Some(tolerance) = pacing.snap_tolerance() {
            self.followed = 0;
            spread <= Nanos::from_duration(tolerance)
        } else {
            let trusts = self.locked_trusts(spread, period, lattice, timestep)?;
            if trusts && matches!(self.stance, Stance::Plain | Stance::StoodDown) {
                self.followed = lattice.map_or(0, |lattice| lattice.per_refresh.get());
            }
            trusts
        };
        if !steady {
            return None;
        }

        if self.stance != Stance::Snapping {
            self.owed = 0;
        }

        // The slack is assumed once the stamps have shown a queue absorbing
        // a late frame: a frame on the refresh of the one before it.
        self.queued |= refreshes == 0;
        let slack = if self.queued { SLACK.get_u64() } else { 0 };
        let owed = self.owed.saturating_add(refreshes);
        let banked = if owed == 0 {
            0
        } else {
            owed.saturating_sub(slack).max(1)
        };
        self.owed = owed - banked;
        self.owed_unit = refresh_units(lattice, period_fixed, timestep);
        let units = i128::from(banked) * self.owed_unit;
        Snap::of(units, lattice)
    }

    /// Whether locked pacing trusts the lattice. To start snapping, a whole
    /// lattice: very clean stamps on the first lattice found (if its period
    /// has fit the step ever since: a display found at the start), or on a
    /// lattice that has held sixteen frames; or stamps within a sixth of a
    /// period once the lattice has settled, held and sits within 0.5% of
    /// the step's. Once snapping, or on the first lattice found after the
    /// model lost the one it snapped on: stamps within a sixth of a period
    /// whose period stays within a twentieth of the refresh it started on
    /// (see [`FOLLOW_DIVISOR`]), until a stall.
    fn locked_trusts(
        &self,
        spread: Nanos,
        period: Nanos,
        lattice: Option<Lattice>,
        timestep: Timestep,
    ) -> Option<bool> {
        let (spread, period_nanos) = (spread.as_nanos(), period.as_nanos());
        let steady = spread * LOCKED_SPREAD_DIVISOR.get_u64() <= period_nanos;
        match self.stance {
            Stance::Snapping | Stance::Relearning => {
                // A stall while snapping (the model's age starts again) may
                // be the game changing its pace: the lattice settles again
                // and is trusted as at first.
                let stalled = self.stance == Stance::Snapping && self.display.age()? == 0;
                return Some(steady && !stalled && self.follows(period, timestep));
            }
            Stance::Plain | Stance::StoodDown => {}
        }
        if !lattice.is_some_and(Lattice::is_whole) {
            return Some(false);
        }
        let clean =
            spread * CLEAN_SPREAD_DIVISOR.get_u64() <= period_nanos && self.first_or_held()?;
        let trusts = clean || (steady && self.settled(period, lattice, timestep)?);
        Some(trusts)
    }

    /// Whether `period` is within a twentieth of the refresh locked pacing
    /// started snapping on.
    fn follows(&self, period: Nanos, timestep: Timestep) -> bool {
        let refresh = u128::from(self.followed);
        timestep.nanos_to_units(period).abs_diff(refresh) * u128::from(FOLLOW_DIVISOR.get())
            <= refresh
    }

    /// Whether the lattice is the first found and has fit the step since,
    /// or has fit it for sixteen frames.
    fn first_or_held(&self) -> Option<bool> {
        let age = self.display.age()?;
        let first = self.display.is_first_lattice() && self.held > age;
        Some(first || self.held >= 16)
    }

    /// Whether the lattice has settled (sixteen frames since the lock or
    /// the last stall), has fit the step for sixteen frames, and its period
    /// sits within 0.5% of the step's lattice.
    fn settled(&self, period: Nanos, lattice: Option<Lattice>, timestep: Timestep) -> Option<bool> {
        let age = self.display.age()?;
        Some(
            age >= 16
                && self.held >= 16
                && lattice.is_some_and(|lattice| lattice.is_close(period, timestep)),
        )
    }
}

//! The display model: what a display's refreshes are, learned from the frame
//! timestamps a game sees. A fixed-rate display refreshes on a lattice in
//! time, a period and a phase; each frame's timestamp lands near one lattice
//! point, early or late by whatever the game's own timing adds. The model
//! finds the lattice from a short window of deltas, then follows it
//! phase-locked: each stamp is counted on its nearest lattice point, and the
//! distance from that point nudges the phase and, more slowly, the period.
//! Snapping asks it how many refreshes a frame spans; the render cap and the
//! governor ask it how long a refresh lasts.

mod line;
mod lock;

use line::{Line, refreshes_in, rough_period};
use lock::Lock;

use crate::pacing::tuning::Knob;
use crate::{Nanos, Timestamp};

/// Deltas the search window holds.
const WINDOW: usize = 32;
/// Deltas needed before the first lattice is looked for.
pub(super) const EVIDENCE: Knob = Knob::new(4, "evidence", 4, &[3, 4, 6, 8], 2..=32);
/// The first lattice may be taken from fewer than a window of deltas when
/// their stamps sit, on average, within a 32nd of a period of its points.
pub(super) const CLOSE_DIVISOR: Knob = Knob::new(5, "close", 32, &[16, 24, 32, 48, 64], 1..=1024);
/// A whole window is taken when the closest three quarters of its stamps
/// sit, on average, within a tenth of a period of their points.
pub(super) const LOCK_DIVISOR: Knob = Knob::new(6, "lock", 10, &[6, 8, 10, 12, 16], 1..=1024);
/// Deltas in a row, without a lattice found, after which the display is
/// said to keep no rhythm.
pub(super) const NO_RHYTHM_AFTER: Knob =
    Knob::new(7, "no-rhythm-after", 32, &[16, 24, 32, 48, 64], 1..=4096);
/// The longest delta remembered, in ns (about 4.3 s): a longer gap (a
/// hidden window) drops the lattice.
const MOST_NANOS: u64 = u32::MAX as u64;
/// The most refreshes one delta of the search window may span: a longer
/// gap (a stall, a hidden window) says nothing about the rhythm.
const MOST_REFRESHES: u64 = 64;
/// Fractional bits of the period: a period is followed to 1/65536 ns, so a
/// lattice drifts from the display by well under a nanosecond a minute.
const FRACTION_BITS: u32 = 16;
/// Frames after a lock (or a stall) on which the phase and period follow
/// faster, while the period found from a short window is refined, and
/// before locked pacing trusts a lattice that is not very clean.
pub(super) const SETTLING_FRAMES: Knob =
    Knob::new(8, "settling", 16, &[8, 12, 16, 24, 32], 1..=4096);
/// A frame spanning more refreshes than this, and longer than
/// `STALL_NANOS`, is a stall.
pub(super) const STALL_REFRESHES: Knob = Knob::new(9, "stall-refreshes", 3, &[2, 3, 4, 6], 1..=64);
/// 50 ms: at 120 Hz and faster, a hitch of a few refreshes is no stall.
const STALL_NANOS: u64 = 50_000_000;
/// The share of stray stamps (more than a quarter period from their
/// points) is kept in 1/256. A fresh lattice starts at a quarter; past
/// three eighths it is dropped.
const STRAYS_ONE: u32 = 256;
pub(super) const STRAYS_LOST: Knob = Knob::new(
    10,
    "strays-lost",
    STRAYS_ONE * 3 / 8,
    &[64, 80, 96, 112, 128],
    1..=STRAYS_ONE,
);

/// What the model knows of the display's rhythm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rhythm {
    /// Too few frames yet to say.
    Learning,
    /// The frames land on a steady lattice of refreshes, this far apart.
    Steady {
        /// The refresh period.
        period: Nanos,
    },
    /// Frame after frame fits no lattice: a variable refresh display, or a
    /// game whose frames follow its own timing rather than the display's.
    /// Snapping stands down.
    Irregular,
}

/// A display's refresh lattice, learned from frame timestamps: integer
/// arithmetic, no allocation, deterministic given the stamps.
///
/// **Finding the lattice.** Recent deltas are kept, up to 32. The median
/// delta is a first period; each delta is counted as a whole number of
/// periods (a missed refresh counts two, a stall many), and the period
/// becomes the window's span over its refresh count, twice; then a straight
/// line is fitted through the stamps against their refresh numbers: its
/// slope is the period, its offset the phase. A whole window is taken when
/// three quarters of its deltas span one refresh and its closest three
/// quarters of stamps sit, on average, within a tenth of a period of their
/// points: a few late frames do not hide a rhythm, and deltas swinging
/// 22 / 12 ms around a 16.7 ms display fit, while a variable refresh
/// display's deltas scatter too widely. The first lattice may be taken
/// from as few as four deltas when they fit within a 32nd of a period, so a
/// steady display is snapped to from its fifth frame.
///
/// **Following it.** While locked, each stamp is counted on the lattice
/// point nearest to it: the refreshes since the previous stamp's point are
/// what [`observe`](DisplayModel::observe) returns. The stamp's distance
/// from its point moves the phase by an eighth of it and the period by
/// 1/512 of it per refresh (a quarter and 1/32 while the lattice settles),
/// so the lattice follows a display at 59.95 Hz rather than 60 and keeps up
/// with a phase that wanders, while one frame that is early or late by
/// several milliseconds barely moves it. A distance counts at most three
/// times the running average distance (plus a sixteenth of a period): an
/// outlier is heard, not obeyed.
///
/// **Letting it go.** The model keeps, over about sixteen frames, the
/// average distance of the stamps within a quarter period of their points
/// (the [spread](DisplayModel::spread)) and the share of stamps further
/// out (strays). It drops the lattice when more than three eighths of the
/// stamps stray (a game that left the display's pace, a display that lost
/// its rhythm); one outlier never loses it. A lattice finer than the
/// frames (found from startup frames faster than the game's pace, or kept
/// while the game drops to every other refresh) is kept: its refreshes
/// count the frames' steps as a coarser one would. After a lattice is
/// lost, a new one is taken only from a whole window. A delta
/// longer than about 4.3 s (a hidden window) drops the lattice too: no
/// display phase survives that. Zero deltas (a repeated or backwards stamp)
/// teach nothing.
///
/// # Examples
///
/// ```
/// use evenstep_core::{DisplayModel, Nanos, Rhythm, Timestamp};
///
/// let mut display = DisplayModel::new();
/// let mut now = 1_000_000_000_u64;
/// for k in 0..120_u64 {
///     // A 59.95 Hz display; the game's stamps swing 3 ms early and late.
///     let jitter = [0, 3_000_000, -3_000_000_i64][(k % 3) as usize];
///     now += 16_680_567;
///     display.observe(Timestamp::from_nanos(now.saturating_add_signed(jitter)));
/// }
/// let Rhythm::Steady { period } = display.rhythm() else { panic!() };
/// assert!(period.as_nanos().abs_diff(16_680_567) < 20_000);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct DisplayModel {
    /// The previous stamp observed.
    last: Option<Timestamp>,
    /// Recent deltas in nanoseconds, oldest first from `next` (a ring), for
    /// finding a lattice.
    deltas: [u32; WINDOW],
    /// Where the next delta goes.
    next: u8,
    /// Deltas in the ring, up to `WINDOW`.
    count: u8,
    /// Deltas since the lattice was lost (or since the start) with none
    /// found.
    unlocked_for: u32,
    /// The lattice, while locked.
    lattice: Option<Lock>,
    /// Whether a lattice has been lost since the model started.
    lost_one: bool,
    /// The period the display says it refreshes at (a monitor's reported
    /// rate), if it said.
    hint: Option<Nanos>,
}

impl DisplayModel {
    /// A model that knows nothing.
    pub const fn new() -> DisplayModel {
        DisplayModel {
            last: None,
            deltas: [0; WINDOW],
            next: 0,
            count: 0,
            unlocked_for: 0,
            lattice: None,
            lost_one: false,
            hint: None,
        }
    }

    /// Tells the model the period the display says it refreshes at (a
    /// monitor's reported rate; `None`: nothing said). Until the model has
    /// measured a lattice of its own,
    /// [`period_or_hint`](DisplayModel::period_or_hint) answers with it, so
    /// a render cap spaces frames right from the first one. The lattice
    /// search does not use it: the frames' own timing is what snapping
    /// must follow (a game at 30 fps on a 60 Hz display is snapped on a
    /// 30 Hz lattice), and starting the search at the hinted period found
    /// no lattice sooner, from no jitter to ±7 ms. A reset keeps it.
    ///
    /// # Examples
    ///
    /// ```
    /// use evenstep_core::{DisplayModel, Nanos};
    ///
    /// let mut display = DisplayModel::new();
    /// display.set_period_hint(Some(Nanos::from_nanos(16_666_667)));
    /// assert_eq!(display.period(), None); // nothing measured yet
    /// assert_eq!(display.period_or_hint(), Some(Nanos::from_nanos(16_666_667)));
    /// ```
    pub fn set_period_hint(&mut self, period: Option<Nanos>) {
        self.hint = period.filter(|period| *period != Nanos::ZERO);
    }

    /// The period hint (see [`set_period_hint`](DisplayModel::set_period_hint)).
    pub const fn period_hint(&self) -> Option<Nanos> {
        self.hint
    }

    /// The measured period while the model follows a steady lattice, else
    /// the hint, if one was given: how far apart frames are expected.
    pub fn period_or_hint(&self) -> Option<Nanos> {
        self.period().or(self.hint)
    }

    /// Observes a frame at `now`, and returns, while the model follows a
    /// lattice, how many refreshes passed since the previous frame's
    /// lattice point: usually 1, 2 after a missed refresh, 0 for a second
    /// frame on the same refresh.
    pub fn observe(&mut self, now: Timestamp) -> Option<u64> {
        let previous = self.last.replace(now)?;
        let delta = now.saturating_since(previous).as_nanos();
        if let (Some(lattice), 1..=MOST_NANOS) = (self.lattice.as_mut(), delta) {
            let refreshes = lattice.follow(now);
            if lattice.is_lost() {
                self.lose_lattice();
            }
            return Some(refreshes);
        }
        self.search(now, delta)
    }

    /// A frame while no lattice is followed (or one whose delta drops it):
    /// remembers its delta and looks for a lattice.
    #[cold]
    fn search(&mut self, now: Timestamp, delta: u64) -> Option<u64> {
        if delta == 0 {
            return None;
        }
        let Ok(delta) = u32::try_from(delta) else {
            // A gap this long (a hidden window): no phase survives it.
            self.lose_lattice();
            return None;
        };
        self.remember(delta);
        self.unlocked_for = self.unlocked_for.saturating_add(1);
        // The first lattice is looked for from the sixth frame on, so a
        // display found at the start is snapped to at once; after a lattice
        // was lost, only in whole windows, every fourth frame (a display
        // that keeps no rhythm would otherwise pay for a search every
        // frame).
        let search = if self.lost_one {
            usize::from(self.count) == WINDOW && self.unlocked_for % 4 == 0
        } else {
            u32::from(self.count) >= EVIDENCE.get()
        };
        if search {
            let (lattice, refreshes) = self.find(now).unzip();
            self.lattice = lattice;
            if self.lattice.is_some() {
                self.unlocked_for = 0;
            }
            return refreshes;
        }
        None
    }

    /// The display's rhythm as far as the model knows it.
    pub fn rhythm(&self) -> Rhythm {
        match self.lattice {
            Some(lattice) => Rhythm::Steady {
                period: Nanos::from_nanos(lattice.period.unsigned_abs() >> FRACTION_BITS),
            },
            None if self.unlocked_for >= NO_RHYTHM_AFTER.get() => Rhythm::Irregular,
            None => Rhythm::Learning,
        }
    }

    /// The refresh period, while the frames keep a steady lattice (to the
    /// nanosecond; the model keeps it to 1/65536 ns).
    pub fn period(&self) -> Option<Nanos> {
        match self.rhythm() {
            Rhythm::Steady { period } => Some(period),
            Rhythm::Learning | Rhythm::Irregular => None,
        }
    }

    /// How far, on average over about sixteen frames, the stamps within a
    /// quarter period of their lattice points sit from them, while locked:
    /// the game's own timing noise.
    pub fn spread(&self) -> Option<Nanos> {
        self.lattice
            .map(|lattice| Nanos::from_nanos(lattice.spread))
    }

    /// The refresh period in 2⁻¹⁶ ns, while locked.
    pub(crate) fn period_fixed(&self) -> Option<u64> {
        self.lattice.map(|lattice| lattice.period.unsigned_abs())
    }

    /// Frames followed since the lock or the last stall (up to sixteen),
    /// while locked.
    pub(crate) fn age(&self) -> Option<u32> {
        self.lattice.map(|lattice| lattice.age)
    }

    /// Whether the lattice followed is the first found since the start (no
    /// lattice was lost before it).
    pub(crate) fn is_first_lattice(&self) -> bool {
        !self.lost_one
    }

    /// Forgets everything.
    pub fn reset(&mut self) {
        let hint = self.hint;
        *self = DisplayModel::new();
        self.hint = hint;
    }

    /// Drops the lattice and the window: the next lattice is found from
    /// fresh deltas.
    fn lose_lattice(&mut self) {
        self.lost_one |= self.lattice.is_some();
        self.lattice = None;
        self.count = 0;
        self.next = 0;
    }

    fn remember(&mut self, delta: u32) {
        self.deltas[usize::from(self.next)] = delta;
        self.next = (self.next + 1) % WINDOW as u8;
        self.count = (self.count + 1).min(WINDOW as u8);
    }

    /// The window's deltas, oldest first, and how many there are.
    fn window(&self) -> ([u32; WINDOW], usize) {
        let count = usize::from(self.count);
        let mut ordered = [0; WINDOW];
        let first = (usize::from(self.next) + WINDOW - count) % WINDOW;
        for (i, slot) in ordered.iter_mut().take(count).enumerate() {
            *slot = self.deltas[(first + i) % WINDOW];
        }
        (ordered, count)
    }

    /// The lattice the window's stamps fit, with `now` the latest stamp, if
    /// they fit one well enough, and the refreshes the latest delta spans
    /// on it.
    fn find(&self, now: Timestamp) -> Option<(Lock, u64)> {
        let (deltas, count) = self.window();
        let deltas = &deltas[..count];
        // A rough period counts each delta in whole refreshes; the line
        // through the stamps, counted so, gives the period to 2⁻¹⁶ ns and
        // the phase.
        Self::find_from(deltas, rough_period(deltas)?, now)
    }

    /// The lattice through the window's `deltas` whose period is near
    /// `rough`, if the stamps sit close enough to its points.
    fn find_from(deltas: &[u32], rough: u64, now: Timestamp) -> Option<(Lock, u64)> {
        let count = deltas.len();
        let line = Line::through(deltas, rough)?;
        let mut distances = [0_u64; WINDOW + 1];
        line.distances(deltas, rough, &mut distances)?;
        let period = u64::try_from(line.slope).ok()?;
        // The lattice is taken only when the stamps sit close to its points.
        let spread = Self::window_spread(&mut distances[..=count], period >> FRACTION_BITS)?;
        let lock = Lock::on_line(&line, period, spread, now)?;
        let latest = refreshes_in(u64::from(deltas[count - 1]), period >> FRACTION_BITS)?;
        Some((lock, latest))
    }

    /// The average distance, in ns, of the window's stamps from the fitted
    /// line (`distances`, one per stamp), if it is close enough for a
    /// period of `period_nanos` to be taken.
    ///
    /// A short window (only the first lattice is looked for in one: see
    /// `search`) is trusted only when all of it fits very closely: a few
    /// deltas of a display with no rhythm can fit a lattice by chance. A
    /// whole window is judged by its closest three quarters, so that a few
    /// late frames do not hide a rhythm, while the deltas of a display that
    /// keeps none scatter too widely.
    fn window_spread(distances: &mut [u64], period_nanos: u64) -> Option<u64> {
        // One stamp more than deltas: the window's first.
        let (kept, divisor) = if distances.len() - 1 < WINDOW {
            (distances.len(), CLOSE_DIVISOR.get_u64())
        } else {
            (distances.len() * 3 / 4, LOCK_DIVISOR.get_u64())
        };
        distances.sort_unstable();
        let spread = distances[..kept].iter().sum::<u64>() / kept as u64;
        if spread * divisor > period_nanos {
            return None;
        }
        Some(spread)
    }
}

impl Default for DisplayModel {
    fn default() -> DisplayModel {
        DisplayModel::new()
    }
}

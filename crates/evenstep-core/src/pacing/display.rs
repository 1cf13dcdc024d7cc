//! The display model: what a display's refreshes are, learned from the frame
//! timestamps a game sees. A fixed-rate display refreshes on a lattice in
//! time, a period and a phase; each frame's timestamp lands near one lattice
//! point, early or late by whatever the game's own timing adds. The model
//! finds the lattice from a short window of deltas, then follows it
//! phase-locked: each stamp is counted on its nearest lattice point, and the
//! distance from that point nudges the phase and, more slowly, the period.
//! Snapping asks it how many refreshes a frame spans; the render cap and the
//! governor ask it how long a refresh lasts.

use crate::{Nanos, Timestamp};

/// Deltas the search window holds.
const WINDOW: usize = 32;
/// Deltas needed before the first lattice is looked for.
const EVIDENCE: u8 = 4;
/// The first lattice may be taken from fewer than a window of deltas when
/// their stamps sit, on average, within a 32nd of a period of its points.
const CLOSE_DIVISOR: u64 = 32;
/// A whole window is taken when the closest three quarters of its stamps
/// sit, on average, within a tenth of a period of their points.
const LOCK_DIVISOR: u64 = 10;
/// The lattice is dropped when the stamps within a quarter period of their
/// points sit, on average, more than a fifth of a period away.
const UNLOCK_DIVISOR: u64 = 5;
/// Deltas in a row, without a lattice found, after which the display is
/// said to keep no rhythm.
const NO_RHYTHM_AFTER: u32 = 32;
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
const SETTLING_FRAMES: u32 = 16;
/// Frames in a row that each span two refreshes or more after which the
/// lattice is taken to be a finer one than the frames keep (found from a
/// window of startup frames), and looked for again: a coarser lattice that
/// fits the same stamps describes them better.
const TOO_FINE_AFTER: u32 = 8;
/// A frame spanning more refreshes than this, and longer than
/// `STALL_NANOS`, is a stall.
const STALL_REFRESHES: u64 = 3;
/// 50 ms: at 120 Hz and faster, a hitch of a few refreshes is no stall.
const STALL_NANOS: u64 = 50_000_000;
/// The share of stray stamps (more than a quarter period from their
/// points) is kept in 1/256. A fresh lattice starts at a quarter; past
/// three eighths it is dropped.
const STRAYS_ONE: u32 = 256;
const STRAYS_LOST: u32 = STRAYS_ONE * 3 / 8;

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
/// out (strays). It drops the lattice when the spread passes a fifth of a
/// period, when more than three eighths of the stamps stray (a game that
/// left the display's pace, a display that lost its rhythm), or when eight
/// frames in a row span two refreshes or more (a lattice finer than the
/// frames, found from startup frames); one outlier never loses it. After a
/// lattice is lost, a new one is taken only from a whole window. A delta
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

/// A lattice being followed. Times are in 2⁻¹⁶ ns from `origin`, which is
/// kept at most a few seconds back (see `stamp`), so every one fits 52
/// bits and signed arithmetic on them cannot overflow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Lock {
    /// The period in 2⁻¹⁶ ns.
    period: i64,
    /// The lattice point the latest stamp was counted on.
    point: i64,
    /// A timestamp the point is measured from, so the point fits 64 bits.
    origin: Timestamp,
    /// The running average distance of stamps from their points (those
    /// within a quarter period), in ns.
    spread: u64,
    /// Frames followed since the lock, up to `SETTLING_FRAMES`.
    age: u32,
    /// Frames in a row that spanned two refreshes or more.
    coarse: u32,
    /// The running share of stamps more than a quarter period from their
    /// points, in 1/`STRAYS_ONE`.
    strays: u32,
    /// The point the period was last measured from, and the refreshes
    /// counted since: see [`measure_period`](Lock::measure_period).
    baseline: i64,
    since: u64,
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
    #[inline]
    pub fn observe(&mut self, now: Timestamp) -> Option<u64> {
        self.observe_then(now, |_, _| false).0
    }

    /// [`observe`](DisplayModel::observe), and whether the frame was the
    /// usual one (one refresh, within a quarter period of its point, the
    /// lattice settled and kept) with a period and spread, in ns, that
    /// `keeps` accepts.
    #[allow(
        clippy::inline_always,
        reason = "locked pacing's steady frame, on every frame of the default \
                  pacing: see bench/README.md"
    )]
    #[inline(always)]
    pub(crate) fn observe_then(
        &mut self,
        now: Timestamp,
        keeps: impl FnOnce(u64, u64) -> bool,
    ) -> (Option<u64>, bool) {
        let Some(previous) = self.last.replace(now) else {
            return (None, false);
        };
        let delta = now.saturating_since(previous).as_nanos();
        if let (Some(lattice), 1..=MOST_NANOS) = (self.lattice.as_mut(), delta) {
            let (refreshes, dropped, usual) = lattice.follow(now);
            let kept =
                usual && !dropped && keeps(period_nanos_after(lattice.period), lattice.spread);
            if dropped {
                self.lose_lattice();
            }
            return (Some(refreshes), kept);
        }
        (self.search(now, delta), false)
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
            self.count >= EVIDENCE
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
            None if self.unlocked_for >= NO_RHYTHM_AFTER => Rhythm::Irregular,
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
        self.find_from(deltas, rough_period(deltas)?, now)
    }

    /// The lattice through the window's `deltas` whose period is near
    /// `rough`, if the stamps sit close enough to its points.
    fn find_from(&self, deltas: &[u32], rough: u64, now: Timestamp) -> Option<(Lock, u64)> {
        let count = deltas.len();
        let line = Line::through(deltas, rough)?;
        let mut distances = [0_u64; WINDOW + 1];
        line.distances(deltas, rough, &mut distances)?;
        let period = u64::try_from(line.slope).ok()?;
        // The lattice is taken only when the stamps sit close to its points.
        let spread = self.window_spread(&mut distances[..=count], period >> FRACTION_BITS)?;
        let lock = Lock::on_line(&line, period, spread, now)?;
        let latest = refreshes_in(u64::from(deltas[count - 1]), period >> FRACTION_BITS)?;
        Some((lock, latest))
    }

    /// The average distance, in ns, of the window's stamps from the fitted
    /// line (`distances`, one per stamp), if it is close enough for a
    /// period of `period_nanos` to be taken.
    ///
    /// A short window is trusted only for the first lattice, and only when
    /// all of it fits very closely: a few deltas of a display with no
    /// rhythm can fit a lattice by chance, and a display that lost its
    /// rhythm once has to show a whole window of it again. A whole window
    /// is judged by its closest three quarters, so that a few late frames
    /// do not hide a rhythm, while the deltas of a display that keeps none
    /// scatter too widely.
    fn window_spread(&self, distances: &mut [u64], period_nanos: u64) -> Option<u64> {
        // One stamp more than deltas: the window's first.
        let short = distances.len() - 1 < WINDOW;
        let (kept, divisor) = match (short, self.lost_one) {
            (false, _) => (distances.len() * 3 / 4, LOCK_DIVISOR),
            (true, false) => (distances.len(), CLOSE_DIVISOR),
            (true, true) => return None,
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

impl Lock {
    /// How far before a point its origin is kept, in ns: far enough that a
    /// point never goes behind it, near enough that a point fits 64 bits
    /// with its fraction for hours.
    const ORIGIN_LEAD: u64 = 1_000_000_000;

    /// A fresh lattice on `line` (its slope `period`, in 2⁻¹⁶ ns), with
    /// the window's `spread`, its latest point the one `now` was counted
    /// on and its origin `ORIGIN_LEAD` before `now`.
    fn on_line(line: &Line, period: u64, spread: u64, now: Timestamp) -> Option<Lock> {
        // The latest stamp's point, measured from the latest stamp itself.
        let (x, y) = line.latest;
        let to_point = line.offset + line.slope * x - (y << FRACTION_BITS);
        let origin = Timestamp::from_nanos(now.as_nanos().saturating_sub(Lock::ORIGIN_LEAD));
        let lead = now.saturating_since(origin).as_nanos();
        let point = (i128::from(lead) << FRACTION_BITS) + to_point;
        Some(Lock {
            period: as_signed(period),
            point: i64::try_from(point).ok()?,
            origin,
            spread,
            age: 0,
            coarse: 0,
            // A fresh lattice starts under suspicion: a few stamps of a
            // display with no rhythm can fit one, and the next few stray.
            strays: STRAYS_ONE / 4,
            baseline: i64::try_from(point).ok()?,
            since: 0,
        })
    }

    /// Counts the stamp `now` on its nearest lattice point, moves the phase
    /// and the period toward it, and returns the refreshes since the
    /// previous point.
    /// Whether the lattice is lost after it comes with the count (see
    /// [`is_lost`](Lock::is_lost)), and whether the frame was the usual one.
    #[allow(
        clippy::inline_always,
        reason = "locked pacing's steady frame, on every frame of the default \
                  pacing: see bench/README.md"
    )]
    #[inline(always)]
    fn follow(&mut self, now: Timestamp) -> (u64, bool, bool) {
        let stamp = self.stamp(now);
        // The usual frame, once the lattice has settled: one refresh after
        // the previous point, within a quarter period of it. The general
        // rule below plans it the same; this is that rule with every case
        // it cannot meet taken out.
        let next = self.point + self.period;
        let distance = stamp - next;
        let nanos = distance.unsigned_abs() >> FRACTION_BITS;
        let period_nanos = period_nanos_after(self.period);
        if self.age >= SETTLING_FRAMES && nanos <= period_nanos / 4 {
            let limit = small((3 * self.spread + period_nanos / 16) << FRACTION_BITS);
            let heard = distance.clamp(-limit, limit);
            self.point = next + (heard >> 3);
            self.period = (self.period + (heard >> 9)).max(1 << FRACTION_BITS);
            self.spread = (self.spread * 15 + nanos) / 16;
            if self.strays != 0 {
                self.strays = self.strays * 15 / 16;
            }
            self.coarse = 0;
            self.since += 1;
            if self.since.is_power_of_two() {
                self.measure_period();
            }
            // Only the spread can have grown.
            let lost = self.spread * UNLOCK_DIVISOR > period_nanos_after(self.period);
            return (1, lost, true);
        }
        let refreshes = self.follow_any(stamp);
        (refreshes, self.is_lost(), false)
    }

    /// Measures the period over a long baseline: the lattice's span from
    /// the point it was last measured from (where it settled, at first),
    /// over the refreshes counted since. The phase-locked updates follow
    /// the period frame by frame,
    /// which is noisy while the stamps swing; the span of many refreshes
    /// pins it (to a 32nd of the stamps' spread over 32 refreshes, a 1024th
    /// over 1024), and each measurement doubles the baseline. From 4096
    /// refreshes on it starts over, so a period that drifts is still
    /// followed.
    #[cold]
    fn measure_period(&mut self) {
        if self.since >= 32 {
            let since = i64::try_from(self.since).unwrap_or(i64::MAX);
            let measured = (self.point - self.baseline) / since;
            self.period = measured.max(1 << FRACTION_BITS);
        }
        if self.since >= 4096 {
            self.baseline = self.point;
            self.since = 0;
        }
    }

    /// Counts `stamp` (in 2⁻¹⁶ ns from the origin) on its nearest lattice
    /// point, moves the phase and the period toward it, and returns the
    /// refreshes since the previous point: the general rule.
    #[cold]
    fn follow_any(&mut self, stamp: i64) -> u64 {
        // The frame is judged on the period it arrived on, before it moves.
        let period_nanos = self.period.unsigned_abs() >> FRACTION_BITS;
        let (refreshes, nearest) = self.nearest_point(stamp);
        let distance = stamp - nearest;
        self.pull(nearest, distance, refreshes, period_nanos);
        self.weigh(distance, period_nanos);
        let refreshes = refreshes.unsigned_abs();
        self.count_refreshes(refreshes, period_nanos);
        self.coarse = if refreshes >= 2 { self.coarse + 1 } else { 0 };
        refreshes
    }

    /// The lattice point `stamp` counts on, and the refreshes from the
    /// previous point to it.
    ///
    /// A stamp counts on the point after the previous one from a quarter
    /// period before it to three quarters after: frames are held back by
    /// the display and come late, rarely early, so a stamp late by more
    /// than half a period has usually still made its refresh. One further
    /// back counts on the previous point; the usual frame, one refresh,
    /// needs no division.
    fn nearest_point(&self, stamp: i64) -> (i64, i64) {
        let (point, period) = (self.point, self.period);
        let quarter = period / 4;
        let late = stamp - point - period;
        if -quarter <= late && late < period - quarter {
            (1, point + period)
        } else if late < -quarter {
            (0, point)
        } else {
            let refreshes = (stamp - point + quarter) / period;
            (refreshes, point + refreshes * period)
        }
    }

    /// Moves the phase to `nearest` plus an eighth of the stamp's
    /// `distance` from it, and the period by 1/512 of the distance per
    /// refresh (a quarter and 1/32 while the lattice settles). One outlier
    /// is heard, not obeyed: a distance counts at most three times the
    /// spread plus a sixteenth of a period.
    fn pull(&mut self, nearest: i64, distance: i64, refreshes: i64, period_nanos: u64) {
        let limit = as_signed((3 * self.spread + period_nanos / 16) << FRACTION_BITS);
        let heard = distance.clamp(-limit, limit);
        let (phase_nudge, period_nudge) = if self.age < SETTLING_FRAMES {
            (heard >> 2, heard >> 5)
        } else {
            (heard >> 3, heard >> 9)
        };
        self.point = nearest + phase_nudge;
        // A frame of one refresh, the usual one, needs no division.
        let period_nudge = match refreshes {
            0 => 0,
            1 => period_nudge,
            _ => period_nudge / refreshes,
        };
        self.period = (self.period + period_nudge).max(1 << FRACTION_BITS);
    }

    /// Folds a stamp's `distance` from its point into the spread and the
    /// share of strays, each over about sixteen frames. The spread keeps
    /// only the stamps within a quarter period of their points: a slow
    /// frame now and then is a stray, not noise, while a game that has
    /// left the lattice, or a display that keeps none, strays half the
    /// time.
    fn weigh(&mut self, distance: i64, period_nanos: u64) {
        let nanos = distance.unsigned_abs() >> FRACTION_BITS;
        if nanos <= period_nanos / 4 {
            self.spread = (self.spread * 15 + nanos) / 16;
            self.strays = self.strays * 15 / 16;
        } else {
            self.strays = (self.strays * 15 + STRAYS_ONE) / 16;
        }
    }

    /// Counts a frame of `refreshes` toward the lattice's age and toward
    /// the baseline the period is measured over. A stall of several
    /// refreshes may be the game changing its pace: the lattice settles
    /// again before it is trusted as before.
    fn count_refreshes(&mut self, refreshes: u64, period_nanos: u64) {
        let settling = self.age < SETTLING_FRAMES;
        let stall =
            refreshes > STALL_REFRESHES && refreshes.saturating_mul(period_nanos) > STALL_NANOS;
        self.age = if stall {
            0
        } else {
            (self.age + 1).min(SETTLING_FRAMES)
        };
        if settling {
            // The period is measured from where the lattice has settled.
            self.baseline = self.point;
            self.since = 0;
        } else {
            let before = self.since;
            self.since = before.saturating_add(refreshes);
            if self.since.max(1).ilog2() > before.max(1).ilog2() {
                self.measure_period();
            }
        }
    }

    /// Whether the stamps have wandered too far from the lattice to keep it.
    fn is_lost(&self) -> bool {
        self.spread * UNLOCK_DIVISOR > period_nanos_after(self.period)
            || self.strays > STRAYS_LOST
            || self.coarse >= TOO_FINE_AFTER
    }

    /// The time from the origin to `now`, in 2⁻¹⁶ ns, once the origin has
    /// been moved up to `ORIGIN_LEAD` before `now` (keeping the point where
    /// it is in time): it fits 52 bits.
    #[inline]
    fn stamp(&mut self, now: Timestamp) -> i64 {
        let mut since = now.saturating_since(self.origin).as_nanos();
        if since > 2 * Lock::ORIGIN_LEAD {
            since -= self.move_origin(since - Lock::ORIGIN_LEAD);
        }
        small(since << FRACTION_BITS)
    }

    /// Moves the origin `step` ns later (no further than the point), and
    /// returns how far it moved.
    #[cold]
    fn move_origin(&mut self, step: u64) -> u64 {
        let step = step.min(self.point.max(0).unsigned_abs() >> FRACTION_BITS);
        self.origin = Timestamp::from_nanos(self.origin.as_nanos() + step);
        let moved = as_signed(step) << FRACTION_BITS;
        self.point -= moved;
        self.baseline -= moved;
        step
    }
}

/// A first period for a window of deltas, in ns: the median delta, then the
/// window's span over its count of whole periods, twice, since a median of
/// jittered deltas can be far off. `None` if a delta spans more refreshes
/// than a rhythm can show.
fn rough_period(deltas: &[u32]) -> Option<u64> {
    let mut sorted = [0_u32; WINDOW];
    let sorted = &mut sorted[..deltas.len()];
    sorted.copy_from_slice(deltas);
    sorted.sort_unstable();
    let mut period = u64::from(sorted[deltas.len() / 2]);
    for _ in 0..2 {
        let mut span = 0_u64;
        let mut refreshes = 0_u64;
        for &delta in deltas {
            span += u64::from(delta);
            refreshes += refreshes_in(u64::from(delta), period)?;
        }
        period = span / refreshes;
    }
    Some(period)
}

/// A straight line through a window's stamps against their refresh numbers,
/// both counted from the window's first stamp: its slope is the period, its
/// offset where the first stamp's lattice point sits.
struct Line {
    /// The period, in 2⁻¹⁶ ns per refresh: always positive.
    slope: i128,
    /// The first stamp's lattice point, in 2⁻¹⁶ ns after the stamp.
    offset: i128,
    /// The latest stamp: its refresh number, and its time in ns.
    latest: (i128, i128),
}

impl Line {
    /// The line fitted by least squares through the stamps of `deltas`,
    /// each counted in whole refreshes of `period` ns, if the deltas keep
    /// a rhythm: most frames of a display's rhythm span one refresh of it,
    /// and deltas that mix one and two of some period are no rhythm.
    fn through(deltas: &[u32], period: u64) -> Option<Line> {
        let count = deltas.len();
        let points = count as i128 + 1;
        let (mut x, mut y) = (0_i128, 0_i128);
        let (mut sx, mut sy, mut sxx, mut sxy) = (0_i128, 0_i128, 0_i128, 0_i128);
        let mut single = 0;
        for &delta in deltas {
            let refreshes = refreshes_in(u64::from(delta), period)?;
            single += usize::from(refreshes == 1);
            x += i128::from(refreshes);
            y += i128::from(delta);
            sx += x;
            sy += y;
            sxx += x * x;
            sxy += x * y;
        }
        let spread_x = points * sxx - sx * sx;
        if spread_x <= 0 || single * 4 < count * 3 {
            return None;
        }
        // Slope and offset in 2⁻¹⁶ ns.
        let slope = ((points * sxy - sx * sy) << FRACTION_BITS) / spread_x;
        let offset = ((sy << FRACTION_BITS) - slope * sx) / points;
        if slope <= 0 {
            return None;
        }
        Some(Line {
            slope,
            offset,
            latest: (x, y),
        })
    }

    /// Writes each stamp's distance from the line, in ns, into
    /// `distances`: the window's first stamp, then one per delta, each
    /// counted in whole refreshes of `period` ns as the line was fitted.
    fn distances(&self, deltas: &[u32], period: u64, distances: &mut [u64]) -> Option<()> {
        distances[0] = nanos_of(self.offset);
        let (mut x, mut y) = (0_i128, 0_i128);
        for (slot, &delta) in distances[1..].iter_mut().zip(deltas) {
            x += i128::from(refreshes_in(u64::from(delta), period)?);
            y += i128::from(delta);
            *slot = nanos_of((y << FRACTION_BITS) - self.offset - self.slope * x);
        }
        Some(())
    }
}

/// The size of a distance in 2⁻¹⁶ ns, in whole ns.
fn nanos_of(distance: i128) -> u64 {
    u64::try_from(distance.unsigned_abs() >> FRACTION_BITS).unwrap_or(u64::MAX)
}

/// A period in 2⁻¹⁶ ns as whole ns.
fn period_nanos_after(period: i64) -> u64 {
    // A period is never below one ns (see `follow`): the sign bit is clear.
    #[allow(clippy::cast_sign_loss, reason = "a period is positive")]
    let period = period as u64;
    period >> FRACTION_BITS
}

/// A value the lattice keeps far under 2⁶³ (a few seconds in 2⁻¹⁶ ns, or
/// a distance bounded by the spread, which is bounded by the period).
fn small(value: u64) -> i64 {
    #[allow(clippy::cast_possible_wrap, reason = "the value is far under 2^63")]
    let value = value as i64;
    value
}

/// A value under 2⁶³ (every value of a followed lattice is far under).
fn as_signed(value: u64) -> i64 {
    i64::try_from(value).unwrap_or(i64::MAX)
}

/// `delta` in whole periods (at least one), or `None` past `MOST_REFRESHES`.
fn refreshes_in(delta: u64, period: u64) -> Option<u64> {
    if period == 0 {
        return None;
    }
    let refreshes = ((delta + period / 2) / period).max(1);
    (refreshes <= MOST_REFRESHES).then_some(refreshes)
}

#[cfg(test)]
mod fast_path;

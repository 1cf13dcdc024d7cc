//! Judging a run by what the player saw: each shown frame's step count
//! against the refreshes that frame actually stayed on screen, read from the
//! display times of a capture. [`DisplayTiming`] measures the display's
//! refresh period from those times; [`Rule`] says which step counts are
//! right; [`Tally`] counts the wrong frames of one run, a row at a time, so
//! a capture of any length is judged in fixed memory.

use core::fmt;

use crate::rate::Rate;
use crate::rate::gcd;

/// Display rates a measured rate is matched to, within 0.5%: whole rates
/// only, so a display at 59.95 Hz is judged as the 60 Hz it was sold as (60
/// steps a second on it are one step a refresh) and never as 59.94 Hz. A
/// display that really runs at 60000/1001 Hz is judged so when the rate is
/// given.
pub(crate) const COMMON_RATES: [u64; 18] = [
    24, 25, 30, 48, 50, 60, 72, 75, 85, 90, 100, 120, 144, 165, 170, 180, 240, 360,
];

/// Width of a display-gap histogram bin, in ns.
const BIN_NANOS: u64 = 10_000;
/// Gaps up to this long are binned (one second); longer ones go to the last
/// bin, and count their refreshes exactly.
const BINS: usize = 100_000;
/// The most gaps over a second kept (each exactly, for its refreshes): a
/// capture that pauses this often is refused ([`TimingError::LongGaps`]), so
/// that memory stays fixed whatever the capture.
pub const MAX_LONG_GAPS: usize = 65_536;
/// Fraction of display gaps, in per mille, that must sit on a multiple of
/// the candidate period for the display to count as fixed-rate.
const FIT_PER_MILLE: u64 = 950;
/// The most refreshes the smallest common gap is split into when looking
/// for the period (a game at 30 fps on a 240 Hz display: 8).
const MOST_DIVISIONS: u64 = 8;
/// The finest part that can be a display's refresh, in ns (1,250 Hz): a
/// finer one fits a gap of any length, within the slack, a quarter of the
/// time or more by chance, so its lattice is no lattice.
const FINEST_PART_NANOS: u64 = 800_000;

/// The refresh period measured from a capture's display times.
///
/// The gaps between consecutive display times are binned; the smallest
/// common gap (the first percentile) is split into `n = 1, 2, ... 8` parts
/// until 95% of all gaps sit within 4% of a part (or 0.1 ms) of a whole
/// number of parts. That part is the display's refresh as the gaps show it:
/// each gap then covers `max(1, round(gap / part))` refreshes, and the
/// measured period is the displayed span (last display time minus first)
/// over the refreshes covered. The nominal rate is the measured one matched
/// to a common display rate within 0.5%.
///
/// A display whose every gap is two refreshes (a game capped at half the
/// refresh rate) measures at half its rate; the verdicts are the same.
///
/// A window composed by copy can show two frames in one refresh, and its
/// capture then has display gaps shorter than half a refresh, which hide
/// the lattice from the smallest common gap. When that finds no period, the
/// commonest gap is split instead, and gaps under half a part are set
/// aside: they cover no refresh, each may spoil the gap after it, and they
/// may be at most an eighth of all gaps. A period found so is kept only if
/// it matches a common rate.
///
/// # Examples
///
/// ```
/// use evenstep_lab::DisplayTiming;
///
/// let mut timing = DisplayTiming::new();
/// for k in 0..600_u64 {
///     // 60.002 Hz, with one refresh in ten repeated (a two-refresh gap).
///     timing.push(k * 16_666_111 + (k / 10) * 16_666_111);
/// }
/// let measured = timing.measure()?;
/// assert_eq!(measured.nominal().map(|rate| rate.to_string()), Some("60 Hz".to_owned()));
/// assert_eq!(measured.refreshes(), 599 + 59);
/// # Ok::<(), evenstep_lab::TimingError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DisplayTiming {
    bins: Vec<u32>,
    /// Gaps longer than the last bin, kept exactly (few: stalls), up to
    /// [`MAX_LONG_GAPS`].
    long: Vec<u64>,
    /// Whether there were more long gaps than that.
    too_many_long: bool,
    first: Option<u64>,
    last: Option<u64>,
    gaps: u64,
}

/// What [`DisplayTiming`] measured.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    span_nanos: u64,
    refreshes: u64,
    gaps: u64,
    part_nanos: u64,
    /// Gaps under half a part, counted as no refresh.
    shared: u64,
    nominal: Option<Rate>,
}

/// Why no refresh period could be measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimingError {
    /// Fewer than two display times.
    TooFew {
        /// How many there were.
        found: u64,
    },
    /// The gaps sit on no common period: a variable refresh display.
    NoSteadyRate {
        /// The smallest common gap, in ns.
        smallest_gap_nanos: u64,
        /// The best fraction of gaps, per mille, any candidate period fitted.
        best_fit_per_mille: u64,
    },
    /// More than [`MAX_LONG_GAPS`] display gaps over a second.
    LongGaps,
}

impl fmt::Display for TimingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimingError::TooFew { found } => write!(
                f,
                "{found} display time(s); judging by display needs at least two shown frames"
            ),
            TimingError::NoSteadyRate {
                smallest_gap_nanos,
                best_fit_per_mille,
            } => write!(
                f,
                "the display times keep no steady refresh rate (at best {}.{}% of the gaps sit \
                 on whole refreshes of a period from the smallest common gap, {:.3} ms): a \
                 variable refresh display. Give --display-hz to judge it against a rate anyway",
                best_fit_per_mille / 10,
                best_fit_per_mille % 10,
                *smallest_gap_nanos as f64 / 1e6
            ),
            TimingError::LongGaps => write!(
                f,
                "more than {MAX_LONG_GAPS} display gaps over a second (MAX_LONG_GAPS): a \
                 capture of pauses, not of a display showing a game; cut the pauses out"
            ),
        }
    }
}

impl std::error::Error for TimingError {}

impl DisplayTiming {
    /// Nothing measured yet.
    pub fn new() -> DisplayTiming {
        DisplayTiming {
            bins: vec![0; BINS],
            long: Vec::new(),
            too_many_long: false,
            first: None,
            last: None,
            gaps: 0,
        }
    }

    /// Adds the next shown frame's display time, in ns. A time not later
    /// than the previous one is ignored (that frame is judged as not shown).
    pub fn push(&mut self, display_nanos: u64) {
        if let Some(last) = self.last {
            if display_nanos <= last {
                return;
            }
            let gap = display_nanos - last;
            self.gaps += 1;
            match usize::try_from(gap / BIN_NANOS) {
                Ok(bin) if bin < BINS - 1 => self.bins[bin] = self.bins[bin].saturating_add(1),
                _ if self.long.len() < MAX_LONG_GAPS => self.long.push(gap),
                _ => self.too_many_long = true,
            }
        } else {
            self.first = Some(display_nanos);
        }
        self.last = Some(display_nanos);
    }

    /// The refresh period, or why there is none.
    ///
    /// # Errors
    ///
    /// [`TimingError::TooFew`] for fewer than two display times,
    /// [`TimingError::NoSteadyRate`] when the gaps keep no common period, and
    /// [`TimingError::LongGaps`] for more than [`MAX_LONG_GAPS`] gaps over a
    /// second.
    pub fn measure(&self) -> Result<Measured, TimingError> {
        if self.too_many_long {
            return Err(TimingError::LongGaps);
        }
        let (Some(first), Some(last)) = (self.first, self.last) else {
            return Err(TimingError::TooFew { found: 0 });
        };
        if self.gaps == 0 {
            return Err(TimingError::TooFew { found: 1 });
        }
        let smallest = self.percentile_gap(self.gaps / 100);
        let (found, best) = self.split(smallest, last - first);
        if found.is_none_or(|measured| measured.nominal.is_none())
            && let Some(measured) = self.split_beside_shared(last - first)
        {
            return Ok(measured);
        }
        found.ok_or(TimingError::NoSteadyRate {
            smallest_gap_nanos: smallest,
            best_fit_per_mille: best,
        })
    }

    /// The first part of `base` (split into 1 to 8) that 95% of the gaps
    /// sit on, measured over `span`, and the best fit of any part tried.
    fn split(&self, base: u64, span: u64) -> (Option<Measured>, u64) {
        let mut best = 0;
        for n in 1..=MOST_DIVISIONS {
            let part = base / n;
            if part < FINEST_PART_NANOS {
                break;
            }
            let fit = self.fitting(part, 0).saturating_mul(1_000) / self.gaps;
            best = best.max(fit);
            if fit >= FIT_PER_MILLE {
                let refreshes = self.refreshes_of(part);
                let measured = Measured::new(span, refreshes, self.gaps, part, 0);
                return (Some(measured), best);
            }
        }
        (None, best)
    }

    /// The first part of the commonest gap that the gaps sit on once those
    /// under half a part are set aside (at most an eighth of them, each
    /// allowed to spoil the gap after it), if its rate is a common one.
    fn split_beside_shared(&self, span: u64) -> Option<Measured> {
        let commonest = self.commonest_gap()?;
        (1..=MOST_DIVISIONS)
            .map(|n| commonest / n)
            .take_while(|&part| part >= FINEST_PART_NANOS)
            .find_map(|part| {
                let half = part - part / 2;
                let shared = self.shorter_than(half);
                let rest = self.gaps.saturating_sub(2 * shared);
                let fits = shared * 8 <= self.gaps
                    && self.fitting(part, half) * 1_000 >= FIT_PER_MILLE * rest;
                let refreshes = self.refreshes_of(part).saturating_sub(shared);
                let measured = Measured::new(span, refreshes, self.gaps, part, shared);
                (fits && measured.nominal.is_some()).then_some(measured)
            })
    }

    /// The middle of the fullest bin (the shortest of equals), if any gap
    /// is binned.
    fn commonest_gap(&self) -> Option<u64> {
        let (bin, &count) = self
            .bins
            .iter()
            .enumerate()
            .rev()
            .max_by_key(|&(_, &count)| count)?;
        (count > 0).then(|| bin as u64 * BIN_NANOS + BIN_NANOS / 2)
    }

    /// Gaps shorter than `nanos`.
    fn shorter_than(&self, nanos: u64) -> u64 {
        self.gap_counts()
            .filter(|&(gap, _)| gap < nanos)
            .map(|(_, count)| count)
            .sum()
    }

    /// The gap at `rank` from the smallest, to the bin's middle.
    fn percentile_gap(&self, rank: u64) -> u64 {
        let mut seen = 0_u64;
        for (bin, &count) in self.bins.iter().enumerate() {
            seen += u64::from(count);
            if seen > rank {
                return bin as u64 * BIN_NANOS + BIN_NANOS / 2;
            }
        }
        self.long.iter().copied().min().unwrap_or(BIN_NANOS)
    }

    /// The binned gaps as (gap in ns, how many), long ones included.
    fn gap_counts(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let binned = self
            .bins
            .iter()
            .enumerate()
            .filter(|&(_, &count)| count > 0)
            .map(|(bin, &count)| (bin as u64 * BIN_NANOS + BIN_NANOS / 2, u64::from(count)));
        binned.chain(self.long.iter().map(|&gap| (gap, 1)))
    }

    /// The gaps of at least `shortest` ns that sit within the slack of a
    /// whole number of parts.
    fn fitting(&self, part: u64, shortest: u64) -> u64 {
        let slack = (part / 25).max(100_000);
        self.gap_counts()
            .filter(|&(gap, _)| gap >= shortest)
            .filter(|&(gap, _)| {
                let whole = u128::from(refreshes(gap, part));
                u128::from(gap).abs_diff(whole * u128::from(part)) <= u128::from(slack)
            })
            .map(|(_, count)| count)
            .sum()
    }

    fn refreshes_of(&self, part: u64) -> u64 {
        self.gap_counts().fold(0, |sum: u64, (gap, count)| {
            sum.saturating_add(refreshes(gap, part).saturating_mul(count))
        })
    }
}

impl Default for DisplayTiming {
    fn default() -> DisplayTiming {
        DisplayTiming::new()
    }
}

impl Measured {
    /// A period given rather than measured: `rate` exactly.
    pub fn given(rate: Rate) -> Measured {
        Measured {
            span_nanos: 1_000_000_000 * rate.denominator(),
            refreshes: rate.numerator(),
            gaps: 0,
            part_nanos: rate.period_nanos(),
            shared: 0,
            nominal: Some(rate),
        }
    }

    /// `refreshes` over `span` ns, matched to a common rate.
    fn new(span: u64, refreshes: u64, gaps: u64, part: u64, shared: u64) -> Measured {
        Measured {
            span_nanos: span,
            refreshes,
            gaps,
            part_nanos: part,
            shared,
            nominal: match_common(span, refreshes),
        }
    }

    /// The common display rate the measured rate matched, if any.
    pub const fn nominal(&self) -> Option<Rate> {
        self.nominal
    }

    /// The measured rate in Hz.
    pub fn measured_hz(&self) -> f64 {
        self.refreshes as f64 * 1e9 / self.span_nanos as f64
    }

    /// The measured period in ns.
    pub fn period_nanos(&self) -> f64 {
        self.span_nanos as f64 / self.refreshes as f64
    }

    /// Refreshes covered by the shown frames.
    pub const fn refreshes(&self) -> u64 {
        self.refreshes
    }

    /// Display gaps measured.
    pub const fn gaps(&self) -> u64 {
        self.gaps
    }

    /// How many refreshes a display gap covers: `max(1, round(gap /
    /// period))` with the measured period.
    pub fn refreshes_in(&self, gap_nanos: u64) -> u64 {
        let num = u128::from(gap_nanos) * u128::from(self.refreshes);
        let den = u128::from(self.span_nanos);
        u64::try_from((2 * num + den) / (2 * den))
            .unwrap_or(u64::MAX)
            .max(1)
    }

    /// One line saying what was measured and from what.
    pub fn describe(&self) -> String {
        let nominal = match self.nominal {
            Some(rate) => format!("{rate}"),
            None => "no common rate within 0.5%".to_owned(),
        };
        if self.gaps == 0 {
            return format!("{nominal} (given)");
        }
        let shared = if self.shared == 0 {
            String::new()
        } else {
            format!(
                "; {} under half a refresh, two frames in one, set aside",
                self.shared
            )
        };
        format!(
            "{nominal} (measured {:.3} Hz: {} display gaps covering {} refreshes of {:.3} ms{shared})",
            self.measured_hz(),
            self.gaps,
            self.refreshes,
            self.period_nanos() / 1e6
        )
    }

    /// Display gaps shorter than half a refresh, counted as covering none:
    /// two frames shown in one refresh (0 unless the lattice was found
    /// only with them set aside).
    pub const fn shared(&self) -> u64 {
        self.shared
    }

    /// The part the smallest common gap was split into, in ns.
    pub const fn part_nanos(&self) -> u64 {
        self.part_nanos
    }
}

/// `max(1, round(gap / part))`, rounding half up, for any `gap` (a gap of
/// `u64::MAX` ns included: `gap + part / 2` would overflow).
pub(crate) fn refreshes(gap: u64, part: u64) -> u64 {
    let up = gap % part >= part - part / 2;
    (gap / part + u64::from(up)).max(1)
}

fn match_common(span: u64, refreshes: u64) -> Option<Rate> {
    // measured Hz = refreshes · 1e9 / span; compare with num/den within 0.5%.
    COMMON_RATES
        .iter()
        .filter_map(|&hz| {
            let measured = u128::from(refreshes) * 1_000_000_000;
            let common = u128::from(hz) * u128::from(span);
            let off = measured.abs_diff(common);
            (off * 200 <= common).then(|| (off * 1_000_000 / common, Rate::ratio(hz, 1).ok()))
        })
        .min_by_key(|&(off, _)| off)
        .and_then(|(_, rate)| rate)
}

/// Which step counts are right for a shown frame: with `r` = step rate /
/// refresh rate (exact) and a frame covering `k` refreshes, `floor(k·r)` or
/// `ceil(k·r)` steps; and with the previous shown frame (`k₁` refreshes,
/// `s₁` steps), the two together `floor((k₁+k)·r)` or `ceil((k₁+k)·r)`.
/// At 60 steps a second on a 60 Hz display that is simply `s = k`.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Rate, Rule};
///
/// let on_120 = Rule::new(Rate::hz(60)?, Rate::hz(120)?);
/// assert!(on_120.fits(1, 0) && on_120.fits(1, 1) && !on_120.fits(2, 0));
/// assert!(on_120.fits_pair((1, 1), (1, 0)) && !on_120.fits_pair((1, 1), (1, 1)));
/// # Ok::<(), evenstep_lab::RateError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// `r = steps / refreshes`, in lowest terms.
    steps: u64,
    refreshes: u64,
}

impl Rule {
    /// The rule for `step` steps a second on a display at `display`.
    pub fn new(step: Rate, display: Rate) -> Rule {
        let steps = u128::from(step.numerator()) * u128::from(display.denominator());
        let refreshes = u128::from(step.denominator()) * u128::from(display.numerator());
        let g = gcd(steps, refreshes);
        Rule {
            steps: u64::try_from(steps / g).unwrap_or(u64::MAX),
            refreshes: u64::try_from(refreshes / g).unwrap_or(u64::MAX),
        }
    }

    /// Whether `s` steps are right for a frame covering `k` refreshes.
    pub fn fits(&self, k: u64, s: u64) -> bool {
        let num = u128::from(k) * u128::from(self.steps);
        let den = u128::from(self.refreshes);
        let s = u128::from(s);
        num / den <= s && s <= num.div_ceil(den)
    }

    /// Whether two consecutive shown frames, `(k₁, s₁)` then `(k₂, s₂)`,
    /// ran the right number of steps together.
    pub fn fits_pair(&self, first: (u64, u64), second: (u64, u64)) -> bool {
        self.fits(
            first.0.saturating_add(second.0),
            first.1.saturating_add(second.1),
        )
    }
}

/// The wrong frames of one run, counted a row at a time: push every
/// presented frame in order with the steps the planner ran on it and its
/// display time (`None` when never shown). Steps of frames never shown
/// count toward the next shown frame; the first shown frame only starts the
/// count.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Measured, Rate, Rule, Tally};
///
/// let measured = Measured::given(Rate::hz(60)?);
/// let rule = Rule::new(Rate::hz(60)?, Rate::hz(60)?);
/// let mut tally = Tally::new();
/// let period = 16_666_667;
/// tally.push(&measured, &rule, Some(0), 1);
/// tally.push(&measured, &rule, None, 1); // never shown: its step carries
/// tally.push(&measured, &rule, Some(period), 0); // 1 refresh, 1 step: right
/// tally.push(&measured, &rule, Some(3 * period), 1); // 2 refreshes, 1 step: wrong
/// assert_eq!((tally.wrong(), tally.judged()), (1, 2));
/// # Ok::<(), evenstep_lab::RateError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    last_display: Option<u64>,
    steps: u64,
    previous: Option<(u64, u64)>,
    wrong: u64,
    judged: u64,
}

impl Tally {
    /// Nothing counted.
    pub const fn new() -> Tally {
        Tally {
            last_display: None,
            steps: 0,
            previous: None,
            wrong: 0,
            judged: 0,
        }
    }

    /// One presented frame: `steps` run on it, shown at `display` (ns).
    pub fn push(&mut self, measured: &Measured, rule: &Rule, display: Option<u64>, steps: u64) {
        self.steps = self.steps.saturating_add(steps);
        let Some(display) = display else {
            return;
        };
        let Some(last) = self.last_display else {
            self.last_display = Some(display);
            self.steps = 0;
            return;
        };
        if display <= last {
            return; // judged as not shown
        }
        let k = measured.refreshes_in(display - last);
        let s = core::mem::take(&mut self.steps);
        let right = rule.fits(k, s)
            && self
                .previous
                .is_none_or(|previous| rule.fits_pair(previous, (k, s)));
        self.wrong += u64::from(!right);
        self.judged += 1;
        self.previous = Some((k, s));
        self.last_display = Some(display);
    }

    /// Shown frames judged wrong.
    pub const fn wrong(&self) -> u64 {
        self.wrong
    }

    /// Shown frames judged (every shown frame after the first).
    pub const fn judged(&self) -> u64 {
        self.judged
    }
}

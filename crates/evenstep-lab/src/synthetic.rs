//! Synthetic display traces: ideal vsync instants at an exact rational rate,
//! plus integer jitter from a seeded [`SplitMix64`], with missed refreshes,
//! stalls, variable refresh and a hidden-tab gap on request. The same
//! description and seed always give the same trace.

use core::fmt;
use core::fmt::Write as _;
use core::str::FromStr;
use core::time::Duration;

use crate::rate::Rate;
use crate::rng::SplitMix64;
use crate::trace::{Refresh, Trace};

/// Where the first ideal refresh of a synthetic trace lands: one second in,
/// so negative jitter never meets zero.
const START_NANOS: u64 = 1_000_000_000;

/// The longest stall a trace may describe: an hour. A display that shows
/// nothing for longer is a hidden page ([`Synthetic::hidden`]).
pub const MAX_STALL_MILLIS: u64 = 3_600_000;

/// The latest a hidden span may start, and the longest it may last: a day.
pub const MAX_HIDDEN: Duration = Duration::from_secs(86_400);

/// The most frames a synthetic trace ([`Synthetic`], [`Queued`](crate::Queued))
/// may have: ten million, about 46 hours at 60 Hz. A trace is held in
/// memory, and every configuration's run of it too.
pub const MAX_FRAMES: usize = 10_000_000;

/// The shape of timestamp jitter. Both are integer-only and bounded by the
/// amplitude.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Jitter {
    /// Uniform in `[-amplitude, amplitude]`.
    #[default]
    Uniform,
    /// Normal-ish: the mean of four uniform draws in `[-amplitude,
    /// amplitude]` (an Irwin–Hall bell, standard deviation about 0.29 ·
    /// amplitude, still bounded by the amplitude).
    Normal,
}

impl fmt::Display for Jitter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Jitter::Uniform => "uniform",
            Jitter::Normal => "normal",
        })
    }
}

impl FromStr for Jitter {
    type Err = String;

    fn from_str(text: &str) -> Result<Jitter, String> {
        match text.trim() {
            "uniform" => Ok(Jitter::Uniform),
            "normal" => Ok(Jitter::Normal),
            other => Err(format!(
                "a jitter distribution `{other}`; expected `uniform` or `normal`"
            )),
        }
    }
}

/// A description of a synthetic display trace.
///
/// Frame 0 lands on refresh 0; each later frame lands on the next refresh,
/// exactly `start + k · period` for refresh `k` (the period is a rational
/// number of nanoseconds, so there is no rounding drift), plus jitter: the
/// refresh is the frame's display time, the jittered instant its stamp. On
/// top of that, each option bends the schedule:
///
/// - **missed refreshes** (per mille, drawn per frame): the frame lands one
///   refresh later than it would have;
/// - **stalls** (every `n` frames, `ms` long): that frame lands on the first
///   refresh at least `ms` after the previous frame's;
/// - **a hidden tab** (at `at` from the first frame, for `span`): no frames
///   from `at` until `at + span`, then the first refresh after that;
/// - **variable refresh** (between two rates): each frame's period is drawn
///   uniformly between the two periods, in whole nanoseconds.
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Jitter, Rate, Synthetic};
///
/// let spec = Synthetic::new(Rate::hz(60)?).frames(100)?.jitter_us(750, Jitter::Uniform).seed(3);
/// let trace = spec.generate();
/// assert_eq!(trace.len(), 100);
/// assert_eq!(trace.name(), "60 Hz ±0.75 ms");
/// assert_eq!(spec.generate(), trace); // a seed is a trace
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Synthetic {
    rate: Rate,
    frames: usize,
    jitter_us: u64,
    jitter: Jitter,
    seed: u64,
    miss_per_mille: u32,
    stall: Option<(u64, u64)>,
    variable: Option<(Rate, Rate)>,
    hidden: Option<(Duration, Duration)>,
    name: Option<String>,
}

impl Synthetic {
    /// 10,000 frames of a display at `rate`, no jitter, seed 1, nothing
    /// missed.
    pub fn new(rate: Rate) -> Synthetic {
        Synthetic {
            rate,
            frames: 10_000,
            jitter_us: 0,
            jitter: Jitter::Uniform,
            seed: 1,
            miss_per_mille: 0,
            stall: None,
            variable: None,
            hidden: None,
            name: None,
        }
    }

    /// The number of frames.
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Frames`] if `frames` is over [`MAX_FRAMES`].
    pub fn frames(mut self, frames: usize) -> Result<Synthetic, SyntheticError> {
        self.frames = checked_frames(frames)?;
        Ok(self)
    }

    /// Timestamp jitter of `amplitude_us` microseconds, shaped by `jitter`.
    #[must_use = "builder methods return the changed description"]
    pub fn jitter_us(mut self, amplitude_us: u64, jitter: Jitter) -> Synthetic {
        self.jitter_us = amplitude_us;
        self.jitter = jitter;
        self
    }

    /// The seed of the jitter and of every random choice.
    #[must_use = "builder methods return the changed description"]
    pub fn seed(mut self, seed: u64) -> Synthetic {
        self.seed = seed;
        self
    }

    /// Each frame after the first misses its refresh with probability
    /// `per_mille / 1000` (capped at 1000).
    #[must_use = "builder methods return the changed description"]
    pub fn missed_per_mille(mut self, per_mille: u32) -> Synthetic {
        self.miss_per_mille = per_mille.min(1_000);
        self
    }

    /// Every `every` frames (0: never), a stall of `millis` milliseconds.
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Stall`] if `millis` is over [`MAX_STALL_MILLIS`].
    pub fn stalls(mut self, every: u64, millis: u64) -> Result<Synthetic, SyntheticError> {
        if millis > MAX_STALL_MILLIS {
            return Err(SyntheticError::Stall { millis });
        }
        self.stall = (every > 0).then_some((every, millis));
        Ok(self)
    }

    /// A variable refresh rate display between `slowest` and `fastest` (in
    /// either order). The constructor's rate is then unused.
    #[must_use = "builder methods return the changed description"]
    pub fn variable(mut self, slowest: Rate, fastest: Rate) -> Synthetic {
        let (slowest, fastest) = if slowest.as_f64() <= fastest.as_f64() {
            (slowest, fastest)
        } else {
            (fastest, slowest)
        };
        self.variable = Some((slowest, fastest));
        self
    }

    /// The page is hidden (no frames) from `at` after the first frame, for
    /// `span`.
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Hidden`] if `at` or `span` is over [`MAX_HIDDEN`].
    pub fn hidden(mut self, at: Duration, span: Duration) -> Result<Synthetic, SyntheticError> {
        if at > MAX_HIDDEN || span > MAX_HIDDEN {
            return Err(SyntheticError::Hidden { at, span });
        }
        self.hidden = Some((at, span));
        Ok(self)
    }

    /// Names the trace (by default the name describes it).
    #[must_use = "builder methods return the changed description"]
    pub fn named(mut self, name: impl Into<String>) -> Synthetic {
        self.name = Some(name.into());
        self
    }

    /// The display's refresh.
    pub fn refresh(&self) -> Refresh {
        match self.variable {
            Some((slowest, fastest)) => Refresh::Variable { slowest, fastest },
            None => Refresh::Fixed(self.rate),
        }
    }

    /// The trace's name: the one given, or a description such as
    /// `60 Hz ±0.75 ms, 1% missed`.
    pub fn name(&self) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let mut name = match self.variable {
            Some((slowest, fastest)) => {
                let slowest = slowest.to_string();
                format!("VRR {}–{fastest}", slowest.trim_end_matches(" Hz"))
            }
            None => self.rate.to_string(),
        };
        if self.jitter_us > 0 {
            let _ = write!(
                name,
                " ±{}",
                millis_text(u128::from(self.jitter_us) * 1_000)
            );
            if self.jitter == Jitter::Normal {
                name += " normal";
            }
        }
        if self.miss_per_mille > 0 {
            let tenths = self.miss_per_mille;
            let percent = if tenths % 10 == 0 {
                (tenths / 10).to_string()
            } else {
                format!("{}.{}", tenths / 10, tenths % 10)
            };
            let _ = write!(name, ", {percent}% missed");
        }
        if let Some((every, millis)) = self.stall {
            let _ = write!(name, ", {millis} ms stall every {every}");
        }
        if let Some((at, span)) = self.hidden {
            let _ = write!(
                name,
                ", hidden {} s at {} s",
                seconds_text(span),
                seconds_text(at)
            );
        }
        name
    }

    /// Generates the trace. A trace whose frames would land past `u64::MAX`
    /// nanoseconds (585 years, reachable only with millions of hour-long
    /// stalls) ends with the last frame before that.
    pub fn generate(&self) -> Trace {
        // Two streams: the seed's own for the jitter, and one seeded by its
        // first draw for the schedule, so that adding misses or stalls never
        // changes the jitter a frame gets.
        let mut rng = SplitMix64::new(self.seed);
        let mut schedule = SplitMix64::new(rng.next_u64());
        let offsets = match self.variable {
            None => self.fixed_offsets(&mut schedule),
            Some((slowest, fastest)) => self.variable_offsets(&mut schedule, slowest, fastest),
        };
        let amplitude = self.jitter_us.saturating_mul(1_000);
        let stamps = offsets
            .iter()
            .map(|&offset| {
                let jitter = match self.jitter {
                    Jitter::Uniform => rng.symmetric(amplitude),
                    Jitter::Normal => {
                        // Four draws of up to 2^62 each need more than an i64.
                        let sum: i128 = (0..4).map(|_| i128::from(rng.symmetric(amplitude))).sum();
                        (sum / 4) as i64
                    }
                };
                START_NANOS
                    .saturating_add(offset)
                    .saturating_add_signed(jitter)
            })
            .collect();
        // Each frame reaches the screen on the refresh it was meant for.
        let display = offsets
            .iter()
            .map(|&offset| Some(START_NANOS + offset))
            .collect();
        Trace::new(self.name(), stamps, self.refresh()).with_display(display)
    }

    /// Whether this frame misses its refresh.
    fn misses(&self, rng: &mut SplitMix64) -> bool {
        self.miss_per_mille > 0 && rng.below(1_000) < u64::from(self.miss_per_mille)
    }

    /// Each frame's ideal instant after the first refresh, on a fixed-rate
    /// display: always a refresh instant, exactly.
    fn fixed_offsets(&self, rng: &mut SplitMix64) -> Vec<u64> {
        let rate = self.rate;
        let mut offsets = Vec::with_capacity(self.frames);
        let mut refresh = 0_u64;
        let mut hidden = self.hidden;
        for k in 0..self.frames as u64 {
            if k > 0 {
                let previous = refresh;
                refresh += 1;
                if self.misses(rng) {
                    refresh += 1;
                }
                if let Some((every, millis)) = self.stall
                    && k % every == 0
                {
                    let earliest = rate.refresh_at(previous).saturating_add(millis * 1_000_000);
                    refresh = refresh.max(rate.first_tick_at_or_after(earliest));
                }
                if let Some((at, span)) = hidden
                    && rate.refresh_at(refresh) >= nanos(at)
                {
                    hidden = None;
                    let back = nanos(at).saturating_add(nanos(span));
                    refresh = refresh.max(rate.first_tick_at_or_after(back));
                }
            }
            let offset = rate.refresh_at(refresh);
            if !fits(offset, &offsets) {
                break;
            }
            offsets.push(offset);
        }
        offsets
    }

    /// Each frame's ideal instant after the first, on a variable refresh
    /// display: a sum of drawn periods.
    fn variable_offsets(&self, rng: &mut SplitMix64, slowest: Rate, fastest: Rate) -> Vec<u64> {
        let (shortest, longest) = (fastest.period_nanos(), slowest.period_nanos());
        let draw = |rng: &mut SplitMix64| shortest + rng.below(longest - shortest + 1);
        let mut offsets = Vec::with_capacity(self.frames);
        let mut now = 0_u64;
        let mut hidden = self.hidden;
        for k in 0..self.frames as u64 {
            if k > 0 {
                let previous = now;
                now = now.saturating_add(draw(rng));
                if self.misses(rng) {
                    now = now.saturating_add(draw(rng));
                }
                if let Some((every, millis)) = self.stall
                    && k % every == 0
                {
                    now = now.max(previous.saturating_add(millis * 1_000_000));
                }
                if let Some((at, span)) = hidden
                    && now >= nanos(at)
                {
                    hidden = None;
                    now = now.max(nanos(at).saturating_add(nanos(span)));
                }
            }
            if !fits(now, &offsets) {
                break;
            }
            offsets.push(now);
        }
        offsets
    }
}

/// Whether a frame at `offset` lands before the end of time. Frames are
/// always later than the one before; only an offset that saturated at
/// `u64::MAX` is not, and neither is one the start would push past it.
fn fits(offset: u64, offsets: &[u64]) -> bool {
    offset <= u64::MAX - START_NANOS && offsets.last().is_none_or(|&last| offset > last)
}

/// `frames`, if it is at most [`MAX_FRAMES`].
pub(crate) fn checked_frames(frames: usize) -> Result<usize, SyntheticError> {
    if frames > MAX_FRAMES {
        return Err(SyntheticError::Frames { frames });
    }
    Ok(frames)
}

/// Why a [`Synthetic`] (or [`Queued`](crate::Queued)) trace description was
/// refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SyntheticError {
    /// More frames than [`MAX_FRAMES`].
    Frames {
        /// The frames asked for.
        frames: usize,
    },
    /// A stall over [`MAX_STALL_MILLIS`].
    Stall {
        /// The stall asked for, in milliseconds.
        millis: u64,
    },
    /// A hidden span starting or lasting over [`MAX_HIDDEN`].
    Hidden {
        /// When the span was to start.
        at: Duration,
        /// How long it was to last.
        span: Duration,
    },
    /// A [`Queued`](crate::Queued) span over
    /// [`MAX_SPAN_MICROS`](crate::MAX_SPAN_MICROS).
    Span {
        /// What the span was for, such as `render work`.
        what: &'static str,
        /// The span asked for, in µs.
        micros: u64,
    },
    /// A [`Queued`](crate::Queued) share of frames over 1000 per mille,
    /// alone or with the share beside it (slow frames and hitches together).
    PerMille {
        /// Which frames, such as `hitches`.
        what: &'static str,
        /// The share asked for, per mille.
        per_mille: u64,
    },
    /// A [`Queued`](crate::Queued) burst longer than [`MAX_FRAMES`].
    Burst {
        /// The burst's length asked for, in frames.
        frames: u64,
    },
}

impl fmt::Display for SyntheticError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntheticError::Frames { frames } => write!(
                f,
                "a trace of {frames} frames; a synthetic trace has at most {MAX_FRAMES} frames \
                 (MAX_FRAMES)"
            ),
            SyntheticError::Stall { millis } => write!(
                f,
                "a stall of {millis} ms; a stall lasts from 0 to {MAX_STALL_MILLIS} ms \
                 (an hour; for longer, hide the page)"
            ),
            SyntheticError::Hidden { at, span } => write!(
                f,
                "hidden at {at:?} for {span:?}; the start and the span are each at most {} s",
                MAX_HIDDEN.as_secs()
            ),
            SyntheticError::Span { what, micros } => write!(
                f,
                "{what} of {micros} µs; a queued capture's spans are each at most \
                 {} µs (an hour, MAX_SPAN_MICROS)",
                crate::queued::MAX_SPAN_MICROS
            ),
            SyntheticError::PerMille { what, per_mille } => write!(
                f,
                "{what} in {per_mille}‰ of frames; a share is 0 to 1000‰, and slow frames \
                 and hitches together at most 1000‰"
            ),
            SyntheticError::Burst { frames } => write!(
                f,
                "a burst of {frames} frames; a burst lasts at most {MAX_FRAMES} frames \
                 (MAX_FRAMES)"
            ),
        }
    }
}

impl std::error::Error for SyntheticError {}

fn nanos(duration: Duration) -> u64 {
    u64::try_from(duration.as_nanos()).unwrap_or(u64::MAX)
}

/// `nanos` as milliseconds with trailing zeros trimmed: `0.75 ms`.
pub(crate) fn millis_text(nanos: u128) -> String {
    let text = format!("{}.{:06}", nanos / 1_000_000, nanos % 1_000_000);
    format!("{} ms", text.trim_end_matches('0').trim_end_matches('.'))
}

fn seconds_text(duration: Duration) -> String {
    let text = format!("{}.{:09}", duration.as_secs(), duration.subsec_nanos());
    text.trim_end_matches('0').trim_end_matches('.').to_owned()
}

//! Synthetic captures that look like real present times: a game behind a
//! vsync queue. The display refreshes on an exact lattice; the game calls
//! Present after its own render work, which is noisy, now and then slow,
//! rarely very slow; Present blocks while the queue is full, so the game's
//! next frame starts on a refresh; each frame reaches the screen on the
//! first refresh after it is ready, one frame a refresh. The stamps a game
//! reads (the present times) then swing by milliseconds around the period
//! while the screen shows one frame a refresh, and when the queue drains or
//! changes depth, present gaps and display gaps span different numbers of
//! refreshes. Every capture is both columns, so it is judged by what the
//! player saw.

use core::fmt::Write as _;

use crate::rate::Rate;
use crate::rng::SplitMix64;
use crate::synthetic::{MAX_FRAMES, SyntheticError, checked_frames};
use crate::trace::{Refresh, Trace};

/// Where the first refresh lands, in ns.
const START_NANOS: u64 = 1_000_000_000;

/// The longest span a [`Queued`] capture may describe, in µs: an hour, for
/// each of its render work, noise, slow frames, hitches, GPU time, burst
/// speed-up and display jitter. Every sum of them then fits in a `u64` of
/// nanoseconds; only millions of hour-long frames reach the end of time,
/// where the capture ends.
pub const MAX_SPAN_MICROS: u64 = 3_600_000_000;

/// A game presenting through a vsync queue, described.
///
/// Each frame's render work is `render_us` plus noise (the mean of four
/// uniform draws in ±`noise_us`, a bell), plus with probability
/// `slow_per_mille`/1000 an extra `slow_us` range (a slow frame), or with
/// `stall_per_mille`/1000 an extra `stall_us` range (a hitch). The GPU
/// finishes a frame `gpu_us` after Present. Present returns once fewer than
/// `depth` frames wait for the screen; the depth is drawn again from
/// `depths` with probability `depth_change_per_mille`/1000 a frame.
///
/// A game whose own frame time sits a little over the refresh period
/// (`render_us` near a period) is held back by the queue only in its
/// [bursts] of faster frames, which fill the queue; between them it runs a
/// little slower than the display, the queue drains, and once it is empty a
/// frame misses its refresh and the one before stays on screen two. A deep
/// queue (`depth` up to 8) behind a long GPU stage then shows a latency
/// that wanders over several refreshes. Display times may carry a little
/// jitter of their own ([`display_jitter`]), as a capture tool's do.
///
/// [bursts]: Queued::bursts
/// [`display_jitter`]: Queued::display_jitter
///
/// # Examples
///
/// ```
/// use evenstep_lab::{Queued, Rate};
///
/// let trace = Queued::new("59.95".parse::<Rate>()?).frames(600)?.seed(4).generate();
/// assert_eq!(trace.len(), 600);
/// let shown = trace.display().unwrap();
/// assert!(shown.iter().all(Option::is_some)); // vsync: every frame is shown
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Queued {
    rate: Rate,
    frames: usize,
    seed: u64,
    render_us: u64,
    noise_us: u64,
    slow_per_mille: u64,
    slow_us: (u64, u64),
    stall_per_mille: u64,
    stall_us: (u64, u64),
    gpu_us: u64,
    depths: Vec<u64>,
    depth_change_per_mille: u64,
    /// Bursts of faster frames: the chance a frame starts one, in 1/1000
    /// (0: none), how many frames one lasts (a range), and how much less
    /// render work, in µs, each of its frames takes.
    burst_per_mille: u64,
    burst_frames: (u64, u64),
    burst_faster_us: u64,
    /// The bound, in µs, of the uniform jitter on display times (0: none).
    display_jitter_us: u64,
}

impl Queued {
    /// Whether the queue is ever deeper than three frames (the suite's deep
    /// queues).
    pub(crate) fn is_deep(&self) -> bool {
        self.depths.iter().any(|&depth| depth > 3)
    }

    /// 10,000 frames on a display at `rate`: 5 ms of render work ±0.6 ms,
    /// 4% of frames 2–8 ms slower, 0.5% 10–35 ms slower, 2 ms on the GPU, a
    /// queue two frames deep that never changes, seed 1.
    pub fn new(rate: Rate) -> Queued {
        Queued {
            rate,
            frames: 10_000,
            seed: 1,
            render_us: 5_000,
            noise_us: 1_200,
            slow_per_mille: 40,
            slow_us: (2_000, 8_000),
            stall_per_mille: 5,
            stall_us: (10_000, 35_000),
            gpu_us: 2_000,
            depths: vec![2],
            depth_change_per_mille: 0,
            burst_per_mille: 0,
            burst_frames: (0, 0),
            burst_faster_us: 0,
            display_jitter_us: 0,
        }
    }

    /// The number of frames.
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Frames`] if `frames` is over
    /// [`MAX_FRAMES`](crate::MAX_FRAMES).
    pub fn frames(mut self, frames: usize) -> Result<Queued, SyntheticError> {
        self.frames = checked_frames(frames)?;
        Ok(self)
    }

    /// The seed of every random choice.
    #[must_use = "builder methods return the changed description"]
    pub fn seed(mut self, seed: u64) -> Queued {
        self.seed = seed;
        self
    }

    /// Render work of `render_us` ± `noise_us` (a bell, bounded).
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Span`] if either is over [`MAX_SPAN_MICROS`].
    pub fn render(mut self, render_us: u64, noise_us: u64) -> Result<Queued, SyntheticError> {
        self.render_us = span("render work", render_us)?;
        self.noise_us = span("render noise", noise_us)?;
        Ok(self)
    }

    /// Slow frames: `per_mille` of them take `min_us` to `max_us` longer.
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Span`] if `min_us` or `max_us` is over
    /// [`MAX_SPAN_MICROS`], [`SyntheticError::PerMille`] if `per_mille` is
    /// over 1000 or, with the hitches' share, adds up to more.
    pub fn slow(
        mut self,
        per_mille: u64,
        min_us: u64,
        max_us: u64,
    ) -> Result<Queued, SyntheticError> {
        self.slow_per_mille = share("slow frames", per_mille, self.stall_per_mille)?;
        self.slow_us = spans("a slow frame", min_us, max_us)?;
        Ok(self)
    }

    /// Hitches: `per_mille` of frames take `min_us` to `max_us` longer.
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Span`] if `min_us` or `max_us` is over
    /// [`MAX_SPAN_MICROS`], [`SyntheticError::PerMille`] if `per_mille` is
    /// over 1000 or, with the slow frames' share, adds up to more.
    pub fn stalls(
        mut self,
        per_mille: u64,
        min_us: u64,
        max_us: u64,
    ) -> Result<Queued, SyntheticError> {
        self.stall_per_mille = share("hitches", per_mille, self.slow_per_mille)?;
        self.stall_us = spans("a hitch", min_us, max_us)?;
        Ok(self)
    }

    /// The queue's depth (frames Present lets wait for the screen), drawn
    /// from `depths` again with probability `change_per_mille`/1000 a
    /// frame. The first depth is the starting one.
    #[must_use = "builder methods return the changed description"]
    pub fn queue(mut self, depths: &[u64], change_per_mille: u64) -> Queued {
        let depths: Vec<u64> = depths.iter().map(|&d| d.max(1)).collect();
        self.depths = if depths.is_empty() { vec![2] } else { depths };
        self.depth_change_per_mille = change_per_mille;
        self
    }

    /// Time on the GPU: a frame is ready `gpu_us` after its Present (a
    /// long one stands for a driver's own render-ahead).
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Span`] if `gpu_us` is over [`MAX_SPAN_MICROS`].
    pub fn gpu(mut self, gpu_us: u64) -> Result<Queued, SyntheticError> {
        self.gpu_us = span("GPU time", gpu_us)?;
        Ok(self)
    }

    /// Bursts of faster frames: with probability `per_mille`/1000 a frame
    /// starts a burst of `min_frames` to `max_frames` frames, each taking
    /// `faster_us` less render work. With render work a little over the
    /// refresh period, the game runs slower than the display between bursts
    /// (the queue drains, and frames miss their refreshes once it is empty)
    /// and faster in them (the queue fills, and Present blocks once it is
    /// full).
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Span`] if `faster_us` is over [`MAX_SPAN_MICROS`],
    /// [`SyntheticError::PerMille`] if `per_mille` is over 1000, and
    /// [`SyntheticError::Burst`] if `max_frames` is over [`MAX_FRAMES`].
    pub fn bursts(
        mut self,
        per_mille: u64,
        min_frames: u64,
        max_frames: u64,
        faster_us: u64,
    ) -> Result<Queued, SyntheticError> {
        self.burst_per_mille = share("bursts", per_mille, 0)?;
        let longest = min_frames.max(max_frames);
        if longest > MAX_FRAMES as u64 {
            return Err(SyntheticError::Burst { frames: longest });
        }
        self.burst_frames = (min_frames, longest);
        self.burst_faster_us = span("a burst's speed-up", faster_us)?;
        Ok(self)
    }

    /// Display times jittered uniformly by up to ±`jitter_us`, as a capture
    /// tool's timestamps are; each stays after the one before.
    ///
    /// # Errors
    ///
    /// [`SyntheticError::Span`] if `jitter_us` is over [`MAX_SPAN_MICROS`].
    pub fn display_jitter(mut self, jitter_us: u64) -> Result<Queued, SyntheticError> {
        self.display_jitter_us = span("display jitter", jitter_us)?;
        Ok(self)
    }

    /// The capture's name, such as `59.95 Hz vsync, queue 1–3`.
    pub fn name(&self) -> String {
        let mut name = format!("{} vsync", self.rate);
        let (low, high) = (
            self.depths.iter().min().copied().unwrap_or(2),
            self.depths.iter().max().copied().unwrap_or(2),
        );
        if low == high {
            let _ = write!(name, ", queue {low}");
        } else {
            let _ = write!(name, ", queue {low}–{high}");
        }
        if self.burst_per_mille > 0 {
            let _ = write!(
                name,
                ", pace {} ms, {}‰ bursts",
                format_thousandths(self.render_us),
                self.burst_per_mille
            );
        }
        if self.noise_us >= 2_000 {
            // Tenths of a millisecond, formatted as tenths of a per cent.
            let _ = write!(
                name,
                ", render ±{} ms",
                format_per_mille(self.noise_us / 100)
            );
        }
        let _ = write!(name, ", {}% slow", format_per_mille(self.slow_per_mille));
        if self.stall_per_mille > 0 {
            let _ = write!(
                name,
                ", {}% hitches",
                format_per_mille(self.stall_per_mille)
            );
        }
        name
    }

    /// Generates the capture: present times as the stamps, display times
    /// beside them, on a fixed display at the rate given. A capture whose
    /// frames would land past `u64::MAX` nanoseconds (585 years: millions of
    /// hour-long frames, or a display slower than a refresh a century) ends
    /// with the last frame before that.
    pub fn generate(&self) -> Trace {
        let mut rng = SplitMix64::new(self.seed);
        let mut stamps = Vec::with_capacity(self.frames);
        let mut display: Vec<Option<u64>> = Vec::with_capacity(self.frames);
        let mut shown_at: Vec<u64> = Vec::with_capacity(self.frames);
        let mut state = Pipeline {
            depth: self.depths[0],
            start: START_NANOS,
            last_refresh: None,
            burst_left: 0,
            last_shown: 0,
        };
        for i in 0..self.frames {
            let Some((present, shown)) = self.frame(&mut rng, &mut state) else {
                break;
            };
            let Some(at) = self.jittered(&mut rng, shown, &mut state.last_shown) else {
                break;
            };
            stamps.push(present);
            display.push(Some(at));
            shown_at.push(shown);
            // Present returns once fewer than `depth` frames wait: when the
            // frame `depth - 1` before this one has reached the screen.
            let blocker = i.checked_sub(usize::try_from(state.depth).unwrap_or(1) - 1);
            state.start = blocker.map_or(present, |j| present.max(shown_at[j]));
        }
        Trace::new(self.name(), stamps, Refresh::Fixed(self.rate)).with_display(display)
    }
}

/// Where the game and the queue stand between two frames.
struct Pipeline {
    depth: u64,
    /// When the next frame's render work starts, in ns.
    start: u64,
    /// The refresh the last frame reached.
    last_refresh: Option<u64>,
    /// Frames left in the current burst.
    burst_left: u64,
    /// The last display time written, jittered.
    last_shown: u64,
}

impl Queued {
    /// The next frame's present time and the refresh it reaches, in ns, or
    /// `None` past the end of time. Each span is at most
    /// [`MAX_SPAN_MICROS`], so only the running time can overflow.
    fn frame(&self, rng: &mut SplitMix64, state: &mut Pipeline) -> Option<(u64, u64)> {
        if self.depth_change_per_mille > 0 && rng.below(1_000) < self.depth_change_per_mille {
            state.depth = self.depths[rng.below(self.depths.len() as u64) as usize];
        }
        let noise = (0..4)
            .map(|_| rng.symmetric(self.noise_us * 1_000))
            .sum::<i64>()
            / 4;
        let mut work = (self.render_us * 1_000)
            .saturating_add_signed(noise - self.burst(rng, &mut state.burst_left))
            .max(500_000);
        let roll = rng.below(1_000);
        if roll < self.stall_per_mille {
            work += between(rng, self.stall_us) * 1_000;
        } else if roll < self.stall_per_mille + self.slow_per_mille {
            work += between(rng, self.slow_us) * 1_000;
        }
        let present = state.start.checked_add(work)?;
        let ready = present.checked_add(self.gpu_us * 1_000)?;
        // The first refresh at or after the frame is ready, and after the
        // previous frame's.
        let mut k = self.rate.first_tick_at_or_after(ready - START_NANOS);
        if let Some(last) = state.last_refresh {
            k = k.max(last.checked_add(1)?);
        }
        state.last_refresh = Some(k);
        // `refresh_at` saturates at `u64::MAX`, which the start pushes over.
        let shown = START_NANOS.checked_add(self.rate.refresh_at(k))?;
        Some((present, shown))
    }

    /// How much faster, in ns, this frame's render work is: a burst's
    /// `burst_faster_us`, or 0 (drawing nothing without bursts).
    fn burst(&self, rng: &mut SplitMix64, left: &mut u64) -> i64 {
        if self.burst_per_mille == 0 {
            return 0;
        }
        if *left == 0 && rng.below(1_000) < self.burst_per_mille {
            *left = between(rng, self.burst_frames);
        }
        if *left == 0 {
            return 0;
        }
        *left -= 1;
        i64::try_from(self.burst_faster_us * 1_000).unwrap_or(i64::MAX)
    }

    /// The display time of a frame shown at `shown`, jittered (drawing
    /// nothing without jitter), and after the one before; `None` when that
    /// is past the end of time.
    fn jittered(&self, rng: &mut SplitMix64, shown: u64, last: &mut u64) -> Option<u64> {
        if self.display_jitter_us == 0 {
            return Some(shown);
        }
        let at = shown
            .saturating_add_signed(rng.symmetric(self.display_jitter_us * 1_000))
            .max(last.checked_add(1)?);
        *last = at;
        Some(at)
    }
}

/// `micros`, if it is at most [`MAX_SPAN_MICROS`].
fn span(what: &'static str, micros: u64) -> Result<u64, SyntheticError> {
    if micros > MAX_SPAN_MICROS {
        return Err(SyntheticError::Span { what, micros });
    }
    Ok(micros)
}

/// `(low, high)` in order, if both are at most [`MAX_SPAN_MICROS`].
fn spans(what: &'static str, low: u64, high: u64) -> Result<(u64, u64), SyntheticError> {
    Ok((span(what, low)?, span(what, high.max(low))?))
}

/// `per_mille`, if it and `other`, the share beside it, add up to at most
/// 1000.
fn share(what: &'static str, per_mille: u64, other: u64) -> Result<u64, SyntheticError> {
    if per_mille.saturating_add(other) > 1_000 {
        return Err(SyntheticError::PerMille { what, per_mille });
    }
    Ok(per_mille)
}

fn format_thousandths(us: u64) -> String {
    let (whole, rest) = (us / 1_000, us % 1_000);
    if rest == 0 {
        whole.to_string()
    } else {
        format!("{whole}.{}", format!("{rest:03}").trim_end_matches('0'))
    }
}

fn between(rng: &mut SplitMix64, (low, high): (u64, u64)) -> u64 {
    low + rng.below(high - low + 1)
}

fn format_per_mille(per_mille: u64) -> String {
    if per_mille % 10 == 0 {
        (per_mille / 10).to_string()
    } else {
        format!("{}.{}", per_mille / 10, per_mille % 10)
    }
}

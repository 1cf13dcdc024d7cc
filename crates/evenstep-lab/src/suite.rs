//! The default suite: the display profiles the lab runs when it is given no
//! trace, each 10,000 frames on a fixed seed, so its table is the same on
//! every machine. Eleven are displays whose stamps jitter around their
//! refreshes; ten are games behind a vsync queue, whose present times swing
//! by milliseconds while the screen shows a frame a refresh (four of them
//! behind a deep queue whose depth wanders, now and then a refresh short).

use core::time::Duration;

use crate::queued::Queued;
use crate::rate::Rate;
use crate::synthetic::{Jitter, Synthetic, SyntheticError};
use crate::trace::Trace;

/// Frames in each profile of the default suite.
pub const SUITE_FRAMES: usize = 10_000;

/// One profile of the suite: a jittery display, or a game behind a vsync
/// queue.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Stamps jittering around a display's refreshes.
    Display(Synthetic),
    /// Present times of a game behind a vsync queue.
    Queued(Queued),
}

impl Profile {
    /// The profile's name.
    pub fn name(&self) -> String {
        match self {
            Profile::Display(spec) => spec.name(),
            Profile::Queued(spec) => spec.name(),
        }
    }

    /// The family the profile belongs to: the profiles one generator
    /// builds with other settings (jittery displays, shallow vsync queues,
    /// deep vsync queues). Tuning leaves a family out together, since one
    /// profile says little out of sample about its siblings.
    ///
    /// ```
    /// let suite = evenstep_lab::default_suite();
    /// assert_eq!(suite[0].family(), "jittery displays");
    /// assert_eq!(suite[11].family(), "shallow vsync queues");
    /// assert_eq!(suite[17].family(), "deep vsync queues");
    /// ```
    pub fn family(&self) -> &'static str {
        match self {
            Profile::Display(_) => "jittery displays",
            Profile::Queued(spec) if spec.is_deep() => "deep vsync queues",
            Profile::Queued(_) => "shallow vsync queues",
        }
    }

    /// Generates its trace.
    pub fn generate(&self) -> Trace {
        match self {
            Profile::Display(spec) => spec.generate(),
            Profile::Queued(spec) => spec.generate(),
        }
    }
}

/// The default suite, in report order:
///
/// | # | profile |
/// | --- | --- |
/// | 1 | 60 Hz ±0.75 ms |
/// | 2 | 60 Hz ±1.5 ms |
/// | 3 | 120 Hz ±0.5 ms |
/// | 4 | 240 Hz ±0.25 ms |
/// | 5 | 59.94 Hz ±0.75 ms |
/// | 6 | 144 Hz ±0.5 ms |
/// | 7 | 60 Hz ±0.75 ms with 1% of refreshes missed |
/// | 8 | 75 Hz ±0.5 ms |
/// | 9 | 165 Hz ±0.25 ms |
/// | 10 | variable refresh, 48–144 Hz, ±0.25 ms |
/// | 11 | 60 Hz ±0.75 ms with the tab hidden for 5 s at 60 s |
/// | 12 | 59.95 Hz vsync, queue 2 deep: 5 ms of render work ±1.2 ms, 4% of frames 2–8 ms slower, 0.5% 10–35 ms |
/// | 13 | as 12, the queue 1 to 3 deep, changing about every 500 frames |
/// | 14 | 60 Hz vsync, queue 1 deep (a slow frame misses its refresh) |
/// | 15 | 120 Hz vsync, queue 2 deep, 3 ms ±0.8 ms of render work, 4% of frames 1–4 ms slower, 0.5% 5–20 ms |
/// | 16 | 60 Hz vsync, queue 2 to 3 deep, 8% of frames 2–10 ms slower |
/// | 17 | 60 Hz vsync, queue 2 deep, a noisy renderer: 4 ms of render work ±5 ms (sd 1.4 ms), 4% of frames 2–8 ms slower, 0.5% 10–35 ms |
/// | 18 | 59.95 Hz vsync, a deep queue: up to 7 frames behind 33 ms on the GPU; 16.84 ms of render work ±2 ms, a little slower than the display, with bursts of 100–300 frames 0.4 ms faster (2‰ of frames start one); 2% of frames 3–7 ms slower, 0.3% 8–21 ms; display times ±80 µs |
/// | 19 | as 18, 16.82 ms ±1.8 ms, bursts of 200–400 frames (1‰), 1.5% of frames 3–7 ms slower |
/// | 20 | as 19, ±2 ms, 0.8% of frames 8–21 ms slower (hitches the queue absorbs) |
/// | 21 | as 18, 16.82 ms, shorter bursts that change the queue's depth faster: 60–150 frames 0.6 ms faster (3‰), 1.5% slow |
///
/// Jittery displays have uniform jitter; profile `k` has seed `k`.
///
/// # Examples
///
/// ```
/// let suite = evenstep_lab::default_suite();
/// assert_eq!(suite.len(), 21);
/// assert_eq!(suite[1].name(), "60 Hz ±1.5 ms");
/// assert_eq!(suite[11].name(), "59.95 Hz vsync, queue 2, 4% slow, 0.5% hitches");
/// ```
pub fn default_suite() -> Vec<Profile> {
    let displays = displays().into_iter().map(Profile::Display);
    let queued = queued().into_iter().map(|spec| {
        Profile::Queued(
            spec.frames(SUITE_FRAMES)
                .unwrap_or_else(|_| unreachable!("{SUITE_FRAMES} frames is within MAX_FRAMES")),
        )
    });
    displays
        .chain(queued)
        .zip(1..)
        .map(|(profile, seed)| match profile {
            Profile::Display(spec) => Profile::Display(spec.seed(seed)),
            Profile::Queued(spec) => Profile::Queued(spec.seed(seed)),
        })
        .collect()
}

/// A rate of `hz` a second.
fn hz(hz: u32) -> Rate {
    Rate::hz(hz).unwrap_or_else(|_| unreachable!("{hz} Hz is a rate"))
}

/// 59.95 Hz.
fn slow_60() -> Rate {
    Rate::ratio(1_199, 20).unwrap_or_else(|_| unreachable!("59.95 Hz is a rate"))
}

/// Profiles 1 to 11: displays whose stamps jitter around their refreshes.
fn displays() -> Vec<Synthetic> {
    let ntsc = Rate::ratio(60_000, 1_001).unwrap_or_else(|_| unreachable!("59.94 Hz is a rate"));
    let profile = |rate: Rate, jitter_us: u64| {
        Synthetic::new(rate)
            .frames(SUITE_FRAMES)
            .unwrap_or_else(|_| unreachable!("{SUITE_FRAMES} frames is within MAX_FRAMES"))
            .jitter_us(jitter_us, Jitter::Uniform)
    };
    vec![
        profile(hz(60), 750),
        profile(hz(60), 1_500),
        profile(hz(120), 500),
        profile(hz(240), 250),
        profile(ntsc, 750),
        profile(hz(144), 500),
        profile(hz(60), 750).missed_per_mille(10),
        profile(hz(75), 500),
        profile(hz(165), 250),
        profile(hz(144), 250).variable(hz(48), hz(144)),
        profile(hz(60), 750)
            .hidden(Duration::from_secs(60), Duration::from_secs(5))
            .unwrap_or_else(|_| unreachable!("five seconds at one minute is within a day")),
    ]
}

/// Profiles 12 to 21: games behind a vsync queue, shallow then deep.
fn queued() -> Vec<Queued> {
    // A game a little slower than the display behind a queue up to seven
    // deep and a long GPU stage: bursts of faster frames fill the queue,
    // the rest drain it.
    let deep = |render_us: u64, noise_us: u64, (per_mille, min, max): (u64, u64, u64)| {
        Queued::new(slow_60())
            .render(render_us, noise_us)?
            .bursts(per_mille, min, max, 400)?
            .slow(15, 3_000, 7_000)?
            .stalls(3, 8_000, 21_000)?
            .gpu(33_000)?
            .queue(&[7], 0)
            .display_jitter(80)
    };
    let profiles = || -> Result<Vec<Queued>, SyntheticError> {
        Ok(vec![
            Queued::new(slow_60()),
            Queued::new(slow_60()).queue(&[2, 1, 3], 2),
            Queued::new(hz(60)).queue(&[1], 0),
            Queued::new(hz(120))
                .render(3_000, 800)?
                .slow(40, 1_000, 4_000)?
                .stalls(5, 5_000, 20_000)?,
            Queued::new(hz(60))
                .slow(80, 2_000, 10_000)?
                .queue(&[2, 3], 1),
            Queued::new(hz(60)).render(4_000, 5_000)?,
            deep(16_840, 2_000, (2, 100, 300))?.slow(20, 3_000, 7_000)?,
            deep(16_820, 1_800, (1, 200, 400))?,
            deep(16_820, 2_000, (1, 200, 400))?.stalls(8, 8_000, 21_000)?,
            deep(16_820, 2_000, (3, 60, 150))?.bursts(3, 60, 150, 600)?,
        ])
    };
    profiles().unwrap_or_else(|error| unreachable!("every profile is within bounds: {error}"))
}

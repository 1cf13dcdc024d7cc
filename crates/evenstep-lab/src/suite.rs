//! The default suite: the display profiles the lab runs when it is given no
//! trace, each 10,000 frames on a fixed seed, so its table is the same on
//! every machine.

use core::time::Duration;

use crate::{Jitter, Rate, Synthetic};

/// Frames in each profile of the default suite.
pub const SUITE_FRAMES: usize = 10_000;

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
///
/// Jitter is uniform; profile `k` has seed `k`.
///
/// # Examples
///
/// ```
/// let suite = evenstep_lab::default_suite();
/// assert_eq!(suite.len(), 11);
/// assert_eq!(suite[1].name(), "60 Hz ±1.5 ms");
/// ```
pub fn default_suite() -> Vec<Synthetic> {
    let hz = |hz: u32| Rate::hz(hz).unwrap_or_else(|_| unreachable!("{hz} Hz is a rate"));
    let ntsc = Rate::ratio(60_000, 1_001).unwrap_or_else(|_| unreachable!("59.94 Hz is a rate"));
    let profile = |rate: Rate, jitter_us: u64| {
        Synthetic::new(rate)
            .frames(SUITE_FRAMES)
            .jitter_us(jitter_us, Jitter::Uniform)
    };
    let profiles = vec![
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
    ];
    profiles
        .into_iter()
        .zip(1..)
        .map(|(profile, seed)| profile.seed(seed))
        .collect()
}

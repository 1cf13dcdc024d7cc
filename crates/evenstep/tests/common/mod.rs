//! The fixed-seed configuration the driver's property tests share.

#![allow(dead_code, unreachable_pub)]

use std::time::Duration;

use evenstep::Pacing;
use proptest::test_runner::{Config, RngSeed};

/// The fixed-seed configuration every property test uses, so a run is
/// reproducible and a failure is the same failure on every machine.
/// `EVENSTEP_PROPERTY_CASES` and `EVENSTEP_PROPERTY_SEED` set the cases and
/// the seed for a longer search, as in the core's property tests.
pub fn config(cases: u32) -> Config {
    Config {
        cases: from_env("EVENSTEP_PROPERTY_CASES")
            .map_or(cases, |n| u32::try_from(n).unwrap_or(u32::MAX).max(1)),
        rng_seed: RngSeed::Fixed(from_env("EVENSTEP_PROPERTY_SEED").unwrap_or(0x0e7e_57e9)),
        failure_persistence: None,
        ..Config::default()
    }
}

/// An optional whole number from the environment. One that does not parse
/// stops the run naming the variable, the value and the valid range.
fn from_env(name: &str) -> Option<u64> {
    let value = std::env::var(name).ok()?;
    Some(value.parse().unwrap_or_else(|_| {
        panic!(
            "{name}={value:?} is not valid: it must be a whole number from 0 to {}",
            u64::MAX
        )
    }))
}

/// Every pacing, for the laws that must hold under each: off, centred,
/// locked, and snapped to the display within 2 ms.
pub fn pacings() -> [Pacing; 4] {
    [
        Pacing::OFF,
        Pacing::CENTRED,
        Pacing::LOCKED,
        Pacing::snapped(Duration::from_millis(2)).unwrap(),
    ]
}

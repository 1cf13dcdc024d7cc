//! A steady frame's snap, known in advance ([`Steady`]), against the general
//! rule it stands for ([`Snapper::snap_any`]): over random display-like
//! stamps, under locked and snapped pacing, a snapper that keeps its steady
//! snap and a twin that forgets it before every frame decide the same and
//! remember the same, but for the steady snap itself.

use core::time::Duration;

extern crate std;

use std::vec;

use proptest::prelude::*;

use super::Snapper;
use crate::{Nanos, Pacing, Timestamp, Timestep};

/// A snapper with its steady snap forgotten, to compare the rest.
fn without_steady(snapper: &Snapper) -> Snapper {
    Snapper {
        steady: None,
        ..snapper.clone()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_steady_snap_in_place_is_the_general_rule(
        period in prop::sample::select(vec![16_666_667_u64, 16_680_567, 8_333_333, 6_944_444, 33_333_333]),
        timestep in prop::sample::select(vec![Timestep::HZ_60, Timestep::HZ_120, Timestep::HZ_50]),
        snapped in any::<bool>(),
        jitter in 0_u64..4_000_000,
        seeds in prop::collection::vec(any::<u8>(), 1..400),
    ) {
        let pacing = if snapped {
            Pacing::snapped(Duration::from_millis(2)).unwrap()
        } else {
            Pacing::LOCKED
        };
        let (mut fast, mut general) = (Snapper::new(), Snapper::new());
        let mut lattice = 1_000_000_000_u64;
        let mut last = lattice;
        for seed in seeds {
            lattice += period * match seed % 50 { 0 => 2, 1 => 0, 2 => 9, _ => 1 };
            let now = lattice + u64::from(seed) * jitter / 255 - jitter / 2;
            let raw = Nanos::from_nanos(now.saturating_sub(last));
            last = last.max(now);
            let now = Timestamp::from_nanos(now);
            general.steady = None;
            let decided = fast.snap(now, raw, pacing, timestep, false);
            prop_assert_eq!(decided, general.snap(now, raw, pacing, timestep, false));
            prop_assert_eq!(without_steady(&fast), without_steady(&general));
        }
    }
}

#[test]
fn a_steady_display_keeps_its_steady_snap() {
    let mut snapper = Snapper::new();
    let (mut kept, mut last) = (0, 1_000_000_000_u64);
    for k in 1..=600_u64 {
        let now = 1_000_000_000 + k * 16_666_667 + (k * 37 % 11) * 100_000;
        let raw = Nanos::from_nanos(now - last);
        last = now;
        let steady = snapper.steady.is_some();
        let decided = snapper.snap(
            Timestamp::from_nanos(now),
            raw,
            Pacing::LOCKED,
            Timestep::HZ_60,
            false,
        );
        kept += usize::from(steady && decided.is_some() && snapper.steady.is_some());
    }
    assert!(kept > 400, "{kept} of 600 frames kept the steady snap");
}

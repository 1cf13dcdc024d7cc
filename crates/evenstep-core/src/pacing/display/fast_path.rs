//! The display model's usual frame, planned in place by [`Lock::follow`],
//! against the general rule it stands for ([`Lock::follow_any`]): over
//! random display-like stamps, a model that takes the usual frame's path
//! and a twin that always takes the general rule stay equal, field for
//! field, frame after frame.

extern crate std;

use std::vec;
use std::vec::Vec;

use proptest::prelude::*;

use super::{DisplayModel, MOST_NANOS};
use crate::Timestamp;

impl DisplayModel {
    /// [`observe`](DisplayModel::observe), always by the general rule.
    fn observe_by_the_general_rule(&mut self, now: Timestamp) -> Option<u64> {
        let previous = self.last.replace(now)?;
        let delta = now.saturating_since(previous).as_nanos();
        if let (Some(lattice), 1..=MOST_NANOS) = (self.lattice.as_mut(), delta) {
            let stamp = lattice.stamp(now);
            let refreshes = lattice.follow_any(stamp);
            if lattice.is_lost() {
                self.lose_lattice();
            }
            return Some(refreshes);
        }
        self.search(now, delta)
    }
}

/// Display-like stamps: a lattice of `period` ns, each stamp up to
/// `jitter` ns off its refresh, with missed refreshes, two frames on one
/// refresh and stalls now and then.
fn stamps(period: u64, jitter: u64, seeds: &[u8]) -> Vec<Timestamp> {
    let mut lattice = 1_000_000_000_u64;
    seeds
        .iter()
        .map(|&seed| {
            let refreshes = match seed % 50 {
                0 => 2,
                1 => 0,
                2 => 9,
                _ => 1,
            };
            lattice += period * refreshes;
            let off = u64::from(seed) * jitter / 255;
            Timestamp::from_nanos(lattice + off - jitter / 2)
        })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_usual_frame_in_place_is_the_general_rule(
        period in prop::sample::select(vec![16_666_667_u64, 16_680_567, 8_333_333, 6_944_444, 33_333_333]),
        jitter in 0_u64..4_000_000,
        seeds in prop::collection::vec(any::<u8>(), 1..400),
    ) {
        let mut fast = DisplayModel::new();
        let mut general = DisplayModel::new();
        for now in stamps(period, jitter, &seeds) {
            let (counted, _) = fast.observe_then(now, |_, _| true);
            prop_assert_eq!(counted, general.observe_by_the_general_rule(now));
            prop_assert_eq!(&fast, &general);
        }
    }
}

#[test]
fn a_steady_display_takes_the_usual_frame_s_path() {
    let seeds: Vec<u8> = (0..600_u32).map(|k| (k * 37 % 251 + 3) as u8).collect();
    let mut model = DisplayModel::new();
    let usual = stamps(16_666_667, 1_000_000, &seeds)
        .into_iter()
        .filter(|&now| model.observe_then(now, |_, _| true).1)
        .count();
    // One frame in sixteen or so misses a refresh, shares one or stalls
    // (and a stall settles the lattice again for sixteen frames).
    assert!(
        usual > 250,
        "{usual} of 600 frames took the usual frame's path"
    );
}

//! The checksum ggrs compares between peers: the game's state hash in the
//! low 64 bits and the step rate the frames ran at in the high 64, so that
//! peers stepping at different rates desync at the first comparison (a
//! game whose rules never read `dt` would otherwise agree on every frame)
//! and the report can name both rates.

use evenstep::{Rate, StateHash, Timestep};

/// The checksum of a state hashing to `state_hash`, reached by frames of
/// `timestep`.
pub(crate) fn checksum(state_hash: u64, timestep: Timestep) -> u128 {
    (u128::from(rate_code(timestep)) << 64) | u128::from(state_hash)
}

/// The step rate a checksum carries, if it carries one by name: every rate
/// whose terms fit 32 bits each (whole hertz, and every ratio of two
/// `u32`s such as 59.94 Hz). An odd rate is carried as a digest, which
/// tells two rates apart but names neither.
pub(crate) fn rate_of(checksum: u128) -> Option<Rate> {
    // The shift leaves the upper 64 bits: the cast keeps them all.
    let code = (checksum >> 64) as u64;
    let (events, per_seconds) = (code >> 32, code & u64::from(u32::MAX));
    if events == 0 {
        return None;
    }
    Rate::ratio(events, per_seconds).ok()
}

/// The state hash a checksum carries.
pub(crate) fn state_hash_of(checksum: u128) -> u64 {
    // The low 64 bits, by construction.
    checksum as u64
}

/// `timestep`'s rate as 64 bits: its events in the high half and its
/// seconds in the low half when both fit 32 bits (events are at least 1,
/// so the high half is never 0); otherwise 0 and a 32-bit digest of the
/// step.
fn rate_code(timestep: Timestep) -> u64 {
    let rate = timestep.rate();
    let (events, per_seconds) = (rate.events().get(), rate.per_seconds().get());
    if let (Ok(events), Ok(per_seconds)) = (u32::try_from(events), u32::try_from(per_seconds)) {
        return (u64::from(events) << 32) | u64::from(per_seconds);
    }
    let digest = StateHash::new()
        .u64(timestep.units_per_step())
        .u64(timestep.units_per_nanosecond())
        .finish();
    digest & u64::from(u32::MAX)
}

#[cfg(test)]
mod tests {
    use evenstep::Timestep;

    use super::{checksum, rate_of, state_hash_of};

    #[test]
    fn a_checksum_carries_the_state_hash_and_names_the_rate() {
        for step in [Timestep::HZ_60, Timestep::HZ_30, Timestep::HZ_59_94] {
            let sum = checksum(0xDEAD_BEEF, step);
            assert_eq!(state_hash_of(sum), 0xDEAD_BEEF);
            assert_eq!(rate_of(sum), Some(step.rate()));
        }
        assert_ne!(
            checksum(7, Timestep::HZ_60),
            checksum(7, Timestep::HZ_30),
            "equal states at different rates differ"
        );
    }

    #[test]
    fn an_odd_rate_is_told_apart_but_not_named() {
        // A step of 4.3 s: its rate's seconds do not fit 32 bits in lowest
        // terms (10 events in 43 s is 4.3 s; 4_300_000_001 ns is not).
        let odd = Timestep::from_step_ratio(4_300_000_001, 1).unwrap();
        let other = Timestep::from_step_ratio(4_300_000_003, 1).unwrap();
        assert!(u32::try_from(odd.rate().per_seconds().get()).is_err());
        assert_eq!(rate_of(checksum(1, odd)), None);
        assert_ne!(checksum(1, odd), checksum(1, other));
    }
}

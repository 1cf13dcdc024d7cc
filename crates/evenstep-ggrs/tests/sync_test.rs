//! The sync test: deterministic rules pass at check distances 2 and 7 over
//! a thousand seeded frames, a rule that reads a global from frame 500
//! on fails naming frame 501, the first state that came out different, and
//! a run too short to compare any frame simulated again is refused.

mod common;

use std::sync::atomic::AtomicU64;

use evenstep::Timestep;
use evenstep_ggrs::{SyncTest, SyncTestError, sync_test};

use common::Walkers;

fn shape(check_distance: usize) -> SyncTest {
    SyncTest {
        check_distance,
        frames: 1_000,
        players: 2,
        seed: 17,
    }
}

fn seeded(_frame: i32, _handle: usize, random: u64) -> u8 {
    // Held for a while, then changed: inputs that repeat and change.
    (random % 8) as u8 & if random % 5 == 0 { 7 } else { 3 }
}

#[test]
fn deterministic_rules_pass_at_check_distances_2_and_7() {
    let mut hashes = Vec::new();
    for check_distance in [2, 7] {
        let mut game = Walkers::new(0);
        let report = sync_test(&mut game, Timestep::HZ_60, shape(check_distance), seeded).unwrap();
        assert_eq!(report.frames, 1_000);
        assert_eq!(game.walk.frame, 1_000);
        // Every frame past the check distance rolls back that far.
        assert_eq!(
            report.resimulated_frames,
            (1_000 - check_distance as u64 - 1) * check_distance as u64
        );
        hashes.push(report.final_hash);
    }
    // The rollbacks change nothing: both distances end in the same state.
    assert_eq!(hashes[0], hashes[1]);
}

static READ_AT_DISTANCE_2: AtomicU64 = AtomicU64::new(0);
static READ_AT_DISTANCE_7: AtomicU64 = AtomicU64::new(0);

#[test]
fn a_rule_reading_a_global_fails_at_the_first_frame_it_changed() {
    for (check_distance, global) in [(2, &READ_AT_DISTANCE_2), (7, &READ_AT_DISTANCE_7)] {
        let mut game = Walkers::new(0);
        game.impure_from = Some((500, global));
        let error = sync_test(&mut game, Timestep::HZ_60, shape(check_distance), seeded)
            .expect_err("a rule reading a global is not deterministic");
        let SyncTestError::Mismatch {
            frame,
            frames,
            noticed_at,
        } = &error
        else {
            panic!("a mismatch, not {error}");
        };
        assert_eq!(
            *frame, 501,
            "at check distance {check_distance}: {frames:?}"
        );
        assert!(*noticed_at > 501 && *noticed_at <= 502 + i32::try_from(check_distance).unwrap());
        assert!(
            error.to_string().contains("the advance of frame 500"),
            "{error}"
        );
    }
}

#[test]
fn a_shape_out_of_range_is_refused_naming_the_ranges() {
    let mut game = Walkers::new(0);
    let error = sync_test(&mut game, Timestep::HZ_60, shape(1), seeded).unwrap_err();
    assert_eq!(
        error,
        SyncTestError::Shape {
            check_distance: 1,
            players: 2
        }
    );
    assert!(error.to_string().contains("2..=15"), "{error}");
    let error = sync_test(
        &mut game,
        Timestep::HZ_60,
        SyncTest {
            players: 0,
            ..shape(2)
        },
        seeded,
    )
    .unwrap_err();
    assert!(error.to_string().contains("1..=8"), "{error}");
}

static READ_IN_SHORT_RUNS: AtomicU64 = AtomicU64::new(0);

#[test]
fn a_run_too_short_to_compare_anything_is_refused_naming_the_least_frame_count() {
    for check_distance in [2, 7] {
        let least = check_distance as u32 + 3;
        assert_eq!(SyncTest::least_frames(check_distance), least);
        for frames in [0, 1, least - 1] {
            // Impure from the first frame: a run that compared anything
            // would fail.
            let mut game = Walkers::new(0);
            game.impure_from = Some((0, &READ_IN_SHORT_RUNS));
            let test = SyncTest {
                frames,
                ..shape(check_distance)
            };
            let error = sync_test(&mut game, Timestep::HZ_60, test, seeded).unwrap_err();
            assert_eq!(
                error,
                SyncTestError::TooShort {
                    frames,
                    check_distance,
                    least
                }
            );
            assert!(
                error
                    .to_string()
                    .contains(&format!("at least {least} frames")),
                "{error}"
            );
            assert_eq!(game.walk.frame, 0, "a refused run runs nothing");
        }
    }
}

#[test]
fn the_least_frame_count_catches_a_rule_impure_from_the_start() {
    for check_distance in [2, 7] {
        let mut game = Walkers::new(0);
        game.impure_from = Some((0, &READ_IN_SHORT_RUNS));
        let test = SyncTest {
            frames: SyncTest::least_frames(check_distance),
            ..shape(check_distance)
        };
        let error = sync_test(&mut game, Timestep::HZ_60, test, seeded).unwrap_err();
        assert!(
            matches!(error, SyncTestError::Mismatch { frame: 2, .. }),
            "at check distance {check_distance}: {error}"
        );
    }
}

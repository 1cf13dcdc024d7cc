//! The core's deterministic tally has a serde form in the driver: a record
//! of every counter and the digest, equal after a round trip through JSON.

use evenstep::{
    Nanos, Pacing, StepBudget, Timestamp, Timestep,
    planner::{FrameLoop, FrameStats, FrameStatsRecord},
};

fn tallied() -> FrameStats {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO)
        .with_pacing(Pacing::CENTRED);
    let mut stats = FrameStats::new();
    let mut now = Timestamp::ZERO;
    for delta in [16_666_667, 16_666_666, 250_000_000, 8_000_000, 0] {
        now += Nanos::from_nanos(delta);
        stats.absorb(&frames.begin_frame(now));
    }
    frames.queue_steps(2);
    stats.absorb(&frames.begin_frame(now));
    stats
}

#[test]
fn the_record_holds_every_counter_and_the_digest() {
    let stats = tallied();
    let record = FrameStatsRecord::from(stats);
    assert_eq!(record.frames, 6);
    assert_eq!(record.steps, stats.steps());
    assert_eq!(record.queued_steps, 2);
    assert_eq!(record.dropped_steps, stats.dropped_steps());
    assert_eq!(record.dropped_units, stats.dropped_units());
    assert_eq!(record.dropped_nanos, stats.dropped().as_nanos());
    assert_eq!(record.clamped_frames, 1);
    assert_eq!(record.largest_frame_nanos, 250_000_000);
    assert_eq!(record.phase_shift_units, stats.phase_shift_units());
    assert_eq!(record.rendered_frames, 6);
    assert_eq!(record.digest, stats.digest());
}

#[cfg(feature = "serde")]
#[test]
fn the_record_survives_a_round_trip_through_json() {
    let record = FrameStatsRecord::from(tallied());
    let json = serde_json::to_string(&record).unwrap();
    assert!(json.contains("\"dropped_steps\":"), "{json}");
    assert_eq!(
        serde_json::from_str::<FrameStatsRecord>(&json).unwrap(),
        record
    );
}

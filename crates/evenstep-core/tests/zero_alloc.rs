//! The allocation contract: planning a frame, iterating its steps, reading its
//! alpha, tallying it and hashing it allocate nothing. A counting global
//! allocator proves it, and a negative control proves the counter counts.

use evenstep_core::{
    FrameLoop, FrameStats, Nanos, Speed, StateHash, StepBudget, Timestamp, Timestep,
};

#[path = "support/counting_alloc.rs"]
mod counting_alloc;

use counting_alloc::allocations_in;

#[test]
fn planning_stepping_tallying_and_hashing_allocate_nothing() {
    let mut frames = FrameLoop::new(Timestep::HZ_60, StepBudget::DEFAULT, Timestamp::ZERO);
    let mut stats = FrameStats::new();
    let mut hash = StateHash::new();
    let mut checksum = 0_u64;
    let mut blend = 0.0_f32;
    let count = allocations_in(|| {
        let mut now = Timestamp::ZERO;
        for frame in 0..10_000_u64 {
            now += Nanos::from_nanos(16_666_667 + (frame % 5) * 400_000);
            if frame % 1_000 == 999 {
                now += Nanos::from_millis(300); // a stall: the clamp path
            }
            if frame == 5_000 {
                frames.set_speed(Speed::new(3, 2).unwrap());
                frames.queue_steps(2);
            }
            let plan = frames.begin_frame(now);
            for step in plan.steps() {
                checksum = checksum.wrapping_add(step.tick() ^ step.sim_time().as_nanos());
            }
            blend += plan.alpha().as_f32();
            stats.absorb(&plan);
            hash.absorb_plan(&plan).str("frame").f32(blend);
        }
        checksum ^= stats.digest() ^ hash.finish();
    });
    assert!(
        stats.steps() > 9_000 && stats.dropped_steps() > 0,
        "the run was not vacuous"
    );
    assert_ne!(checksum, 0);
    assert_eq!(count, 0, "the planner allocated {count} times");
}

#[test]
fn the_counter_counts_an_allocation_when_one_happens() {
    let count = allocations_in(|| {
        let boxed = Box::new([7_u8; 64]);
        std::hint::black_box(&boxed);
    });
    assert_eq!(count, 1);
}

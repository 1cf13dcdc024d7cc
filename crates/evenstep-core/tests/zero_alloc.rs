//! The allocation contract: planning a frame, iterating its steps, reading its
//! alpha, tallying it and hashing it allocate nothing. A counting global
//! allocator proves it, and a negative control proves the counter counts.
// A global allocator must implement the unsafe `GlobalAlloc` trait; this file
// only forwards to `System` and counts.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use evenstep_core::{
    FrameLoop, FrameStats, Nanos, Speed, StateHash, StepBudget, Timestamp, Timestep,
};

struct Counting;

thread_local! {
    // Per thread: the harness runs tests, and allocates, on other threads.
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    if MEASURING.with(Cell::get) {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: `ptr` came from `System.alloc` with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: forwarded unchanged to the system allocator.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Allocations made on this thread while `f` runs.
fn allocations_in(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    MEASURING.with(|m| m.set(true));
    f();
    MEASURING.with(|m| m.set(false));
    ALLOCATIONS.with(Cell::get) - before
}

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

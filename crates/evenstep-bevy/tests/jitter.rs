//! Contract: side by side in the same app, on a 60 Hz display whose frame
//! stamps jitter by up to ±1.5 ms, at 8 start phases of the step (the
//! frames' lattice 0 to 7 eighths of a step past the step boundaries), the
//! counts of frames of 0 and of 2 steps, pinned: Bevy's own loop, whose
//! accumulator rests where the first frame left it, runs half its frames
//! uneven at the phase within the jitter of a boundary; the plugin's default
//! (locked) pacing, once it has locked onto the display, none; the plugin
//! with pacing off, as Bevy's.

mod support;

use core::time::Duration;

use bevy_app::App;
use evenstep_bevy::EvenstepSettings;
use evenstep_core::Pacing;

const FRAMES: u64 = 600;

/// The frame stamps at start phase `phase` of 8: frame 0 at 0, frame k at
/// `phase` eighths of a step plus k refreshes, jittered.
fn trace(phase: u64) -> Vec<u64> {
    let jitter = support::jittered(60, 1, FRAMES + 1, 1_500_000, 2_024);
    let offset = phase * 1_000_000_000 / (60 * 8);
    (0..=FRAMES as usize)
        .map(|k| if k == 0 { 0 } else { jitter[k] + offset })
        .collect()
}

/// The frames of 0 and of 2 steps an app runs over `stamps`, the first
/// (zero-delta) frame left out, and the last frame of either.
fn uneven(mut app: App, stamps: &[u64]) -> ((u32, u32), usize) {
    let mut last = 0;
    let (mut none, mut two) = (0, 0);
    for (frame, &stamp) in stamps.iter().enumerate() {
        let steps = support::frame_at(&mut app, Duration::from_nanos(stamp));
        if frame > 0 {
            none += u32::from(steps == 0);
            if steps != 1 {
                last = frame;
            }
            two += u32::from(steps == 2);
        }
    }
    ((none, two), last)
}

fn counts(evenstep: Option<EvenstepSettings>) -> Vec<(u32, u32)> {
    (0..8)
        .map(|phase| uneven(support::app(60.0, evenstep), &trace(phase)).0)
        .collect()
}

#[test]
fn bevys_own_loop_runs_half_its_frames_uneven_at_the_phase_on_a_boundary() {
    let even = (0, 0);
    assert_eq!(
        counts(None),
        [(154, 153), even, even, even, even, even, even, even]
    );
}

#[test]
fn the_plugin_runs_one_step_a_frame_at_every_phase_once_locked() {
    let even = (0, 0);
    // The one uneven frame, at phase 0, is the first after the start,
    // which follows no frame of the game's.
    let counts = counts(Some(EvenstepSettings::default()));
    assert_eq!(counts, [(1, 0), even, even, even, even, even, even, even]);
    let settings = EvenstepSettings::default();
    assert_eq!(uneven(support::app(60.0, Some(settings)), &trace(0)).1, 1);
}

#[test]
fn the_plugin_without_pacing_is_as_uneven_as_bevys_loop() {
    let off = EvenstepSettings {
        pacing: Pacing::OFF,
        ..EvenstepSettings::default()
    };
    let even = (0, 0);
    assert_eq!(
        counts(Some(off)),
        [(154, 153), even, even, even, even, even, even, even]
    );
}

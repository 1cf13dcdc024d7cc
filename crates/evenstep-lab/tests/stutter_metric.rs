//! The stutter verdict on hand-made step sequences: which cadence a step rate
//! and display rate imply, the per-frame bounds, the window checks, missed
//! refreshes, and the warm-up that is never counted.

use evenstep_lab::{Cadence, CadenceKind, Rate, Refresh};

fn rate(text: &str) -> Rate {
    text.parse().unwrap()
}

fn fixed(step: &str, display: &str) -> Cadence {
    Cadence::new(rate(step), Refresh::Fixed(rate(display)))
}

/// Deltas of `refreshes[i]` whole periods of a `display` Hz display.
fn deltas(display: &str, refreshes: &[u64]) -> Vec<u64> {
    let display = rate(display);
    let mut k = 0;
    refreshes
        .iter()
        .map(|&n| {
            let before = display.refresh_at(k);
            k += n;
            display.refresh_at(k) - before
        })
        .collect()
}

fn flagged(cadence: &Cadence, display: &str, refreshes: &[u64], steps: &[u64]) -> Vec<usize> {
    cadence
        .stutters(&deltas(display, refreshes), steps, 0)
        .iter()
        .enumerate()
        .filter_map(|(i, &f)| f.then_some(i))
        .collect()
}

#[test]
fn the_cadence_follows_the_ratio_of_step_rate_to_display_rate() {
    let whole = |m| CadenceKind::Whole {
        steps_per_refresh: m,
    };
    let divided = |d| CadenceKind::Divided {
        refreshes_per_step: d,
    };
    assert_eq!(fixed("60", "60").kind(), whole(1));
    assert_eq!(fixed("60", "59.94").kind(), whole(1), "within 1% of one");
    assert_eq!(fixed("60", "30").kind(), whole(2));
    assert_eq!(fixed("60", "120").kind(), divided(2));
    assert_eq!(fixed("60", "240").kind(), divided(4));
    assert_eq!(fixed("60", "480").kind(), divided(8));
    assert_eq!(
        fixed("60", "144").kind(),
        CadenceKind::Ratio {
            steps: 5,
            refreshes: 12
        }
    );
    assert_eq!(
        fixed("60", "165").kind(),
        CadenceKind::Ratio {
            steps: 4,
            refreshes: 11
        }
    );
    assert_eq!(
        fixed("60", "75").kind(),
        CadenceKind::Ratio {
            steps: 4,
            refreshes: 5
        }
    );
    let vrr = Refresh::Variable {
        slowest: rate("48"),
        fastest: rate("144"),
    };
    assert_eq!(Cadence::new(rate("60"), vrr).kind(), CadenceKind::Variable);
}

#[test]
fn on_a_matching_display_every_frame_must_run_one_step_per_refresh() {
    let cadence = fixed("60", "60");
    assert_eq!(
        flagged(&cadence, "60", &[1; 6], &[1; 6]),
        Vec::<usize>::new()
    );
    assert_eq!(
        flagged(&cadence, "60", &[1; 6], &[1, 0, 2, 1, 1, 3]),
        [1, 2, 5]
    );
    // A missed refresh spans two: two steps are ideal, one is a stutter.
    assert_eq!(flagged(&cadence, "60", &[1, 2, 1, 2], &[1, 2, 1, 1]), [3]);
}

#[test]
fn on_a_half_rate_display_each_step_must_cover_two_steps_worth_of_refreshes() {
    let cadence = fixed("60", "30");
    assert_eq!(
        flagged(&cadence, "30", &[1, 1, 1], &[2, 2, 2]),
        Vec::<usize>::new()
    );
    assert_eq!(flagged(&cadence, "30", &[1, 1, 1], &[2, 1, 3]), [1, 2]);
}

#[test]
fn on_120_hz_every_two_refreshes_must_hold_exactly_one_step() {
    let cadence = fixed("60", "120");
    assert_eq!(
        flagged(&cadence, "120", &[1; 8], &[1, 0, 1, 0, 1, 0, 1, 0]),
        Vec::<usize>::new()
    );
    // 1, 1 holds two steps in two refreshes; 0, 0 holds none.
    assert_eq!(
        flagged(&cadence, "120", &[1; 6], &[1, 0, 1, 1, 0, 0]),
        [3, 5]
    );
    // A frame may never run more than ceil(n / 2) steps.
    assert_eq!(flagged(&cadence, "120", &[1, 1], &[0, 2]), [1]);
    // A missed refresh spans the whole window: one step in it is ideal.
    assert_eq!(
        flagged(&cadence, "120", &[1, 1, 2, 1, 1], &[1, 0, 1, 1, 0]),
        Vec::<usize>::new()
    );
}

#[test]
fn on_240_hz_every_four_refreshes_must_hold_exactly_one_step() {
    let cadence = fixed("60", "240");
    let ideal = [0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0];
    assert_eq!(
        flagged(&cadence, "240", &[1; 12], &ideal),
        Vec::<usize>::new()
    );
    let late = [0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0, 0];
    // The windows ending at frame 5 hold no step, the one ending at 9 two.
    assert_eq!(flagged(&cadence, "240", &[1; 12], &late), [5, 9]);
}

#[test]
fn on_144_hz_every_twelve_refreshes_must_hold_exactly_five_steps() {
    let cadence = fixed("60", "144");
    // The exact accumulator's pattern, from any phase.
    for phase in 0..12_u64 {
        let steps: Vec<u64> = (0..48_u64)
            .map(|k| ((k + phase + 1) * 5) / 12 - ((k + phase) * 5) / 12)
            .collect();
        assert_eq!(
            flagged(&cadence, "144", &[1; 48], &steps),
            Vec::<usize>::new(),
            "phase {phase}"
        );
    }
    // Moving one step a frame later leaves the per-frame bounds alone but
    // breaks the windows it crosses.
    let mut steps: Vec<u64> = (0..36_u64)
        .map(|k| ((k + 1) * 5) / 12 - (k * 5) / 12)
        .collect();
    let moved = (20..35)
        .find(|&i| steps[i] == 1 && steps[i + 1] == 0)
        .unwrap();
    steps.swap(moved, moved + 1);
    let flags = flagged(&cadence, "144", &[1; 36], &steps);
    assert!(!flags.is_empty());
    assert!(flags.iter().all(|&i| i >= moved));
    // Two steps in one refresh are outside floor/ceil(5/12).
    let mut doubled: Vec<u64> = (0..24_u64)
        .map(|k| ((k + 1) * 5) / 12 - (k * 5) / 12)
        .collect();
    doubled[3] = 2;
    assert!(flagged(&cadence, "144", &[1; 24], &doubled).contains(&3));
}

#[test]
fn on_a_variable_refresh_display_each_frame_must_run_its_length_in_steps_rounded() {
    let vrr = Refresh::Variable {
        slowest: rate("48"),
        fastest: rate("144"),
    };
    let cadence = Cadence::new(rate("60"), vrr);
    // 20 ms is 1.2 steps: 1 or 2; 10 ms is 0.6: 0 or 1; 16.67 ms exactly 1.
    let deltas = [20_000_000, 10_000_000, 16_666_667, 20_000_000];
    assert_eq!(cadence.stutters(&deltas, &[1, 1, 1, 2], 0), [false; 4]);
    assert_eq!(
        cadence.stutters(&deltas, &[0, 2, 1, 3], 0),
        [true, true, false, true]
    );
}

#[test]
fn warm_up_frames_are_never_flagged_and_windows_never_reach_into_them() {
    let cadence = fixed("60", "120");
    let display_deltas = deltas("120", &[1; 8]);
    // Frames 0..3 are chaos; from frame 3 on the alternation is ideal.
    let steps = [3, 3, 3, 0, 1, 0, 1, 0];
    assert_eq!(cadence.stutters(&display_deltas, &steps, 3), [false; 8]);
    let counted = cadence.stutters(&display_deltas, &steps, 0);
    assert_eq!(&counted[..3], [true, true, true]);
}

#[test]
fn a_frame_spans_at_least_one_refresh_rounded_to_the_nearest() {
    let cadence = fixed("60", "60");
    assert_eq!(cadence.refreshes(0), 1);
    assert_eq!(cadence.refreshes(16_666_667), 1);
    assert_eq!(cadence.refreshes(24_000_000), 1);
    assert_eq!(cadence.refreshes(26_000_000), 2);
    assert_eq!(cadence.refreshes(5_000_000_000), 300);
}

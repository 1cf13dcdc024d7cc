//! A capture's refresh, found from its display times: on the lattice its
//! gaps sit on, never on a part so fine that any gap fits it. A window
//! composed by copy, whose capture shows some frames less than half a
//! refresh after the one before, is judged at its display's rate; a capture
//! whose gaps keep no lattice is refused, with or without such gaps, and
//! no table is printed for it.

use std::fmt::Write as _;

use evenstep_lab::{Capture, DisplayTiming, JudgeError, Rate, Settings, SplitMix64, TimingError};

/// A windowed vsync game on a 240 Hz display, composed by copy, as a
/// capture tool reports it: a frame a refresh, presented 1 to 3 ms before
/// it (and after the present before), its display time the refresh ±20 µs, except that one frame in ten
/// is reported 0.2 to 1.5 ms after the one before (two frames in one
/// refresh), and the next frame is back on the lattice. Rows of
/// `(present, display)` in ns.
fn composed_by_copy(frames: u64, seed: u64) -> Vec<(u64, u64)> {
    let rate = Rate::hz(240).unwrap();
    let mut rng = SplitMix64::new(seed);
    let mut rows: Vec<(u64, u64)> = Vec::new();
    let (mut refresh, mut shared) = (1_000_u64, true);
    for _ in 0..frames {
        let on_lattice = rate
            .refresh_at(refresh)
            .saturating_add_signed(rng.symmetric(20_000));
        // Never three frames in one refresh.
        shared = !shared && rng.below(9) == 0;
        let display = match rows.last() {
            Some(&(_, last)) if shared => last + 200_000 + rng.below(1_300_000),
            _ => {
                refresh += 1;
                on_lattice
            }
        };
        let earliest = rows.last().map_or(0, |&(present, _)| present + 100_000);
        let present = (display - 1_000_000 - rng.below(2_000_000)).max(earliest);
        rows.push((present, display));
    }
    rows
}

fn measure(rows: &[(u64, u64)]) -> Result<evenstep_lab::Measured, TimingError> {
    let mut timing = DisplayTiming::new();
    for &(_, display) in rows {
        timing.push(display);
    }
    timing.measure()
}

/// The rows as a `present_ms,display_ms` capture, from the first present.
fn capture(name: &str, rows: &[(u64, u64)]) -> Capture {
    let origin = rows[0].0;
    let mut text = String::from("present_ms,display_ms\n");
    for &(present, display) in rows {
        let ms = |nanos: u64| {
            format!(
                "{}.{:06}",
                (nanos - origin) / 1_000_000,
                (nanos - origin) % 1_000_000
            )
        };
        let _ = writeln!(text, "{},{}", ms(present), ms(display));
    }
    Capture::Bytes {
        name: name.into(),
        bytes: text.into_bytes(),
    }
}

#[test]
fn a_capture_composed_by_copy_with_gaps_under_half_a_refresh_is_judged_at_240_hz() {
    let rows = composed_by_copy(3_600, 7);
    let shorter = rows
        .windows(2)
        .filter(|pair| pair[1].1 - pair[0].1 < 2_083_333)
        .count();
    assert_eq!(shorter, 371, "about a tenth of 3,599 gaps");
    let measured = measure(&rows).unwrap();
    assert_eq!(measured.nominal(), Some(Rate::hz(240).unwrap()));
    assert_eq!(measured.shared(), 371);
    assert_eq!(measured.refreshes(), 3_599 - 371);
    let report = capture("copy", &rows)
        .judge(Settings::default(), None, None, 2)
        .unwrap();
    assert_eq!(
        report.display,
        "240 Hz (measured 240.000 Hz: 3599 display gaps covering 3228 refreshes of 4.167 ms; \
         371 under half a refresh, two frames in one, set aside)"
    );
    assert_eq!(report.judged, 3_599);
}

#[test]
fn gaps_on_no_lattice_are_refused_even_beside_gaps_under_half_a_refresh() {
    // A variable refresh display, 48 to 144 Hz, with one frame in ten
    // reported 0.2 to 1.5 ms after the one before: no part of any gap is a
    // lattice, however fine.
    let mut rng = SplitMix64::new(3);
    let mut display = 1_000_000_000_u64;
    let mut rows = Vec::new();
    for _ in 0..3_000 {
        display += if rng.below(10) == 0 {
            200_000 + rng.below(1_300_000)
        } else {
            6_944_444 + rng.below(13_888_889)
        };
        rows.push((display - 1_000_000, display));
    }
    let error = measure(&rows).unwrap_err();
    assert!(
        matches!(error, TimingError::NoSteadyRate { best_fit_per_mille, .. } if best_fit_per_mille < 950),
        "{error:?}"
    );
    let refused = capture("vrr", &rows).judge(Settings::default(), None, None, 2);
    let Err(JudgeError::Timing(TimingError::NoSteadyRate { .. })) = refused else {
        panic!("judged: {refused:?}");
    };
}

#[test]
fn a_part_finer_than_the_finest_refresh_is_no_lattice() {
    // Gaps of 0.3 to 0.5 ms: split into parts of 0.2 ms or less, every gap
    // is within the 0.1 ms slack of a whole number of them.
    let mut rng = SplitMix64::new(5);
    let mut timing = DisplayTiming::new();
    let mut display = 0;
    for _ in 0..1_000 {
        display += 300_000 + rng.below(200_000);
        timing.push(display);
    }
    let error = timing.measure().unwrap_err();
    assert!(
        matches!(error, TimingError::NoSteadyRate { .. }),
        "{error:?}"
    );
}

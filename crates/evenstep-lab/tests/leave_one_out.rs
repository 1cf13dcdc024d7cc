//! Leave-one-family-out (`--leave-one-out`): the choice of a knob's value
//! in and out of sample, from hand-made tables with exact answers; the
//! knobs' table and its refusals; and a whole run on two captures, which
//! must leave every knob as shipped and find at the shipped value what a
//! plain judgment finds.
//!
//! The knobs are process-wide, so every test that sets one holds `KNOBS`
//! (this file is its own process: no other test plans meanwhile).

use std::path::PathBuf;
use std::sync::Mutex;

use evenstep_core::tuning;
use evenstep_lab::{Choice, Config, OBJECTIVES, Settings, Training, judge_file, leave_one_out};

static KNOBS: Mutex<()> = Mutex::new(());

fn capture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("traces")
        .join(name)
}

fn two_captures() -> Training {
    Training {
        settings: Settings::default(),
        phases: 8,
        traces: Vec::new(),
        families: Vec::new(),
        captures: vec![
            capture("csgo_60hz_composed.csv"),
            capture("dwm_120hz_vsync.csv"),
        ],
        display_hz: None,
    }
}

#[test]
fn the_value_with_the_least_sum_is_picked_and_each_trace_is_judged_at_the_others_pick() {
    // Three values on three traces; the shipped value is the third.
    let wrong = [vec![5, 1, 9], vec![3, 4, 2], vec![4, 4, 4]];
    // Sums 15, 9, 12: the second value. Left out, trace 0 and trace 1
    // see the second picked too (6 and 5 against 10, 8 and 14, 8), and
    // trace 2 sees the first (6 against 7 and 8), where it runs 9.
    assert_eq!(
        Choice::of(&wrong, 2),
        Some(Choice {
            picked: 1,
            in_sample: 9,
            left_out: 3 + 4 + 9,
            shipped: 12,
            moved: 1,
        })
    );
}

#[test]
fn a_tie_goes_to_the_shipped_value() {
    // Both sum to 2: the shipped one (the second) is picked. Left out,
    // each trace sees the value best on the other.
    let wrong = [vec![1, 1], vec![2, 0]];
    assert_eq!(
        Choice::of(&wrong, 1),
        Some(Choice {
            picked: 1,
            in_sample: 2,
            left_out: 2 + 1,
            shipped: 2,
            moved: 1,
        })
    );
    // Then to the first of the others.
    let wrong = [vec![1], vec![1], vec![3]];
    assert_eq!(Choice::of(&wrong, 2).map(|c| c.picked), Some(0));
}

#[test]
fn one_trace_left_out_of_one_is_judged_at_the_shipped_value() {
    // Nothing else to choose on: every value ties at zero.
    let wrong = [vec![7], vec![2], vec![5]];
    let choice = Choice::of(&wrong, 2).unwrap();
    assert_eq!((choice.picked, choice.in_sample), (1, 2));
    assert_eq!((choice.left_out, choice.shipped, choice.moved), (5, 5, 1));
}

#[test]
fn a_table_without_the_shipped_value_or_with_ragged_rows_chooses_nothing() {
    assert_eq!(Choice::of(&[vec![1, 2]], 1), None);
    assert_eq!(Choice::of(&[], 0), None);
    assert_eq!(Choice::of(&[vec![1, 2], vec![3]], 0), None);
}

#[test]
fn a_family_is_left_out_together() {
    // Traces 0 to 2 are siblings and favour the first value; trace 3
    // favours the second. Sums 2 and 6: the first is picked. Left out one
    // at a time, each sibling still sees the other two pick the first
    // value, and nothing moves; left out together, the siblings see trace
    // 3 pick the second, where they run 2 each: out of sample, the first
    // value's edge was only theirs.
    let wrong = [vec![0, 0, 0, 2], vec![2, 2, 2, 0]];
    let alone = Choice::of(&wrong, 1).unwrap();
    assert_eq!((alone.picked, alone.left_out, alone.moved), (0, 2, 0));
    let together = Choice::of_families(&wrong, 1, &[0, 0, 0, 1]).unwrap();
    assert_eq!(
        together,
        Choice {
            picked: 0,
            in_sample: 2,
            left_out: 2 + 2 + 2 + 2,
            shipped: 6,
            moved: 1,
        }
    );
    // A family for every trace, or no choice.
    assert_eq!(Choice::of_families(&wrong, 1, &[0, 0, 0]), None);
}

#[test]
fn families_that_do_not_name_every_profile_are_refused() {
    let training = Training {
        traces: vec![evenstep_lab::default_suite()[0].generate()],
        families: vec!["a".to_owned(), "b".to_owned()],
        ..two_captures()
    };
    assert_eq!(
        training.judge(),
        Err("2 families for 1 traces: name one for every trace, or none".to_owned())
    );
}

#[test]
fn every_knob_is_named_once_ships_a_value_it_tries_and_starts_shipped() {
    let _held = KNOBS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let knobs = tuning::knobs();
    assert_eq!(knobs.len(), 21);
    for (i, knob) in knobs.iter().enumerate() {
        assert!(knob.tried().contains(&knob.shipped()), "{}", knob.name());
        assert!(knob.tried().len() >= 3, "{}", knob.name());
        assert_eq!(knob.get(), knob.shipped(), "{}", knob.name());
        assert_eq!(tuning::knob(knob.name()), Some(*knob));
        assert!(knobs[..i].iter().all(|other| other.name() != knob.name()));
    }
    assert_eq!(tuning::knob("no-such-knob"), None);
}

#[test]
fn a_value_outside_a_knobs_range_is_refused_by_name_and_range() {
    let _held = KNOBS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let follow = tuning::knob("follow").unwrap();
    let error = follow.set(0).unwrap_err();
    assert_eq!(
        error.to_string(),
        "the pacing knob follow takes 1 to 1024, not 0"
    );
    assert_eq!(follow.get(), 20);
    let lead = tuning::knob("lead").unwrap();
    assert!(lead.set(0).is_ok(), "the lead may be none");
    tuning::reset();
    assert_eq!(lead.get(), 12);
}

#[test]
fn a_knob_set_reaches_the_planner_and_reset_brings_it_back() {
    let _held = KNOBS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let csgo = capture("csgo_60hz_composed.csv");
    let judge = || {
        let report = judge_file(&csgo, Settings::default(), None, None, 8).unwrap();
        OBJECTIVES.map(|config| report.counts(config).total())
    };
    let shipped = judge();
    // The negative control: feedback planning from its first prediction
    // on (no lead) plans csgo differently.
    tuning::knob("lead").unwrap().set(0).unwrap();
    let quicker = judge();
    tuning::reset();
    assert_ne!(
        quicker[1], shipped[1],
        "the referee's knobs reach the planner"
    );
    assert_eq!(
        quicker[0], shipped[0],
        "without feedback there is no referee"
    );
    assert_eq!(judge(), shipped);
}

#[test]
fn a_whole_run_leaves_every_knob_shipped_and_agrees_with_a_plain_judgment() {
    let _held = KNOBS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let training = two_captures();
    let report = leave_one_out(&training).unwrap();
    assert!(
        tuning::knobs()
            .iter()
            .all(|knob| knob.get() == knob.shipped())
    );
    assert_eq!(report.traces.len(), 2);
    assert_eq!(report.knobs.len(), tuning::knobs().len());
    let plain: Vec<[u64; 2]> = training
        .captures
        .iter()
        .map(|path| {
            let sweep = judge_file(path, Settings::default(), None, None, 8).unwrap();
            [Config::Locked, Config::Feedback].map(|config| sweep.counts(config).total())
        })
        .collect();
    for knob in &report.knobs {
        for (o, choice) in knob.choices.iter().enumerate() {
            let at_shipped: u64 = plain.iter().map(|scores| scores[o]).sum();
            assert_eq!(choice.shipped, at_shipped, "{}", knob.knob.name());
            assert!(choice.in_sample <= choice.shipped, "{}", knob.knob.name());
        }
    }
    let table = report.table();
    assert!(
        table.contains("| follow | 10, 15, 20, 30, 40 | 20 |"),
        "{table}"
    );
}

#[test]
fn a_capture_that_cannot_be_read_is_named() {
    let _held = KNOBS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut training = two_captures();
    training.captures.push(PathBuf::from("no/such/capture.csv"));
    let error = leave_one_out(&training).unwrap_err();
    assert!(error.starts_with("no/such/capture.csv: "), "{error}");
    assert!(
        tuning::knobs()
            .iter()
            .all(|knob| knob.get() == knob.shipped())
    );
}

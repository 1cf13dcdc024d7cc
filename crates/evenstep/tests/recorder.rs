//! Every log the recorder writes loads: any sequence of `record` and
//! `end_tick` calls either has a call refused when it is made, leaving the
//! log as it was, or leaves a log that JSON, postcard and `load` all accept
//! and read back equal, at any moment, also between recording a tick's
//! inputs and ending it.
#![cfg(all(feature = "json", feature = "postcard"))]

mod common;

use std::num::NonZeroU64;

use evenstep::{
    InputLog, Timestep,
    replay::{LoadError, RecordError},
};
use proptest::prelude::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Key(u8);

const MAX: u64 = InputLog::<Key>::MAX_TICKS;

/// The log read back by every loader, each of which must accept it.
fn every_loader_reads(log: &InputLog<Key>) -> Result<(), String> {
    let json = serde_json::to_string(log).map_err(|e| e.to_string())?;
    let bytes = postcard::to_allocvec(log).map_err(|e| e.to_string())?;
    let loaded: [(&str, Result<InputLog<Key>, LoadError>); 4] = [
        (
            "from_json",
            InputLog::from_json(&json, log.recorded_timestep()),
        ),
        (
            "from_postcard",
            InputLog::from_postcard(&bytes, log.recorded_timestep()),
        ),
        (
            "load (JSON)",
            InputLog::load(
                &mut serde_json::Deserializer::from_str(&json),
                log.recorded_timestep(),
            ),
        ),
        (
            "load (postcard)",
            InputLog::load(
                &mut postcard::Deserializer::from_bytes(&bytes),
                log.recorded_timestep(),
            ),
        ),
    ];
    for (loader, result) in loaded {
        match result {
            Ok(again) if again == *log => {}
            Ok(again) => return Err(format!("{loader} read back {again:?} for {log:?}")),
            Err(error) => return Err(format!("{loader} refused {log:?}: {error}")),
        }
    }
    Ok(())
}

fn log(every: u64) -> InputLog<Key> {
    InputLog::new(Timestep::HZ_60, NonZeroU64::new(every).unwrap())
}

#[test]
fn an_input_recorded_for_the_next_tick_saves_and_loads_with_every_loader() {
    let mut log = log(2);
    for tick in 0..6 {
        log.record(tick, Key(1)).unwrap();
        log.end_tick(tick, tick * 10).unwrap();
    }
    // The next tick's input, polled before its update runs, and a save.
    log.record(log.ticks(), Key(2)).unwrap();
    assert_eq!(log.events().last(), Some(&(6, Key(2))));
    every_loader_reads(&log).unwrap();
    // And an input recorded well ahead.
    log.record(40, Key(3)).unwrap();
    every_loader_reads(&log).unwrap();
}

#[test]
fn ticks_past_what_a_log_holds_are_refused_when_recorded() {
    let mut log = log(1);
    let refused = log.record(MAX, Key(0)).unwrap_err();
    assert_eq!(refused, RecordError::PastTickLimit { tick: MAX });
    assert_eq!(
        refused.to_string(),
        "tick 4294967296 is past the end of a log, which holds ticks 0 to 4294967295; \
         record a longer session as several logs"
    );
    assert_eq!(
        log.end_tick(MAX, 0),
        Err(RecordError::PastTickLimit { tick: MAX })
    );
    assert_eq!(log, self::log(1), "a refused call changes nothing");
    log.record(MAX - 1, Key(0)).unwrap();
    log.end_tick(MAX - 1, 5).unwrap();
    assert_eq!(log.ticks(), MAX);
    every_loader_reads(&log).unwrap();
}

#[test]
fn an_event_out_of_tick_order_is_refused_naming_the_earliest_tick_allowed() {
    let mut log = log(1);
    log.end_tick(9, 0).unwrap();
    assert_eq!(
        log.record(3, Key(0)),
        Err(RecordError::OutOfOrder { tick: 3, last: 10 })
    );
    log.record(10, Key(0)).unwrap();
    every_loader_reads(&log).unwrap();
}

#[derive(Clone, Copy, Debug)]
enum Call {
    Record(u64, u8),
    EndTick(u64, u64),
}

/// A tick near where the log is (just ended, being run, ahead), near the
/// limit, or anywhere.
fn tick() -> impl Strategy<Value = (u8, u64)> {
    prop_oneof![
        4 => (Just(0_u8), 0_u64..4),
        1 => (Just(1_u8), 0_u64..3),
        1 => (Just(2_u8), any::<u64>()),
    ]
}

/// Resolves a drawn tick against the log: an offset around its tick count,
/// around the limit, or the raw value.
fn resolve(log: &InputLog<Key>, (kind, n): (u8, u64)) -> u64 {
    match kind {
        0 => log.ticks().saturating_sub(1).saturating_add(n),
        1 => MAX - 1 + n,
        _ => n,
    }
}

fn calls() -> impl Strategy<Value = Vec<(bool, (u8, u64), u64)>> {
    prop::collection::vec((any::<bool>(), tick(), any::<u64>()), 0..40)
}

proptest! {
    #![proptest_config(common::config(512))]

    #[test]
    fn any_recorder_calls_are_refused_when_made_or_leave_a_log_every_loader_reads(
        every in prop_oneof![1_u64..5, Just(60_u64), Just(u64::MAX)],
        calls in calls(),
    ) {
        let mut log = log(every);
        every_loader_reads(&log).map_err(TestCaseError::fail)?;
        for (is_record, drawn, value) in calls {
            let tick = resolve(&log, drawn);
            let call = if is_record {
                Call::Record(tick, value as u8)
            } else {
                Call::EndTick(tick, value)
            };
            let before = log.clone();
            let result = match call {
                Call::Record(tick, key) => log.record(tick, Key(key)),
                Call::EndTick(tick, hash) => log.end_tick(tick, hash),
            };
            match result {
                Ok(()) => {}
                Err(RecordError::PastTickLimit { tick: refused }) => {
                    prop_assert_eq!(refused, tick);
                    prop_assert!(tick >= MAX);
                    prop_assert_eq!(&log, &before, "{:?} was refused but changed the log", call);
                }
                Err(RecordError::OutOfOrder { tick: refused, last }) => {
                    prop_assert!(matches!(call, Call::Record(..)));
                    prop_assert_eq!(refused, tick);
                    prop_assert!(tick < last);
                    prop_assert_eq!(&log, &before, "{:?} was refused but changed the log", call);
                }
                Err(error @ RecordError::TimestepChanged { .. }) => {
                    // Only the loop's recorder sees a change of step.
                    prop_assert!(false, "a log refused {:?} with {}", call, error);
                }
            }
            every_loader_reads(&log).map_err(TestCaseError::fail)?;
        }
    }
}

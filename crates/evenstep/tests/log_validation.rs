//! Loading an input log trusts nothing in it: the format version, unknown
//! fields, the tick count, events past the last tick a log holds,
//! checkpoints off the grid and bytes after the log are each refused with a
//! message saying what is wrong, the same message from every loader; events
//! recorded for ticks not yet ended are kept; the loop's own input is held
//! to what live input takes (no NaN motion); and a replay that compared no
//! checkpoint is not green.
#![cfg(all(feature = "json", feature = "postcard"))]

use std::num::NonZeroU64;

use evenstep::input::{Delivery, InputEvent};
use evenstep::{
    InputLog, StepContext, Timestep, replay,
    replay::{Input, LoadError},
};

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Add(u64);

impl Input<u64> for Add {
    fn apply(&self, x: &mut u64) {
        *x = x.wrapping_add(self.0);
    }
}

fn update(x: &mut u64, _: &StepContext<'_>) {
    *x = x.wrapping_mul(3);
}

#[allow(
    clippy::trivially_copy_pass_by_ref,
    reason = "replay hands the hash the state by reference"
)]
fn hash(x: &u64) -> u64 {
    *x
}

/// Six ticks, a checkpoint every two, an event at ticks 1 and 4.
fn six_ticks() -> InputLog<Add> {
    let mut log = InputLog::new(Timestep::HZ_60, NonZeroU64::new(2).unwrap());
    let mut x = 1_u64;
    for tick in 0..6 {
        if tick == 1 || tick == 4 {
            log.record(tick, Add(tick)).unwrap();
            x += tick;
        }
        x = x.wrapping_mul(3);
        log.end_tick(tick, hash(&x)).unwrap();
    }
    log
}

fn json_error(json: &str) -> String {
    match InputLog::<Add>::from_json(json, Timestep::HZ_60) {
        Ok(log) => panic!("loaded {log:?} from {json}"),
        Err(LoadError::Format(message)) => message,
        Err(other) => panic!("{other}"),
    }
}

fn saved() -> String {
    serde_json::to_string(&six_ticks()).unwrap()
}

#[test]
fn a_saved_log_loads_from_json_and_from_bytes_and_replays_green() {
    let log = six_ticks();
    let json = saved();
    assert!(json.starts_with(r#"{"version":1,"#), "{json}");
    let mut from_json = InputLog::<Add>::from_json(&json, Timestep::HZ_60).unwrap();
    assert_eq!(from_json, log);
    let bytes = postcard::to_allocvec(&log).unwrap();
    assert_eq!(
        InputLog::<Add>::from_postcard(&bytes, Timestep::HZ_60).unwrap(),
        log
    );
    let report = replay(&mut from_json, Timestep::HZ_60, &mut 1, update, hash).unwrap();
    assert!(report.is_green());
    assert_eq!(report.checkpoints, 3);
}

#[test]
fn a_replay_that_compared_no_checkpoint_is_not_green() {
    let mut empty = InputLog::<Add>::new(Timestep::HZ_60, NonZeroU64::new(60).unwrap());
    let report = replay(&mut empty, Timestep::HZ_60, &mut 1, update, hash).unwrap();
    assert_eq!((report.ticks, report.checkpoints), (0, 0));
    assert!(report.divergence.is_none());
    assert!(!report.is_green(), "nothing was compared");

    let mut short = InputLog::<Add>::new(Timestep::HZ_60, NonZeroU64::new(60).unwrap());
    short.end_tick(0, 5).unwrap();
    let report = replay(&mut short, Timestep::HZ_60, &mut 1, update, hash).unwrap();
    assert_eq!((report.ticks, report.checkpoints), (1, 0));
    assert!(!report.is_green());
}

#[test]
fn a_log_of_another_format_version_is_refused() {
    let message = json_error(&saved().replace(r#""version":1"#, r#""version":99"#));
    assert!(message.contains("version 99"), "{message}");
    assert!(message.contains("version 1"), "{message}");
    let message = json_error(&saved().replace(r#""version":1,"#, ""));
    assert!(message.contains("version"), "{message}");
}

#[test]
fn unknown_fields_are_refused() {
    let message =
        json_error(&saved().replace(r#"{"version":1,"#, r#"{"version":1,"mood":"sunny","#));
    assert!(message.contains("mood"), "{message}");
}

#[test]
fn events_past_the_last_tick_any_log_holds_are_refused() {
    let message = json_error(&saved().replace("[4,4]", "[4294967296,4]"));
    assert!(message.contains("tick 4294967296"), "{message}");
    assert!(message.contains("ticks 0 to 4294967295"), "{message}");
}

#[test]
fn events_for_ticks_not_yet_ended_are_kept_and_not_replayed() {
    // Saved between recording a tick's input and ending it.
    let json = saved().replace("[4,4]]", "[4,4],[6,6],[9,9]]");
    let mut log = InputLog::<Add>::from_json(&json, Timestep::HZ_60).unwrap();
    assert_eq!(log.ticks(), 6);
    assert_eq!(log.events_at(6), [(6, Add(6))]);
    let report = replay(&mut log, Timestep::HZ_60, &mut 1, update, hash).unwrap();
    assert!(
        report.is_green(),
        "the events after the last tick change nothing"
    );
    assert_eq!(report.ticks, 6);
}
#[test]
fn checkpoints_off_the_grid_or_past_the_last_tick_are_refused() {
    let log = six_ticks();
    let (tick, hash) = log.checkpoints()[1];
    assert_eq!(tick, 3);
    let json = saved();
    let message = json_error(&json.replace(&format!("[3,{hash}]"), &format!("[2,{hash}]")));
    assert!(message.contains("tick 2"), "{message}");
    assert!(message.contains("every 2 ticks"), "{message}");
    let (last, last_hash) = log.checkpoints()[2];
    let message = json_error(&json.replace(
        &format!("[{last},{last_hash}]"),
        &format!("[{last},{last_hash}],[7,{last_hash}]"),
    ));
    assert!(message.contains("tick 7"), "{message}");
}

/// The file form, field for field, to write broken files in postcard.
#[derive(serde::Serialize, serde::Deserialize)]
struct RawFile {
    version: u32,
    units_per_step: u64,
    units_per_nanosecond: u64,
    checkpoint_every: u64,
    ticks: u64,
    events: Vec<(u64, Add)>,
    checkpoints: Vec<(u64, u64)>,
}

/// A way to break a file, and words the refusal must contain.
type Breakage = (&'static str, fn(&mut RawFile));

fn postcard_error(bytes: &[u8]) -> String {
    match InputLog::<Add>::from_postcard(bytes, Timestep::HZ_60) {
        Ok(log) => panic!("loaded {log:?}"),
        Err(LoadError::Format(message)) => message,
        Err(other) => panic!("{other}"),
    }
}

#[test]
fn postcard_names_each_refusal_in_the_words_json_uses() {
    let broken: [Breakage; 8] = [
        ("version 99", |f| f.version = 99),
        ("timestep is invalid", |f| f.units_per_nanosecond = 0),
        ("every 0 ticks", |f| f.checkpoint_every = 0),
        ("18446744073709551615 ticks", |f| f.ticks = u64::MAX),
        ("not in tick order", |f| f.events.reverse()),
        ("tick 4294967296", |f| {
            f.events.push((InputLog::<Add>::MAX_TICKS, Add(0)));
        }),
        ("a checkpoint is at tick 2", |f| f.checkpoints[1].0 = 2),
        ("a checkpoint is at tick 7", |f| f.checkpoints.push((7, 0))),
    ];
    for (words, breaks) in broken {
        let mut file: RawFile = serde_json::from_str(&saved()).unwrap();
        breaks(&mut file);
        let from_json = json_error(&serde_json::to_string(&file).unwrap());
        let from_postcard = postcard_error(&postcard::to_allocvec(&file).unwrap());
        assert!(from_json.contains(words), "{words}: {from_json}");
        assert_eq!(from_postcard, from_json, "{words}");
        // And `load`, through either format's deserializer.
        let bytes = postcard::to_allocvec(&file).unwrap();
        let through_load = InputLog::<Add>::load(
            &mut postcard::Deserializer::from_bytes(&bytes),
            Timestep::HZ_60,
        )
        .unwrap_err();
        assert_eq!(through_load, LoadError::Format(from_json), "{words}");
    }
}

#[test]
fn a_tick_count_no_recording_reaches_is_refused() {
    let bloated = saved().replace(r#""ticks":6"#, &format!(r#""ticks":{}"#, u64::MAX));
    assert!(bloated.len() < 300);
    let message = json_error(&bloated);
    assert!(message.contains(&u64::MAX.to_string()), "{message}");
    assert!(
        message.contains(&InputLog::<Add>::MAX_TICKS.to_string()),
        "{message}"
    );
}

#[test]
fn bytes_after_the_log_are_refused() {
    let message = json_error(&format!("{} {{}}", saved()));
    assert!(message.contains("trailing"), "{message}");
    assert!(InputLog::<Add>::from_json(&format!("{}\n", saved()), Timestep::HZ_60).is_ok());

    let mut bytes = postcard::to_allocvec(&six_ticks()).unwrap();
    bytes.push(0);
    let error = InputLog::<Add>::from_postcard(&bytes, Timestep::HZ_60).unwrap_err();
    assert!(error.to_string().contains("1 byte"), "{error}");
}

#[test]
fn a_log_recorded_at_another_timestep_is_refused_by_every_loader() {
    let bytes = postcard::to_allocvec(&six_ticks()).unwrap();
    for error in [
        InputLog::<Add>::from_json(&saved(), Timestep::HZ_30).unwrap_err(),
        InputLog::<Add>::from_postcard(&bytes, Timestep::HZ_30).unwrap_err(),
    ] {
        assert!(matches!(error, LoadError::Timestep(_)), "{error}");
    }
}

/// A log of the loop's own input with one motion event, `dx` given.
fn motion_log(dx: f64) -> InputLog<Delivery> {
    let mut log = InputLog::new(Timestep::HZ_60, NonZeroU64::new(1).unwrap());
    log.record(
        0,
        Delivery {
            event: InputEvent::Motion { dx, dy: 1.0 },
            while_paused: false,
        },
    )
    .unwrap();
    log.end_tick(0, 7).unwrap();
    log
}

#[test]
fn a_motion_that_is_not_finite_is_refused_by_every_loader_as_live_input_refuses_it() {
    for dx in [f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
        let bytes = postcard::to_allocvec(&motion_log(dx)).unwrap();
        let Err(LoadError::Format(message)) =
            InputLog::<Delivery>::from_postcard(&bytes, Timestep::HZ_60)
        else {
            panic!("a motion of {dx} loaded from postcard");
        };
        assert!(message.contains("must be finite"), "{message}");
        // JSON writes a value that is not finite as `null`; one written by
        // hand as a number too large for an f64 reads as infinite.
        for json in [
            serde_json::to_string(&motion_log(dx)).unwrap(),
            serde_json::to_string(&motion_log(1.0))
                .unwrap()
                .replace("\"dx\":1.0", "\"dx\":1e999"),
        ] {
            assert!(
                InputLog::<Delivery>::from_json(&json, Timestep::HZ_60).is_err(),
                "{json}"
            );
        }
    }
    // A finite motion loads.
    let bytes = postcard::to_allocvec(&motion_log(-2.5)).unwrap();
    assert_eq!(
        InputLog::<Delivery>::from_postcard(&bytes, Timestep::HZ_60).unwrap(),
        motion_log(-2.5)
    );
}

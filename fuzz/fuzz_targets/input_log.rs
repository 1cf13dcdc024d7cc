//! Input-log decoding from JSON text and postcard bytes: any input is either
//! refused with an error or loads as a log that keeps every promise of
//! validation (events and checkpoints in order, on the grid, inside the
//! tick count), saves and loads back equal, and replays without a panic.
#![no_main]

use evenstep::{InputLog, StepContext, Timestep, replay, replay::ReplaySource};
use libfuzzer_sys::fuzz_target;

/// An input applied by adding it into the state.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
struct Add(u32);

impl evenstep::replay::Input<u64> for Add {
    fn apply(&self, state: &mut u64) {
        *state = state.wrapping_add(u64::from(self.0));
    }
}

/// Replays at most this many ticks, so one input stays quick.
const MAX_REPLAYED: u64 = 100_000;

fn check(mut log: InputLog<Add>) {
    let ticks = log.ticks();
    assert!(ticks <= InputLog::<Add>::MAX_TICKS);
    assert!(log.events().windows(2).all(|pair| pair[0].0 <= pair[1].0));
    assert!(
        log.events()
            .iter()
            .all(|(tick, _)| *tick < InputLog::<Add>::MAX_TICKS)
    );
    assert!(
        log.checkpoints()
            .windows(2)
            .all(|pair| pair[0].0 < pair[1].0)
    );
    assert!(log.checkpoints().iter().all(|(tick, _)| *tick < ticks));
    for &(tick, hash) in log.checkpoints() {
        assert_eq!(
            log.checkpoint(tick),
            Some(hash),
            "every checkpoint is found"
        );
    }

    let json = serde_json::to_string(&log).expect("a log saves as JSON");
    let again = InputLog::<Add>::from_json(&json, Timestep::HZ_60).expect("and loads back");
    assert_eq!(again, log);
    let bytes = postcard::to_allocvec(&log).expect("a log saves as postcard");
    let again = InputLog::<Add>::from_postcard(&bytes, Timestep::HZ_60).expect("and loads back");
    assert_eq!(again, log);

    if ticks <= MAX_REPLAYED {
        let update = |state: &mut u64, step: &StepContext<'_>| {
            *state = state.wrapping_mul(31).wrapping_add(step.tick());
        };
        let report = replay(&mut log, Timestep::HZ_60, &mut 0, update, |state| *state)
            .expect("recorded at 60 Hz");
        assert!(report.ticks <= ticks);
        assert!(report.checkpoints <= log.checkpoints().len() as u64);
        assert_eq!(
            report.is_green(),
            report.divergence.is_none() && report.checkpoints > 0
        );
    }
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the format; the rest is the file.
    let Some((&format, file)) = data.split_first() else {
        return;
    };
    let loaded = if format % 2 == 0 {
        let Ok(text) = std::str::from_utf8(file) else {
            return;
        };
        InputLog::<Add>::from_json(text, Timestep::HZ_60)
    } else {
        InputLog::<Add>::from_postcard(file, Timestep::HZ_60)
    };
    if let Ok(log) = loaded {
        check(log);
    }
});

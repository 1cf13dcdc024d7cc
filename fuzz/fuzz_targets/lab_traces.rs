//! The lab's trace readers and analysis: any text is either refused as a
//! CSV trace with an error or read into timestamps in order, and a trace
//! read (or a synthetic one described by the input) is analysed, tabled,
//! written as JSON and plotted without a panic.
#![no_main]

use std::time::Duration;

use arbitrary::{Arbitrary, Unstructured};
use evenstep_lab::{Jitter, Rate, Report, Settings, Synthetic, Trace, parse_csv, read_csv, svg};
use libfuzzer_sys::fuzz_target;

/// The longest trace analysed, so one input stays quick.
const MAX_FRAMES: usize = 2_000;

#[derive(Arbitrary, Debug)]
struct Described {
    num: u64,
    den: u64,
    frames: u16,
    jitter_us: u64,
    normal: bool,
    seed: u64,
    missed_per_mille: u32,
    stall_every: u64,
    stall_ms: u64,
    hidden_at_ms: u64,
    hidden_for_ms: u64,
    variable: Option<(u64, u64)>,
}

fn analyse(trace: &Trace) {
    if trace.len() > MAX_FRAMES {
        return;
    }
    let report = Report::new(Settings::default(), std::slice::from_ref(trace));
    let _ = report.table();
    let _ = report.json();
    let _ = svg(&report.traces[0], 0, 200);
}

fn synthetic(d: &Described) -> Option<Trace> {
    let rate = Rate::ratio(d.num, d.den).ok()?;
    let mut spec = Synthetic::new(rate)
        .frames(usize::from(d.frames) % MAX_FRAMES)
        .ok()?
        .jitter_us(
            d.jitter_us,
            if d.normal {
                Jitter::Normal
            } else {
                Jitter::Uniform
            },
        )
        .seed(d.seed)
        .missed_per_mille(d.missed_per_mille);
    spec = spec.stalls(d.stall_every, d.stall_ms).ok()?;
    spec = spec
        .hidden(
            Duration::from_millis(d.hidden_at_ms),
            Duration::from_millis(d.hidden_for_ms),
        )
        .ok()?;
    if let Some((slowest, fastest)) = d.variable {
        let slowest = Rate::ratio(slowest, 1).ok()?;
        let fastest = Rate::ratio(fastest, 1).ok()?;
        spec = spec.variable(slowest, fastest);
    }
    let _ = spec.name();
    Some(spec.generate())
}

fuzz_target!(|data: &[u8]| {
    // The first byte picks the reader: even, the rest is CSV text read with
    // an estimated display rate; odd, a synthetic trace described by the
    // rest, or CSV text read at a given rate.
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode % 2 == 0 {
        let Ok(text) = std::str::from_utf8(rest) else {
            return;
        };
        if let Ok((stamps, _)) = read_csv(text) {
            assert!(stamps.len() >= 2);
            assert!(stamps.is_sorted(), "timestamps are read in order");
        }
        if let Ok(trace) = parse_csv("fuzzed", text, None) {
            analyse(&trace);
        }
        return;
    }
    let mut unstructured = Unstructured::new(rest);
    if mode % 4 == 1 {
        if let Ok(described) = Described::arbitrary_take_rest(unstructured)
            && let Some(trace) = synthetic(&described)
        {
            analyse(&trace);
        }
    } else if let Ok((num, den)) = <(u64, u64)>::arbitrary(&mut unstructured)
        && let Ok(rate) = Rate::ratio(num, den)
        && let Ok(text) = <&str>::arbitrary_take_rest(unstructured)
        && let Ok(trace) = parse_csv("fuzzed", text, Some(rate))
    {
        analyse(&trace);
    }
});

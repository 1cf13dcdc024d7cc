//! The lab's capture path: any bytes, read as a capture (the two-column
//! `present_ms,display_ms` format, or a PresentMon 1.x or 2.x, FrameView or
//! CapFrameX log by its column names), with or without a process filter and
//! a given display rate, are either refused with a short error or judged;
//! a judged capture's counts agree with each other, and the same capture
//! read into memory is analysed and plotted.
#![no_main]

use evenstep_lab::{Capture, ProcessFilter, Rate, Settings, TraceReport, svg};
use libfuzzer_sys::fuzz_target;

/// The longest error message any capture may give.
const MAX_MESSAGE: usize = 2_048;

fuzz_target!(|data: &[u8]| {
    // The first byte picks the options: bit 0 a given display rate, bits 1
    // and 2 a process filter (by name or by id), bits 4 and 5 the phases.
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let display_hz = if mode & 1 == 1 {
        Rate::hz(120).ok()
    } else {
        None
    };
    let process = match (mode >> 1) & 3 {
        1 => Some(ProcessFilter::parse("game.exe")),
        2 => Some(ProcessFilter::parse("100")),
        _ => None,
    };
    let phases = 1 + u32::from(mode >> 4) % 4;
    let capture = Capture::Bytes {
        name: "fuzzed".to_owned(),
        bytes: rest.to_vec(),
    };
    let settings = Settings::default();
    let report = match capture.judge(settings, display_hz, process.as_ref(), phases) {
        Ok(report) => report,
        Err(error) => {
            let message = error.to_string();
            assert!(
                message.len() <= MAX_MESSAGE,
                "a message of {} bytes",
                message.len()
            );
            return;
        }
    };
    assert!(report.shown <= report.presented);
    assert_eq!(report.judged, report.shown.saturating_sub(1));
    assert!(report.display_fed <= report.judged);
    for counts in &report.configs {
        assert_eq!(counts.wrong.len(), phases as usize);
        assert!(counts.worst() <= report.judged, "{counts:?}");
    }
    let _ = report.table();
    let trace = capture
        .trace(display_hz, process.as_ref())
        .expect("a capture that was judged is read into memory");
    assert_eq!(trace.len() as u64, report.presented);
    let analysed = TraceReport::analyse(&trace, &settings, 1);
    let _ = svg(&analysed, 0, 200);
});

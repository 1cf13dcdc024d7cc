//! Statistics decoding: any JSON text or postcard bytes either fail to
//! decode or give a `LoopStats` that encodes and decodes back equal, in both
//! formats.
#![no_main]

use evenstep::LoopStats;
use libfuzzer_sys::fuzz_target;

fn round_trips(stats: &LoopStats) {
    let json = serde_json::to_string(stats).expect("statistics save as JSON");
    let again: LoopStats = serde_json::from_str(&json).expect("and load back");
    assert_eq!(&again, stats);
    let bytes = postcard::to_allocvec(stats).expect("statistics save as postcard");
    let again: LoopStats = postcard::from_bytes(&bytes).expect("and load back");
    assert_eq!(&again, stats);
    let _ = stats.dropped_secs();
}

fuzz_target!(|data: &[u8]| {
    let Some((&format, file)) = data.split_first() else {
        return;
    };
    let decoded = if format % 2 == 0 {
        std::str::from_utf8(file)
            .ok()
            .and_then(|text| serde_json::from_str::<LoopStats>(text).ok())
    } else {
        postcard::from_bytes::<LoopStats>(file).ok()
    };
    if let Some(stats) = decoded {
        round_trips(&stats);
    }
});

//! Writes a PresentMon 1.x log of many rows to standard output, for
//! `scripts/streaming_rss.sh`, which checks that the lab judges a log of ten
//! million rows in bounded memory.
//!
//! `cargo run --release --example big_log -- <rows> [--pid-per-row]`
//!
//! The game (`game.exe`) presents behind a 60 Hz vsync queue, each frame
//! shown two refreshes after the refresh it was presented before, with
//! 1–4 ms of render-time noise; one frame in a thousand is dropped. Every
//! 100,000 rows a second process (`overlay.exe`) logs a run of 100 rows,
//! which `--process game.exe` leaves out.
//!
//! With `--pid-per-row`, every row of the game has a process id of its
//! own (the worst case for the survey of processes: ten million of them).

use std::io::{BufWriter, Write};

fn main() -> std::io::Result<()> {
    let rows: u64 = std::env::args()
        .nth(1)
        .and_then(|text| text.parse().ok())
        .unwrap_or(10_000_000);
    let pid_per_row = std::env::args().any(|arg| arg == "--pid-per-row");
    let out = std::io::stdout().lock();
    let mut out = BufWriter::with_capacity(1 << 16, out);
    writeln!(
        out,
        "Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,\
         AllowsTearing,PresentMode,Dropped,TimeInSeconds,MsBetweenPresents,\
         MsBetweenDisplayChange,MsInPresentAPI,MsUntilRenderComplete,MsUntilDisplayed"
    )?;
    let period = 1_000.0 / 60.0;
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    let mut noise = move || {
        // xorshift64*: plenty for render-time noise.
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1_u64 << 53) as f64
    };
    let mut previous = 0.0_f64;
    let mut written = 0_u64;
    let mut frame = 0_u64;
    while written < rows {
        if written % 100_000 == 99_900 {
            for k in 0..100 {
                writeln!(
                    out,
                    "overlay.exe,200,0x9,DXGI,0,0,1,Composed: Flip,0,{:.6},8.333,8.333,0.1,1.0,4.000",
                    1.0 + (frame as f64 * period + f64::from(k) * 8.333) / 1_000.0,
                )?;
            }
            written += 100;
            continue;
        }
        frame += 1;
        let refresh = 1_000.0 + frame as f64 * period;
        let present = refresh - 1.0 - 3.0 * noise();
        let dropped = frame % 1_000 == 0;
        let until_displayed = if dropped {
            0.0
        } else {
            refresh + 2.0 * period - present
        };
        writeln!(
            out,
            "game.exe,{},0x1,DXGI,1,0,0,Composed: Flip,{},{:.6},{:.3},{:.3},0.1,2.0,{:.3}",
            if pid_per_row { 1_000 + frame } else { 100 },
            u8::from(dropped),
            present / 1_000.0,
            present - previous,
            if dropped { 0.0 } else { period },
            until_displayed,
        )?;
        previous = present;
        written += 1;
    }
    out.flush()
}

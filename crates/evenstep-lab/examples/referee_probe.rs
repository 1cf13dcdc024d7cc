//! Per frame, where the default with display feedback and the default
//! without it disagree on a trace: which was right, and whether feedback
//! was planning then.
//!
//! `cargo run -p evenstep-lab --release --example referee_probe -- PROFILE|CSV [PHASE]`

use evenstep_lab::{
    Capture, Config, DisplayTiming, Measured, Planner, Rule, Settings, Tally, default_suite,
};

const CLOCK_BASE: u64 = 10_000_000_000;

fn main() {
    let mut args = std::env::args().skip(1);
    let which = args.next().expect("a profile number or a CSV");
    let phase: u32 = args.next().map_or(0, |p| p.parse().expect("a phase"));
    let trace = match which.parse::<usize>() {
        Ok(n) => default_suite()[n - 1].generate(),
        Err(_) => Capture::open(std::path::Path::new(&which))
            .and_then(|c| c.trace(None, None))
            .expect("a capture"),
    };
    let display = trace.display().expect("display times").to_vec();
    let mut timing = DisplayTiming::new();
    for &d in display.iter().flatten() {
        timing.push(d);
    }
    let measured: Measured = timing.measure().expect("a rate");
    let settings = Settings::default();
    let rule = Rule::new(settings.step_rate(), measured.nominal().expect("nominal"));
    let step = 1e9 / settings.step_rate().as_f64();
    let first = trace.stamps()[0] + CLOCK_BASE;
    let shift = (step * f64::from(phase) / 8.0) as u64;
    let anchor = first - (measured.period_nanos() as u64 + shift);
    let mut locked = Planner::new(Config::Locked, &settings, anchor);
    let mut fed = Planner::new(Config::Feedback, &settings, anchor);
    let (mut tl, mut tf) = (Tally::new(), Tally::new());
    let mut pending: std::collections::VecDeque<(u64, u64, Option<u64>)> = Default::default();
    let mut last = None;
    let mut counts = [[0_u32; 2]; 2];
    let mut hist = [false; 4];
    let (mut near_switch, mut switches) = (0, 0);
    for (row, (&present, &shown)) in trace.stamps().iter().zip(&display).enumerate() {
        let row = row as u64;
        let now = present + CLOCK_BASE;
        for (_, d, from) in &mut pending {
            if from.is_none() && *d < now {
                *from = Some(row);
            }
        }
        while pending
            .front()
            .is_some_and(|&(_, _, f)| f.is_some_and(|f| f <= row))
        {
            let (r, d, _) = pending.pop_front().unwrap();
            if row - r <= 32 {
                fed.shown(r, d);
            }
        }
        let trusted = fed
            .frame_loop()
            .and_then(|f| f.shown_display())
            .is_some_and(|d| d.is_trusted());
        if std::env::var("BLOCKS").is_ok() && row % 500 == 0 {
            println!(
                "block {row}: counts {:?} trusted {trusted} wrong locked {} fed {}",
                fed.frame_loop().unwrap().referee_counts(),
                tl.wrong(),
                tf.wrong()
            );
        }
        hist.rotate_right(1);
        hist[0] = trusted;
        switches += u32::from(hist[0] != hist[1]);
        let switched = hist.windows(2).any(|w| w[0] != w[1]);
        let (wl, wf) = (tl.wrong(), tf.wrong());
        let sl = locked.plan(now).steps;
        let sf = fed.plan(now).steps;
        tl.push(&measured, &rule, shown, sl);
        tf.push(&measured, &rule, shown, sf);
        let (bl, bf) = (tl.wrong() > wl, tf.wrong() > wf);
        if bl != bf {
            counts[usize::from(trusted)][usize::from(bf)] += 1;
            near_switch += u32::from(switched && bf);
            println!(
                "row {row:6} {:?} trusted {trusted:5} locked {sl} {} fed {sf} {} present {:.3} shown {:?}",
                fed.frame_loop().unwrap().referee_counts(),
                if bl { "WRONG" } else { "right" },
                if bf { "WRONG" } else { "right" },
                present as f64 / 1e6,
                shown.map(|d| d as f64 / 1e6),
            );
        }
        if let Some(d) = shown
            && last.is_none_or(|l| d > l)
        {
            last = Some(d);
            pending.push_back((row, d + CLOCK_BASE, None));
        }
    }
    println!(
        "totals: locked {} fed {}; untrusted: fed worse {} better {}; trusted: fed worse {} better {}",
        tl.wrong(),
        tf.wrong(),
        counts[0][1],
        counts[0][0],
        counts[1][1],
        counts[1][0]
    );
    println!("fed worse within 3 frames of a switch: {near_switch}; switches {switches}");
}

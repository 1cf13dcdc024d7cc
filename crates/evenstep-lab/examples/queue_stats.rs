//! Prints the timing statistics of every vsync-queue profile of the default
//! suite: present gaps, display gaps, present-to-display latency and the
//! share of display gaps of two refreshes or more.
//!
//! `cargo run -p evenstep-lab --release --example queue_stats`

use evenstep_lab::{Profile, TraceStats, default_suite};

fn main() {
    for (number, profile) in (1..).zip(default_suite()) {
        if let Profile::Queued(_) = profile {
            let trace = profile.generate();
            match TraceStats::of(&trace) {
                Some(stats) => println!("#{number} {}\n    {stats}", trace.name()),
                None => println!("#{number} {}: no display times", trace.name()),
            }
        }
    }
}

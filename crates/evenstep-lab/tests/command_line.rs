//! The command line: bad numbers are refused naming the real bound, a
//! capture can be plotted, and `--help` lists every profile of the default
//! suite, from the suite itself.

use std::process::{Command, Output};

use evenstep_lab::default_suite;

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_evenstep-lab"))
        .args(args)
        .output()
        .unwrap()
}

/// The error line of a refused command (exit status 2).
fn refusal(args: &[&str]) -> String {
    let output = lab(args);
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
    stderr
}

#[test]
fn a_frame_count_past_the_bound_is_refused_naming_the_bound() {
    let error = refusal(&["--frames", "1000000000000"]);
    assert_eq!(
        error,
        "evenstep-lab: a trace of 1000000000000 frames; a synthetic trace has at most \
         10000000 frames (MAX_FRAMES)\n"
    );
}

#[test]
fn a_feedback_delay_past_what_the_planner_remembers_is_refused_naming_the_most() {
    let error = refusal(&["--feedback-delay", "32", "--frames", "100"]);
    assert_eq!(
        error,
        "evenstep-lab: feedback delay: 32 rows is past 31, the most after which the planner \
         still remembers the frame\n"
    );
}

#[test]
fn a_rate_too_slow_to_write_is_refused_naming_the_slowest_rate() {
    let error = refusal(&["--hz", "0.0000000001"]);
    assert!(
        error.contains("a rate of `0.0000000001`")
            && error.contains("from 1/4294967295 Hz")
            && !error.contains("above 0"),
        "{error}"
    );
}

#[test]
fn a_hidden_span_past_a_day_is_refused_naming_a_day() {
    for flag in ["--hide-at", "--hide-for"] {
        let error = refusal(&[flag, "1e10", "--hide-for", "1", "--hide-at", "1"]);
        assert!(
            error.contains("`1e10`: expected a number of seconds from 0 to 86400 (a day)"),
            "{flag}: {error}"
        );
    }
    let error = refusal(&["--snap-tolerance", "51"]);
    assert!(
        error.contains("`51`: expected a number of milliseconds from 0 to 50"),
        "{error}"
    );
}

#[test]
fn a_knob_is_refused_naming_the_knobs_or_its_range() {
    let unknown = refusal(&["--knob", "unlock=5", "--frames", "100"]);
    assert!(
        unknown.starts_with(
            "evenstep-lab: --knob unlock=5: no knob is named unlock; the knobs are slack, \
             locked-spread,"
        ),
        "{unknown}"
    );
    assert_eq!(
        refusal(&["--knob", "follow=0", "--frames", "100"]),
        "evenstep-lab: --knob follow=0: the pacing knob follow takes 1 to 1024, not 0\n"
    );
    assert_eq!(
        refusal(&["--knob", "follow=x", "--frames", "100"]),
        "evenstep-lab: --knob follow=x: the value must be a whole number from 1 to 1024\n"
    );
    assert_eq!(
        refusal(&["--knob", "follow", "--frames", "100"]),
        "evenstep-lab: --knob follow: expected NAME=VALUE\n"
    );
    assert_eq!(
        refusal(&["--leave-one-out", "--knob", "follow=20"]),
        "evenstep-lab: --leave-one-out sets the knobs itself: it takes no --knob\n"
    );
}

#[test]
fn a_knob_set_changes_the_plans_and_its_shipped_value_does_not() {
    let csgo = concat!(env!("CARGO_MANIFEST_DIR"), "/traces/csgo_60hz_composed.csv");
    let report = |knob: &[&str]| {
        let mut args = vec!["--csv", csgo, "--json"];
        args.extend_from_slice(knob);
        let output = lab(&args);
        assert!(output.status.success(), "{knob:?}");
        String::from_utf8(output.stdout).unwrap()
    };
    let shipped = report(&[]);
    assert_eq!(report(&["--knob", "clean-spread=16"]), shipped);
    // Trusting no lattice as clean moves the default's plans on csgo.
    assert_ne!(report(&["--knob", "clean-spread=1024"]), shipped);
}

#[test]
fn a_csv_capture_is_plotted() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/traces/farcrynewdawn_120hz_composed.csv"
    );
    let svg = std::env::temp_dir().join(format!("evenstep-plot-{}.svg", std::process::id()));
    let output = lab(&[
        "--csv",
        path,
        "--phases",
        "1",
        "--svg",
        svg.to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success(), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "wrote {}: trace #1 farcrynewdawn_120hz_composed.csv\n",
            svg.display()
        )
    );
    let drawing = std::fs::read_to_string(&svg).unwrap();
    std::fs::remove_file(&svg).unwrap();
    assert!(drawing.starts_with("<svg"));
    assert!(drawing.contains("farcrynewdawn_120hz_composed.csv: steps per frame"));
    let error = refusal(&[
        "--csv",
        path,
        "--phases",
        "1",
        "--svg",
        "x.svg",
        "--plot-trace",
        "2",
    ]);
    assert!(
        error.contains("--plot-trace 2: there are traces 1 to 1"),
        "{error}"
    );
}

#[test]
fn the_help_lists_every_profile_of_the_default_suite() {
    let output = lab(&["--help"]);
    assert!(output.status.success());
    // The help is wrapped to the terminal's width (or clap's default):
    // compare its words, not its line breaks.
    let help = String::from_utf8_lossy(&output.stdout)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let suite = default_suite();
    assert_eq!(suite.len(), 21);
    assert!(help.contains("Default suite (21 profiles"), "{help}");
    for (number, profile) in (1..).zip(&suite) {
        let entry = format!("{number}. {}", profile.name())
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(help.contains(&entry), "{entry} is not in the help:\n{help}");
    }
}

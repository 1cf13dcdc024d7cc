//! The report's three outputs: the plain table (a block per trace, a row per
//! configuration, a summary), the JSON (every metric, machine-readable) and
//! the SVG plot (both panels, every configuration).

use evenstep_lab::{Config, Jitter, Rate, Refresh, Report, Settings, Synthetic, Trace, svg};

fn two_traces() -> Report {
    let traces = [
        Synthetic::new(Rate::hz(60).unwrap())
            .frames(500)
            .unwrap()
            .jitter_us(1_000, Jitter::Uniform)
            .generate(),
        Synthetic::new(Rate::hz(144).unwrap())
            .frames(500)
            .unwrap()
            .generate(),
    ];
    Report::new(Settings::default(), &traces)
}

#[test]
fn the_table_has_a_block_per_trace_a_row_per_configuration_and_a_summary() {
    let table = two_traces().table();
    assert!(table.starts_with("evenstep-lab: 60 steps/s, budget 5 steps, snap tolerance 2 ms"));
    assert!(table.contains("#1 60 Hz ±1 ms: 500 frames on 60 Hz, ideal 1 step per refresh"));
    assert!(table.contains("#2 144 Hz: 500 frames on 144 Hz, ideal 5 steps per 12 refreshes"));
    for config in Config::ALL {
        let rows = table
            .lines()
            .filter(|line| line.starts_with(config.label()));
        assert_eq!(rows.count(), 2, "{config}: a row per trace");
    }
    assert!(table.contains("stuttering frames, after the first 16 of each trace"));
}

#[test]
fn the_json_carries_every_metric_of_every_configuration() {
    let json: serde_json::Value = serde_json::from_str(&two_traces().json()).unwrap();
    assert_eq!(json["budget"], 5);
    assert_eq!(json["warm_up_frames"], 16);
    assert_eq!(json["step_hz_exact"], "60");
    let traces = json["traces"].as_array().unwrap();
    assert_eq!(traces.len(), 2);
    assert_eq!(traces[0]["display_hz_exact"], "60");
    let configs = traces[0]["configs"].as_array().unwrap();
    let keys: Vec<&str> = configs
        .iter()
        .map(|c| c["config"].as_str().unwrap())
        .collect();
    assert_eq!(
        keys,
        [
            "naive_f64",
            "godot",
            "off",
            "centred",
            "snapped",
            "locked",
            "feedback"
        ]
    );
    for config in configs {
        let histogram = &config["histogram"];
        let total: u64 = ["0", "1", "2", "3", "4+"]
            .iter()
            .map(|k| histogram[k].as_u64().unwrap())
            .sum();
        assert_eq!(total, 500);
        for field in [
            "stutter",
            "double_updates",
            "drift_ms",
            "drift_ppm",
            "dropped_ms",
            "steps",
        ] {
            assert!(config[field].is_number(), "{field}");
        }
    }
    assert!(
        configs[0]["phase_shift_ms"].is_null(),
        "not for the naive accumulator"
    );
    assert!(configs[3]["phase_shift_ms"].is_number());
}

#[test]
fn the_svg_draws_both_panels_with_every_configuration() {
    let report = two_traces();
    let drawing = svg(&report.traces[0], 16, 100).unwrap();
    assert!(drawing.starts_with("<svg") && drawing.trim_end().ends_with("</svg>"));
    assert!(drawing.contains("steps per frame, frames 16–115"));
    assert!(drawing.contains("simulation time minus wall time"));
    for config in Config::ALL {
        // A band label in the steps panel and a legend entry in the drift one.
        assert_eq!(drawing.matches(config.label()).count(), 2, "{config}");
    }
}

#[test]
fn an_empty_or_one_frame_trace_reports_and_plots_without_panicking() {
    let refresh = Refresh::Fixed(Rate::hz(60).unwrap());
    let traces = [
        Trace::new("empty", Vec::new(), refresh),
        Trace::new("one", vec![5], refresh),
    ];
    let report = Report::new(Settings::default(), &traces);
    assert_eq!(report.traces[0].metrics(Config::Snapped).steps, 0);
    assert_eq!(report.traces[1].metrics(Config::Centred).steps, 1);
    for trace in &report.traces {
        svg(trace, 16, 300).unwrap();
    }
}

/// The `fill` of the first `<text>` element that reads `label` (the steps
/// panel's, drawn in the configuration's colour).
fn text_fill<'a>(drawing: &'a str, label: &str) -> &'a str {
    let (end, _) = drawing
        .match_indices(label)
        .find(|&(at, _)| drawing[..at].trim_end().ends_with('>'))
        .unwrap();
    let start = drawing[..end].rfind("<text").unwrap();
    let element = &drawing[start..end];
    let fill = element.find("fill=\"").unwrap() + 6;
    &element[fill..fill + element[fill..].find('"').unwrap()]
}

#[test]
fn every_configuration_is_plotted_in_a_colour_of_its_own_with_a_visible_drift_line() {
    let report = two_traces();
    let drawing = svg(&report.traces[0], 16, 100).unwrap();
    let colours: Vec<&str> = Config::ALL
        .iter()
        .map(|config| text_fill(&drawing, config.label()))
        .collect();
    for (index, colour) in colours.iter().enumerate() {
        assert!(
            !colours[..index].contains(colour),
            "{} shares {colour}: {colours:?}",
            Config::ALL[index]
        );
        // Each drift line is drawn at least 2 px wide in its colour.
        let widths: Vec<u32> = drawing
            .match_indices(&format!("stroke=\"{colour}\" stroke-width=\""))
            .filter_map(|(at, found)| {
                let rest = &drawing[at + found.len()..];
                rest[..rest.find('"')?].parse().ok()
            })
            .collect();
        assert!(widths.iter().any(|&w| w >= 2), "{colour}: {widths:?}");
    }
}

#[test]
fn each_summary_says_what_it_judges_and_which_one_carries_the_labs_targets() {
    let table = two_traces().table();
    let lines: Vec<&str> = table.lines().collect();
    // The two lines under each heading.
    let under = |heading: &str| {
        let at = lines
            .iter()
            .position(|line| line.starts_with(heading))
            .unwrap_or_else(|| panic!("no `{heading}` in\n{table}"));
        [lines[at + 1], lines[at + 2]]
    };
    assert_eq!(
        under("stuttering frames, after the first 16 of each trace"),
        [
            "  judges each frame by its own stamps' cadence, the ideal step pattern for the \
             refreshes they span:",
            "  stricter than the screen needs (on 75, 144 and 165 Hz it counts frames the display \
             judges right); a diagnostic, not the lab's targets:"
        ]
    );
    assert_eq!(
        under("wrong shown frames, mean / worst over 8 start phases"),
        [
            "  judges each shown frame's steps against the refreshes it stayed on screen, by its \
             display times:",
            "  the lab's targets are set on this table:"
        ]
    );
    assert!(
        table.contains("a diagnostic: the lab's targets are set on wrong shown\nframes"),
        "the key says it too"
    );
}

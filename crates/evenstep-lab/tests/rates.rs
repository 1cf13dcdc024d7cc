//! Rates in hertz: parsed from whole numbers, broadcast decimals (59.94 is
//! 60000/1001), exact decimals and fractions; refused with the accepted forms
//! when they are not a positive rate; exact when turned into instants.

use evenstep_lab::Rate;

fn parsed(text: &str) -> (u64, u64) {
    let rate: Rate = text.parse().unwrap();
    (rate.numerator(), rate.denominator())
}

#[test]
fn whole_numbers_fractions_and_decimals_parse_exactly() {
    assert_eq!(parsed("60"), (60, 1));
    assert_eq!(parsed("144 Hz"), (144, 1));
    assert_eq!(parsed("60000/1001"), (60_000, 1_001));
    assert_eq!(parsed("120/2"), (60, 1));
    assert_eq!(parsed("143.5"), (287, 2));
    assert_eq!(parsed("59.9"), (599, 10), "not a broadcast rate");
}

#[test]
fn broadcast_decimals_mean_a_thousand_over_a_thousand_and_one() {
    assert_eq!(parsed("59.94"), (60_000, 1_001));
    assert_eq!(parsed("29.97"), (30_000, 1_001));
    assert_eq!(parsed("23.976"), (24_000, 1_001));
    assert_eq!(parsed("119.88"), (120_000, 1_001));
}

#[test]
fn anything_else_is_refused_naming_the_accepted_forms() {
    for text in [
        "0", "-60", "abc", "60/0", "", ".", "6.0.1", "1e3", "2000000",
    ] {
        let error = text.parse::<Rate>().unwrap_err().to_string();
        assert!(error.contains(&format!("`{text}`")), "{error}");
        assert!(error.contains("N/D") && error.contains("59.94"), "{error}");
    }
}

#[test]
fn instants_are_exact_and_displayed_rounded() {
    let ntsc: Rate = "59.94".parse().unwrap();
    assert_eq!(ntsc.refresh_at(60_000), 1_001_000_000_000);
    assert_eq!(ntsc.period_nanos(), 16_683_333);
    assert_eq!(ntsc.periods_in(33_366_667), 2);
    assert_eq!(ntsc.first_tick_at_or_after(16_683_334), 2);
    assert_eq!(ntsc.to_string(), "59.94 Hz");
    assert_eq!(ntsc.exact(), "60000/1001");
    assert_eq!(Rate::hz(165).unwrap().to_string(), "165 Hz");
}

#[test]
fn a_rate_refused_inside_zero_to_a_megahertz_names_the_limit_it_breaks() {
    // Slower than one tick in 2^32 - 1 seconds: no denominator holds it.
    let slow = "0.0000000001".parse::<Rate>().unwrap_err().to_string();
    assert!(
        slow.contains("from 1/4294967295 Hz") && !slow.contains("above 0"),
        "{slow}"
    );
    assert!(Rate::ratio(1, u64::from(u32::MAX)).is_ok());
    // In range, but finer than a numerator and denominator of 32 bits hold.
    let fine = "999999.9999999".parse::<Rate>().unwrap_err().to_string();
    assert!(
        fine.contains("9999999999999/10000000") && fine.contains("each at most 4294967295"),
        "{fine}"
    );
    let fast = "2000000".parse::<Rate>().unwrap_err().to_string();
    assert!(fast.contains("`2000000`, over 1 MHz"), "{fast}");
}

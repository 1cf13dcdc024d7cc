//! The settings' contracts: time sync's exact speeds and its range, the
//! whole frame rate ggrs is told, and the link's range; bad settings are
//! refused with an error naming the valid range.

use evenstep::{Speed, Timestep};
use evenstep_ggrs::{LinkConfig, LinkConfigError, TimeSync, TimeSyncError, ggrs_fps};

#[test]
fn the_default_time_sync_makes_a_step_ten_percent_longer_per_frame_ahead_up_to_three() {
    let sync = TimeSync::DEFAULT;
    assert_eq!(sync.speed(-4), Speed::NORMAL);
    assert_eq!(sync.speed(0), Speed::NORMAL);
    assert_eq!(sync.speed(1), Speed::new(100, 110).unwrap());
    assert_eq!(sync.speed(2), Speed::new(100, 120).unwrap());
    assert_eq!(sync.speed(3), Speed::new(100, 130).unwrap());
    assert_eq!(sync.speed(40), Speed::new(100, 130).unwrap());
    assert_eq!(TimeSync::OFF.speed(5), Speed::NORMAL);
    assert!(!TimeSync::OFF.is_on());
    assert_eq!(TimeSync::default(), TimeSync::DEFAULT);
}

#[test]
fn a_custom_time_sync_is_exact_and_a_bad_one_names_the_ranges() {
    let sync = TimeSync::adjust(5, 10).unwrap();
    assert_eq!(sync.speed(10), Speed::new(100, 150).unwrap());
    assert_eq!(
        TimeSync::adjust(100, 10).unwrap().speed(99),
        Speed::new(100, 1_100).unwrap()
    );
    for (percent, frames) in [(0, 3), (101, 3), (10, 0), (10, 11)] {
        let error = TimeSync::adjust(percent, frames).unwrap_err();
        assert_eq!(
            error,
            TimeSyncError {
                percent_per_frame: percent,
                max_frames: frames
            }
        );
        let text = error.to_string();
        assert!(
            text.contains("1..=100") && text.contains("1..=10"),
            "{text}"
        );
    }
}

#[test]
fn ggrs_is_told_the_step_rate_rounded_to_a_whole_number() {
    assert_eq!(ggrs_fps(Timestep::HZ_60), 60);
    assert_eq!(ggrs_fps(Timestep::HZ_59_94), 60);
    assert_eq!(ggrs_fps(Timestep::HZ_29_97), 30);
    assert_eq!(ggrs_fps(Timestep::HZ_240), 240);
    assert_eq!(
        ggrs_fps(Timestep::from_ratio(1, 2).unwrap()),
        1,
        "at least 1"
    );
    assert_eq!(
        ggrs_fps(Timestep::from_ratio(5, 2).unwrap()),
        3,
        "half rounds up"
    );
}

#[test]
fn a_link_out_of_range_is_refused_naming_the_ranges() {
    assert!(LinkConfig::new(0, 1_000, 100).is_ok());
    for (min, max, loss) in [(5, 4, 0), (0, 1_001, 0), (0, 0, 101)] {
        let error = LinkConfig::new(min, max, loss).unwrap_err();
        assert_eq!(
            error,
            LinkConfigError {
                min_delay: min,
                max_delay: max,
                loss_percent: loss
            }
        );
        let text = error.to_string();
        assert!(
            text.contains("min <= max <= 1000") && text.contains("0..=100"),
            "{text}"
        );
    }
}

//! Between Bevy's step and evenstep's: `Time<Fixed>` holds its step as a
//! whole number of nanoseconds, evenstep as an exact fraction of a second.

use core::time::Duration;

use evenstep_core::{Rate, Timestep};

use crate::published::Refusal;

/// The rates a `Time<Fixed>` step is read back as: whole hertz, and the
/// NTSC family (`n / 1001` seconds).
const PER_SECONDS: [u64; 2] = [1, 1_001];

/// The longest step evenstep takes: one hour.
const LONGEST: Duration = Duration::from_hours(1);

/// The exact step a `Time<Fixed>` step of `step` stands for: the rate of
/// `n` steps every 1 or every 1001 seconds whose exact step lies within a
/// nanosecond of it, when there is one (`Time::<Fixed>::from_hz(60.0)`,
/// 16,666,667 ns, is 60 Hz; `from_hz(60_000.0 / 1_001.0)` is 59.94 Hz),
/// and otherwise exactly `step`. A step longer than an hour is refused:
/// steps of an hour are taken instead, and the refusal is returned too.
pub(crate) fn timestep_of(step: Duration) -> (Timestep, Option<Refusal>) {
    let nanos = step.as_nanos();
    for per_seconds in PER_SECONDS {
        let span = u128::from(per_seconds) * 1_000_000_000;
        // The nearest whole number of steps in `span`.
        let events = (2 * span + nanos) / (2 * nanos.max(1));
        let Ok(events) = u64::try_from(events) else {
            continue;
        };
        // The exact step, span / events, within 1 ns of `step`.
        if events > 0 && span.abs_diff(nanos * u128::from(events)) < u128::from(events) {
            let exact = Rate::ratio(events, per_seconds).map(Timestep::from_rate);
            if let Ok(Ok(timestep)) = exact {
                return (timestep, None);
            }
        }
    }
    Timestep::from_duration(step).map_or_else(
        |_| {
            let taken = Timestep::from_duration(LONGEST).unwrap_or_default();
            let refusal = Refusal::StepOutOfRange {
                requested: step,
                taken,
            };
            (taken, Some(refusal))
        },
        |timestep| (timestep, None),
    )
}

/// What `Time<Fixed>` says the step is while `timestep` runs: its exact
/// length rounded to the nearest nanosecond (16,666,667 ns for 60 Hz,
/// 16,683,333 ns for 59.94 Hz).
pub(crate) const fn nominal(timestep: Timestep) -> Duration {
    let per_nano = timestep.units_per_nanosecond();
    let nanos = (timestep.units_per_step() + per_nano / 2) / per_nano;
    Duration::from_nanos(nanos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bevy_steps_read_back_as_the_rates_they_round() {
        let read = |step: Duration| match timestep_of(step) {
            (timestep, None) => timestep,
            (_, Some(refusal)) => panic!("{refusal}"),
        };
        assert_eq!(read(Duration::from_secs_f64(1.0 / 60.0)), Timestep::HZ_60);
        assert_eq!(read(Duration::from_nanos(16_666_666)), Timestep::HZ_60);
        assert_eq!(read(Duration::from_micros(15_625)), Timestep::HZ_64);
        assert_eq!(read(Duration::from_millis(50)), Timestep::HZ_20);
        assert_eq!(
            read(Duration::from_secs_f64(1_001.0 / 60_000.0)),
            Timestep::HZ_59_94
        );
        // `from_hz(59.94)` is not 60000/1001 Hz: 17 ns a step apart.
        let decimal = Duration::from_secs_f64(1.0 / 59.94);
        assert_eq!(decimal, Duration::from_nanos(16_683_350));
        assert_eq!(
            read(decimal),
            Timestep::from_duration(Duration::from_nanos(16_683_350)).unwrap()
        );
        assert_eq!(
            read(Duration::from_nanos(1)),
            Timestep::from_hz(1_000_000_000).unwrap()
        );
    }

    #[test]
    fn a_step_over_an_hour_is_refused_with_the_valid_range() {
        let longest = Timestep::from_duration(LONGEST).unwrap();
        let (taken, refusal) = timestep_of(Duration::from_secs(3_601));
        assert_eq!(taken, longest);
        let refusal = refusal.unwrap();
        assert_eq!(
            refusal,
            Refusal::StepOutOfRange {
                requested: Duration::from_secs(3_601),
                taken: longest,
            }
        );
        let message = refusal.to_string();
        assert!(message.contains("1 ns to 1 hour"), "{message}");
    }

    #[test]
    fn the_nominal_step_is_the_exact_one_rounded_to_the_nanosecond() {
        assert_eq!(nominal(Timestep::HZ_60), Duration::from_nanos(16_666_667));
        assert_eq!(
            nominal(Timestep::HZ_59_94),
            Duration::from_nanos(16_683_333)
        );
        assert_eq!(nominal(Timestep::HZ_64), Duration::from_micros(15_625));
        for timestep in [
            Timestep::HZ_60,
            Timestep::HZ_59_94,
            Timestep::HZ_20,
            Timestep::HZ_144,
        ] {
            assert_eq!(timestep_of(nominal(timestep)), (timestep, None));
        }
    }
}

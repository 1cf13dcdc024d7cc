//! `Time<Virtual>`'s pause and relative speed, mirrored onto the planner's
//! exact speed.

use evenstep_core::Speed;

use crate::published::Refusal;

/// What the planner runs at for `Time<Virtual>`'s state, remembered so that
/// the `f64` speed is turned into a fraction only when it changes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct VirtualSpeed {
    relative: f64,
    speed: Speed,
    paused: bool,
}

/// What a frame's mirror says.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Mirrored {
    /// The speed to plan the frame at: `PAUSED` while paused.
    pub(crate) speed: Speed,
    /// Whether `Time<Virtual>` was unpaused since the previous frame: the
    /// planner then forgets the paused gap, as evenstep's `Loop` does.
    pub(crate) resumed: bool,
    /// A speed out of range, at the frame it was set.
    pub(crate) refused: Option<Refusal>,
}

impl VirtualSpeed {
    /// Normal speed, unpaused: `Time<Virtual>`'s default.
    pub(crate) const fn new() -> VirtualSpeed {
        VirtualSpeed {
            relative: 1.0,
            speed: Speed::NORMAL,
            paused: false,
        }
    }

    /// The planner's speed for a frame at which `Time<Virtual>` is
    /// `paused` and runs at `relative` speed. A speed above 65535 is run at
    /// 65535 and refused, at the frame it is set (Bevy accepts any finite
    /// speed from 0 up; evenstep's fraction has 16-bit terms).
    pub(crate) fn mirror(&mut self, paused: bool, relative: f64) -> Mirrored {
        let mut refused = None;
        if relative.to_bits() != self.relative.to_bits() {
            self.relative = relative;
            self.speed = speed_of(relative).unwrap_or_else(|refusal| {
                refused = Some(refusal);
                taken(relative)
            });
        }
        let resumed = self.paused && !paused;
        self.paused = paused;
        let speed = if paused { Speed::PAUSED } else { self.speed };
        Mirrored {
            speed,
            resumed,
            refused,
        }
    }
}

/// The exact speed for Bevy's `relative` speed: the nearest fraction with
/// terms up to 65535 ([`Speed::from_f64`]), or the refusal of one out of
/// that range.
pub(crate) fn speed_of(relative: f64) -> Result<Speed, Refusal> {
    Speed::from_f64(relative).map_err(|_| Refusal::Speed {
        requested: relative,
        taken: taken(relative),
    })
}

/// The speed run for an out-of-range `relative` speed: the nearest in range.
fn taken(relative: f64) -> Speed {
    if relative > 0.0 {
        Speed::MAX
    } else {
        Speed::PAUSED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_speeds_become_the_fractions_they_name() {
        assert_eq!(speed_of(0.5), Ok(Speed::HALF));
        assert_eq!(speed_of(0.1), Ok(Speed::new(1, 10).unwrap()));
        assert_eq!(speed_of(1.5), Ok(Speed::new(3, 2).unwrap()));
        assert_eq!(speed_of(1.0 / 3.0), Ok(Speed::new(1, 3).unwrap()));
        assert_eq!(speed_of(0.0), Ok(Speed::PAUSED));
        assert_eq!(
            speed_of(100_000.0),
            Err(Refusal::Speed {
                requested: 100_000.0,
                taken: Speed::MAX
            })
        );
    }

    #[test]
    fn a_pause_runs_paused_and_its_end_is_a_resume() {
        let mut mirror = VirtualSpeed::new();
        let normal = Mirrored {
            speed: Speed::NORMAL,
            resumed: false,
            refused: None,
        };
        assert_eq!(mirror.mirror(false, 1.0), normal);
        assert_eq!(
            mirror.mirror(true, 1.0),
            Mirrored {
                speed: Speed::PAUSED,
                resumed: false,
                refused: None,
            }
        );
        assert_eq!(
            mirror.mirror(false, 1.0),
            Mirrored {
                speed: Speed::NORMAL,
                resumed: true,
                refused: None,
            }
        );
        assert_eq!(mirror.mirror(false, 1.0), normal);
    }
}

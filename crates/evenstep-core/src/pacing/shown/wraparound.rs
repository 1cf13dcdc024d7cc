//! Frame numbers past 2⁶⁴: the planner compares them by their wrapping
//! distance from its newest frame, so numbering, reporting and the order
//! of reports hold across the wrap.

use super::Shown;
use crate::{FeedbackError, FrameId, Timestamp, Timestep};

#[test]
fn frames_numbered_across_the_wrap_are_reported_in_order() {
    let mut shown = Shown::new();
    shown.next = FrameId::from_raw(u64::MAX - 1);
    shown.first = shown.next;
    let frames: [FrameId; 4] =
        core::array::from_fn(|k| shown.number_drawn(Timestamp::from_nanos(1_000 + 100 * k as u64)));
    assert_eq!(frames.map(FrameId::get), [u64::MAX - 1, u64::MAX, 0, 1]);
    assert_eq!(
        shown.report(frames[1], Timestamp::from_nanos(1_150), Timestep::HZ_60),
        Ok(())
    );
    // Frame 0 comes after frame u64::MAX.
    assert_eq!(
        shown.report(frames[2], Timestamp::from_nanos(1_250), Timestep::HZ_60),
        Ok(())
    );
    assert!(matches!(
        shown.report(frames[0], Timestamp::from_nanos(1_300), Timestep::HZ_60),
        Err(FeedbackError::OutOfOrder { .. })
    ));
    // Frame 2 is ahead of the newest, frame 1.
    let ahead = FrameId::from_raw(2);
    assert_eq!(
        shown.report(ahead, Timestamp::from_nanos(1_400), Timestep::HZ_60),
        Err(FeedbackError::UnknownFrame {
            frame: ahead,
            oldest: Some(frames[0]),
            newest: Some(frames[3])
        })
    );
    assert_eq!(
        shown.report(frames[3], Timestamp::from_nanos(1_400), Timestep::HZ_60),
        Ok(())
    );
}

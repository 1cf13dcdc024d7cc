//! Display feedback through the loop: a render is told its frame's number,
//! the number and a shown time given back reach the planner, and with them
//! a game whose late frames the stamps cannot place runs one step a frame
//! once feedback has been right where the stamps were wrong often enough.

use std::cell::RefCell;
use std::rc::Rc;

use evenstep::{FeedbackError, FrameId, Loop, ManualClock, Pacing, PumpKind, Timestamp};

const START: u64 = 1_000_000_000;
const REFRESH: u64 = 16_666_667;
/// Every seventh frame 12 ms late, shown all the same at the refresh after
/// its own by a compositor that latches 3 ms before each refresh.
const LATE: [i64; 7] = [0, 1_000_000, -1_000_000, 0, 12_000_000, 500_000, 0];

#[test]
fn a_render_is_told_its_frame_and_shown_times_given_back_even_out_the_steps() {
    let clock = ManualClock::starting_at(Timestamp::from_nanos(START));
    // Snapped pacing: its stamps' plan runs each late frame two steps and
    // the next none, where feedback's runs one each.
    let snapped = Pacing::snapped(std::time::Duration::from_micros(500)).unwrap();
    let mut game = Loop::<()>::builder()
        .clock(clock.clone())
        .pacing(snapped)
        .build()
        .unwrap();
    let drawn = Rc::new(RefCell::new(Vec::new()));
    let tags = Rc::clone(&drawn);
    game.on_render(move |(), frame| tags.borrow_mut().push(frame.frame()));
    game.start();
    let mut in_flight = std::collections::VecDeque::new();
    let mut steps = Vec::new();
    for k in 1..=300_u64 {
        let stamp = (START + k * REFRESH).saturating_add_signed(LATE[(k % 7) as usize]);
        clock.set(Timestamp::from_nanos(stamp));
        let report = game.pump(&mut (), PumpKind::Paint).report().unwrap();
        let frame = drawn.borrow_mut().pop().unwrap();
        assert_eq!(frame, report.plan.frame());
        steps.push((report.steps, report.plan.predicted()));
        // Shown at the first refresh 3 ms on, reported two frames later.
        let shown = START + (stamp + 3_000_000 - START).div_ceil(REFRESH) * REFRESH;
        in_flight.push_back((frame, Timestamp::from_nanos(shown)));
        if in_flight.len() > 2 {
            let (frame, shown) = in_flight.pop_front().unwrap();
            assert_eq!(game.frame_shown(frame, shown), Ok(()));
        }
    }
    let first = steps.iter().position(|&(_, predicted)| predicted).unwrap();
    assert_eq!(first, 43);
    assert!(
        steps[first..]
            .iter()
            .all(|&(steps, predicted)| steps == 1 && predicted)
    );
    assert!(game.planner().shown_display().unwrap().is_trusted());
    let unknown = FrameId::from_raw(10_000);
    assert!(matches!(
        game.frame_shown(unknown, Timestamp::from_nanos(START)),
        Err(FeedbackError::UnknownFrame { frame, .. }) if frame == unknown
    ));
}

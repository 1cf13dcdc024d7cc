//! Display feedback from an engine with presentation timing: each render
//! tags its present with the frame's number, the platform later says when
//! that present reached the screen, and the loop plans each new frame for
//! its predicted showing.
//!
//! The platform here is simulated: a 60 Hz compositor that shows a present
//! at the first refresh at least 8 ms after it, and reports the time two
//! frames later, as `VK_GOOGLE_display_timing`'s
//! `vkGetPastPresentationTimingGOOGLE`, DXGI's `GetFrameStatistics`
//! (`PresentCount` and `SyncQPCTime`) or Wayland's `wp_presentation`
//! feedback do. The game's frames swing up to 6 ms around the refreshes,
//! more than its timestamps alone can be paced through. Run it with
//! `cargo run -p evenstep --example presentation_feedback`.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

use evenstep::{FrameId, Loop, ManualClock, PumpKind, Timestamp};

/// Where the clock starts, in ns.
const START: u64 = 1_000_000_000;

/// The refresh period and the compositor's latch, in ns.
const REFRESH: u64 = 16_666_667;
const LATCH: u64 = 8_000_000;
/// How far the game's frames swing around the refreshes, in ns.
const SWING: [i64; 7] = [
    0, 6_000_000, -6_000_000, 3_000_000, -4_500_000, 5_500_000, -2_000_000,
];

/// The platform's side: presents waiting to be reported.
#[derive(Default)]
struct SwapChain {
    presented: VecDeque<(FrameId, Timestamp)>,
    /// The refresh the latest reported present was shown at.
    last_shown: u64,
}

impl SwapChain {
    /// A present of `frame` at `at` (the id goes to the platform's present
    /// call, e.g. `VkPresentTimeGOOGLE::presentID`).
    fn present(&mut self, frame: FrameId, at: Timestamp) {
        self.presented.push_back((frame, at));
    }

    /// The presents the platform has timed: all but the latest two, each
    /// with the refresh it was shown at (on the loop's clock). A present
    /// replaced by a newer one before its refresh was never shown, and is
    /// not reported.
    fn past_presentation_timing(&mut self) -> Vec<(FrameId, Timestamp)> {
        let ready = self.presented.len().saturating_sub(2);
        let mut timed = Vec::new();
        for (frame, at) in self.presented.drain(..ready) {
            let refresh = (at.as_nanos() + LATCH - START).div_ceil(REFRESH) * REFRESH + START;
            let shown = (frame, Timestamp::from_nanos(refresh));
            if refresh > self.last_shown {
                self.last_shown = refresh;
                timed.push(shown);
            } else if let Some(replaced) = timed.last_mut() {
                *replaced = shown; // the newer present took the refresh
            }
        }
        timed
    }
}

/// Runs ten seconds of frames and returns how many ran a number of steps
/// other than one, and how many were planned from feedback.
fn run(with_feedback: bool) -> Result<(usize, usize), Box<dyn std::error::Error>> {
    let clock = ManualClock::starting_at(Timestamp::from_nanos(START));
    let mut game = Loop::<()>::builder().clock(clock.clone()).build()?;
    let drawn = Rc::new(RefCell::new(Vec::new()));
    let tags = Rc::clone(&drawn);
    game.on_render(move |(), frame| tags.borrow_mut().push(frame.frame()));
    let mut swap_chain = SwapChain::default();
    game.start();
    let (mut uneven, mut predicted) = (0, 0);
    for k in 1..=600_u64 {
        let swing = SWING[usize::try_from(k)? % SWING.len()];
        clock.set(Timestamp::from_nanos(
            (START + k * REFRESH).saturating_add_signed(swing),
        ));
        let Some(report) = game.pump(&mut (), PumpKind::Paint).report() else {
            continue;
        };
        uneven += usize::from(report.steps != 1);
        predicted += usize::from(report.plan.predicted());
        for frame in drawn.borrow_mut().drain(..) {
            swap_chain.present(frame, report.now);
        }
        if with_feedback {
            for (frame, shown) in swap_chain.past_presentation_timing() {
                game.frame_shown(frame, shown)?;
            }
        }
    }
    Ok((uneven, predicted))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (uneven, _) = run(false)?;
    println!("without feedback: {uneven} of 600 frames ran other than one step");
    let (uneven, predicted) = run(true)?;
    println!(
        "with feedback:    {uneven} of 600 frames ran other than one step; \
         {predicted} were planned for their predicted showing"
    );
    Ok(())
}

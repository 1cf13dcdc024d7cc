//! Contract: when the window driver paints, runs tick pumps and sleeps,
//! and how it notices a minimized window, driven by a manual clock and a
//! stand-in window, to the nanosecond.

use std::cell::Cell;
use std::num::NonZeroU32;
use std::time::Duration;

use evenstep::{Loop, ManualClock, Nanos, Pacing, Timestamp, Timestep};
use evenstep_winit::{
    Presentation, Refresh, RefreshSource, Wake, WindowDriver, WindowHandle, WindowOptions,
};
use winit::dpi::PhysicalSize;
use winit::event::WindowEvent;

/// A window that remembers what the driver asked of it.
#[derive(Default)]
struct FakeWindow {
    redraws_asked: Cell<u32>,
    hidden: Cell<bool>,
    refresh_mhz: Option<u32>,
    /// What `is_minimized` answers.
    minimized: Cell<Option<bool>>,
    /// How often `is_minimized` was asked.
    minimized_asked: Cell<u32>,
}

impl WindowHandle for FakeWindow {
    fn request_redraw(&self) {
        self.redraws_asked.set(self.redraws_asked.get() + 1);
    }

    fn set_visible(&self, visible: bool) {
        self.hidden.set(!visible);
    }

    fn refresh_rate_millihertz(&self) -> Option<u32> {
        self.refresh_mhz
    }

    fn is_minimized(&self) -> Option<bool> {
        self.minimized_asked.set(self.minimized_asked.get() + 1);
        self.minimized.get()
    }
}

const PERIOD_60: u64 = 16_666_667;

/// A driver at 30 Hz steps with the bank starting empty, on `clock`,
/// counting steps into its state, attached to `window`.
fn attached(clock: &ManualClock, window: &FakeWindow, options: WindowOptions) -> WindowDriver<u64> {
    let builder = Loop::<u64>::builder()
        .timestep(Timestep::from_hz(30).unwrap())
        .pacing(Pacing::OFF);
    let mut driver = WindowDriver::with_clock(builder, clock.clone(), options).unwrap();
    driver.game_loop_mut().on_update(|steps, _| *steps += 1);
    driver.attach(window);
    driver
}

fn at(nanos: u64) -> Timestamp {
    Timestamp::from_nanos(nanos)
}

#[test]
fn attaching_reads_the_monitor_refresh_and_asks_for_the_first_redraw() {
    let clock = ManualClock::new();
    let window = FakeWindow {
        refresh_mhz: Some(144_000),
        ..FakeWindow::default()
    };
    let driver = attached(&clock, &window, WindowOptions::new());
    assert_eq!(driver.refresh().source(), RefreshSource::Monitor);
    assert_eq!(driver.refresh().period(), Nanos::from_nanos(6_944_444));
    assert_eq!(window.redraws_asked.get(), 1);
    assert!(driver.game_loop().is_running());
}

#[test]
fn a_monitor_that_reports_its_rate_seeds_the_loops_display_model() {
    let clock = ManualClock::new();
    let window = FakeWindow {
        refresh_mhz: Some(144_000),
        ..FakeWindow::default()
    };
    let driver = attached(&clock, &window, WindowOptions::new());
    assert_eq!(driver.refresh().source(), RefreshSource::Monitor);
    assert_eq!(
        driver.game_loop().planner().refresh_hint(),
        Some(Nanos::from_nanos(6_944_444))
    );
}

#[test]
fn a_monitor_that_reports_no_refresh_rate_is_taken_as_60_hz() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let driver = attached(&clock, &window, WindowOptions::new());
    assert_eq!(driver.refresh(), Refresh::fallback());
    assert_eq!(driver.refresh().period(), Nanos::from_nanos(PERIOD_60));
    // The fallback is no word from the display: the loop is told nothing.
    assert_eq!(driver.game_loop().planner().refresh_hint(), None);
    assert_eq!(
        Refresh::from_millihertz(Some(999)).source(),
        RefreshSource::Fallback
    );
    assert_eq!(
        Refresh::from_millihertz(Some(2_000_000)).source(),
        RefreshSource::Fallback
    );
}

#[test]
fn after_a_paint_a_window_without_vsync_sleeps_until_the_next_refresh() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    assert!(driver.redraw(&mut steps).is_some_and(|r| r.rendered));
    clock.advance(Duration::from_millis(1));
    assert_eq!(driver.poll(&mut steps, &window), Wake::At(at(PERIOD_60)));
    assert_eq!(window.redraws_asked.get(), 1);

    // At the refresh: the next redraw is asked for, and the driver waits
    // four periods for it before it counts the window as not painting.
    clock.set(at(PERIOD_60));
    assert_eq!(
        driver.poll(&mut steps, &window),
        Wake::At(at(5 * PERIOD_60))
    );
    assert_eq!(window.redraws_asked.get(), 2);
}

#[test]
fn paints_keep_their_phase_when_each_wake_up_is_a_little_late() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    let _ = driver.redraw(&mut steps);
    // Woken 300 µs late: the next slot is still two periods from the start.
    clock.set(at(PERIOD_60 + 300_000));
    assert!(matches!(driver.poll(&mut steps, &window), Wake::At(_)));
    let _ = driver.redraw(&mut steps);
    assert_eq!(
        driver.poll(&mut steps, &window),
        Wake::At(at(2 * PERIOD_60))
    );
}

#[test]
fn with_vsync_the_next_redraw_is_asked_for_as_soon_as_a_frame_is_painted() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let options = WindowOptions::new().presentation(Presentation::Vsync);
    let mut driver = attached(&clock, &window, options);
    let mut steps = 0;
    let _ = driver.redraw(&mut steps);
    clock.advance(Duration::from_millis(1));
    assert_eq!(
        driver.poll(&mut steps, &window),
        Wake::At(at(1_000_000 + 4 * PERIOD_60))
    );
    assert_eq!(window.redraws_asked.get(), 2);
}

#[test]
fn a_render_cap_paces_paints_below_the_refresh_rate() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let options = WindowOptions::new().presentation(Presentation::Immediate {
        max_fps: NonZeroU32::new(25),
    });
    let mut driver = attached(&clock, &window, options);
    let mut steps = 0;
    let _ = driver.redraw(&mut steps);
    assert_eq!(driver.poll(&mut steps, &window), Wake::At(at(40_000_000)));
}

#[test]
fn a_hidden_window_is_not_painted_and_ticks_when_a_step_is_due() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    let _ = driver.redraw(&mut steps);
    driver.set_visible(&window, false);
    assert!(window.hidden.get());

    // X11 may still send redraws to an unmapped window: none is painted.
    clock.set(at(10_000_000));
    assert_eq!(driver.redraw(&mut steps), None);
    assert_eq!(driver.stats().ignored_redraws, 1);

    // The first 30 Hz step is due at 33,333,334 ns: sleep until then.
    assert_eq!(driver.poll(&mut steps, &window), Wake::At(at(33_333_334)));
    clock.set(at(33_333_334));
    assert_eq!(driver.poll(&mut steps, &window), Wake::At(at(66_666_667)));
    assert_eq!(steps, 1);
    assert_eq!(driver.stats().ticks, 1);
    assert_eq!(driver.stats().paints, 1);
    assert_eq!(window.redraws_asked.get(), 1);
    // Two wake-ups for one step: the one that found it not yet due, and
    // the one that ran it.
    assert_eq!(driver.stats().wake_ups, 2);
}

/// Thirty 60 Hz paints from time zero, then the window hidden.
fn paint_then_hide(
    clock: &ManualClock,
    window: &FakeWindow,
    driver: &mut WindowDriver<u64>,
    steps: &mut u64,
) {
    for frame in 0..30 {
        clock.set(at(frame * PERIOD_60));
        let _ = driver.redraw(steps);
    }
    driver.set_visible(window, false);
}

#[test]
fn a_window_shown_again_paints_and_counts_the_hidden_spell_as_an_absence() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    paint_then_hide(&clock, &window, &mut driver, &mut steps);
    // Two seconds hidden, woken for every step.
    loop {
        match driver.poll(&mut steps, &window) {
            Wake::At(due) if due <= at(29 * PERIOD_60 + 2_000_000_000) => clock.set(due),
            _ => break,
        }
    }
    assert_eq!(steps, 74); // 2.48 s of 30 Hz steps, none lost while hidden
    driver.set_visible(&window, true);
    assert!(!window.hidden.get());
    assert_eq!(window.redraws_asked.get(), 2);
    let report = driver.redraw(&mut steps).unwrap();
    assert!(report.rendered);
    assert_eq!(driver.game_loop().stats().absences(), 1);
    assert_eq!(driver.stats().resumptions, 1);
}

#[test]
fn a_hide_shorter_than_the_absence_threshold_is_an_absence_not_a_slow_frame() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    paint_then_hide(&clock, &window, &mut driver, &mut steps);
    // Half a second hidden: under the loop's 1 s absence threshold.
    clock.set(at(29 * PERIOD_60 + 500_000_000));
    let _ = driver.poll(&mut steps, &window);
    driver.set_visible(&window, true);
    assert!(driver.redraw(&mut steps).unwrap().rendered);
    for frame in 1..=30 {
        clock.set(at(29 * PERIOD_60 + 500_000_000 + frame * PERIOD_60));
        let _ = driver.redraw(&mut steps);
    }
    let stats = driver.game_loop().stats();
    assert_eq!(stats.absences(), 1);
    // The frame gaps are the display's alone: the half second is not one.
    assert!(
        stats.gap_p99() <= evenstep::Nanos::from_nanos(PERIOD_60 + 1),
        "{stats:?}"
    );
    assert!(
        stats.worst_gap() <= evenstep::Nanos::from_nanos(PERIOD_60 + 1),
        "{stats:?}"
    );
}

#[test]
fn redraws_that_stop_arriving_hand_over_to_tick_pumps_until_one_arrives() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    let _ = driver.redraw(&mut steps);
    clock.set(at(PERIOD_60));
    let _ = driver.poll(&mut steps, &window); // asks for a redraw that never comes
    clock.set(at(5 * PERIOD_60));
    let wake = driver.poll(&mut steps, &window);
    assert!(driver.visibility().starved);
    assert_eq!(driver.stats().starvations, 1);
    // 83 ms in: two steps were due, and ran on a tick pump.
    assert_eq!(steps, 2);
    assert_eq!(wake, Wake::At(at(100_000_000)));
    // A redraw stays asked for; when one arrives, painting resumes.
    assert_eq!(window.redraws_asked.get(), 3);
    assert!(driver.redraw(&mut steps).is_some_and(|r| r.rendered));
    assert!(!driver.visibility().starved);
}

#[test]
fn an_occluded_window_ticks_and_paints_again_when_uncovered() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    let _ = driver.redraw(&mut steps);
    driver.window_event(&window, &WindowEvent::Occluded(true));
    assert!(!driver.visibility().is_painting());
    assert_eq!(driver.poll(&mut steps, &window), Wake::At(at(33_333_334)));
    assert_eq!(driver.redraw(&mut steps), None);
    clock.set(at(50_000_000));
    driver.window_event(&window, &WindowEvent::Occluded(false));
    assert!(driver.visibility().is_painting());
    assert_eq!(window.redraws_asked.get(), 2);
    assert!(driver.redraw(&mut steps).is_some());
    assert_eq!(steps, 1);
}

#[test]
fn a_close_request_stops_the_loop_and_ends_the_event_loop() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    driver.window_event(&window, &WindowEvent::CloseRequested);
    assert!(driver.close_requested());
    assert_eq!(driver.poll(&mut steps, &window), Wake::Exit);
    assert!(!driver.game_loop().is_running());
}

#[test]
fn a_loop_stopped_from_an_update_ends_the_event_loop() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    driver
        .game_loop_mut()
        .on_update(|_, step| step.control().stop());
    let mut steps = 0;
    clock.set(at(40_000_000));
    let report = driver.redraw(&mut steps).unwrap();
    assert!(report.stopped);
    assert_eq!(driver.poll(&mut steps, &window), Wake::Exit);
}

#[test]
fn nothing_is_due_before_the_window_is_attached() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver =
        WindowDriver::with_clock(Loop::<u64>::builder(), clock, WindowOptions::new()).unwrap();
    assert_eq!(driver.poll(&mut 0, &window), Wake::OnEvent);
    assert!(!driver.game_loop().is_running());
}

/// Polls `driver` at every wake-up it asks for up to `until`, and returns
/// the wake-ups it asked for.
fn run_until(
    driver: &mut WindowDriver<u64>,
    clock: &ManualClock,
    window: &FakeWindow,
    steps: &mut u64,
    until: Timestamp,
) -> Vec<Timestamp> {
    let mut wakes = Vec::new();
    while let Wake::At(due) = driver.poll(steps, window) {
        if due > until {
            break;
        }
        wakes.push(due);
        clock.set(due);
    }
    wakes
}

#[test]
fn a_window_minimized_with_a_change_of_focus_stops_painting_and_ticks() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    window.minimized.set(Some(false));
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    let _ = driver.redraw(&mut steps);

    // X11 sends no `Occluded` for a minimized window, only a focus change,
    // and goes on sending redraws.
    clock.set(at(10_000_000));
    window.minimized.set(Some(true));
    driver.window_event(&window, &WindowEvent::Focused(false));
    assert!(driver.visibility().minimized);
    assert!(!driver.visibility().is_painting());
    assert_eq!(driver.redraw(&mut steps), None);
    assert_eq!(driver.stats().ignored_redraws, 1);

    // The rules go on: each 30 Hz step on a tick pump, and a wake-up a
    // quarter of a second after the focus change to ask the window again.
    let wakes = run_until(&mut driver, &clock, &window, &mut steps, at(300_000_000));
    assert_eq!(
        wakes,
        [
            at(33_333_334),
            at(66_666_667),
            at(100_000_000),
            at(133_333_334),
            at(166_666_667),
            at(200_000_000),
            at(233_333_334),
            at(260_000_000),
            at(266_666_667),
            at(300_000_000),
        ]
    );
    assert_eq!(steps, 9);
    assert_eq!(driver.stats().paints, 1);
    assert_eq!(window.redraws_asked.get(), 1);
}

#[test]
fn a_minimized_window_restored_without_an_event_paints_again_at_the_next_check() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    window.minimized.set(Some(true));
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    // Minimized from the start: no redraw is asked for.
    assert!(driver.visibility().minimized);
    assert_eq!(window.redraws_asked.get(), 0);

    // Restored with no event to say so (X11 sends none without a window
    // manager's help).
    clock.set(at(150_000_000));
    window.minimized.set(Some(false));
    // Asked at attach, so next at 250 ms, between the 30 Hz steps.
    let wakes = run_until(&mut driver, &clock, &window, &mut steps, at(250_000_000));
    assert_eq!(
        wakes,
        [
            at(166_666_667),
            at(200_000_000),
            at(233_333_334),
            at(250_000_000)
        ]
    );
    assert!(driver.visibility().is_painting());
    assert_eq!(driver.stats().resumptions, 1);
    assert_eq!(window.redraws_asked.get(), 1);
    assert!(driver.redraw(&mut steps).is_some_and(|r| r.rendered));
    assert_eq!(steps, 7);
}

#[test]
fn while_painting_the_minimized_check_rides_on_the_frames_wake_ups() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    window.minimized.set(Some(false));
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    assert_eq!(window.minimized_asked.get(), 1);
    for frame in 0..=18 {
        clock.set(at(frame * PERIOD_60));
        let _ = driver.redraw(&mut steps);
        // Every wake-up asked for is the next frame's: none for the check.
        assert_eq!(
            driver.poll(&mut steps, &window),
            Wake::At(at((frame + 1) * PERIOD_60))
        );
        clock.set(at((frame + 1) * PERIOD_60));
        let _ = driver.poll(&mut steps, &window);
    }
    // At attach, then at the first wake-up from 250 ms on.
    assert_eq!(window.minimized_asked.get(), 2);
    assert!(driver.visibility().is_painting());
}

#[test]
fn a_window_that_cannot_tell_whether_it_is_minimized_goes_on_painting() {
    let clock = ManualClock::new();
    let window = FakeWindow::default(); // `None`, as on Wayland
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    driver.window_event(&window, &WindowEvent::Resized(PhysicalSize::new(0, 0)));
    driver.window_event(&window, &WindowEvent::Focused(false));
    assert_eq!(window.minimized_asked.get(), 3);
    assert!(!driver.visibility().minimized);
    assert!(driver.redraw(&mut steps).is_some_and(|r| r.rendered));
    // Hidden, it wakes for steps only: no check of a state it cannot read.
    driver.set_visible(&window, false);
    let wakes = run_until(&mut driver, &clock, &window, &mut steps, at(300_000_000));
    assert_eq!(wakes.len(), 9);
    assert!(wakes.iter().all(|&wake| wake != at(250_000_000)));
}

#[test]
fn a_window_shown_again_after_it_starved_asks_for_a_redraw_and_watches_it_afresh() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    clock.set(at(4 * PERIOD_60));
    let _ = driver.poll(&mut steps, &window); // the first redraw never came
    assert!(driver.visibility().starved);
    assert_eq!(window.redraws_asked.get(), 2);

    // Hidden, it is away, not starved: no redraws are asked for.
    driver.set_visible(&window, false);
    assert!(!driver.visibility().starved);
    let _ = driver.poll(&mut steps, &window);
    assert_eq!(window.redraws_asked.get(), 2);

    clock.set(at(100_000_000));
    driver.set_visible(&window, true);
    assert!(driver.visibility().is_painting());
    assert_eq!(window.redraws_asked.get(), 3);
    assert_eq!(driver.stats().resumptions, 1);
    assert_eq!(
        driver.poll(&mut steps, &window),
        Wake::At(at(100_000_000 + 4 * PERIOD_60))
    );
}

#[test]
fn an_uncovered_window_that_was_painting_asks_for_nothing_more() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window, WindowOptions::new());
    let mut steps = 0;
    let _ = driver.redraw(&mut steps);
    // X11 may say a window is uncovered that was never covered.
    driver.window_event(&window, &WindowEvent::Occluded(false));
    driver.set_visible(&window, true);
    assert_eq!(window.redraws_asked.get(), 1);
    assert_eq!(driver.stats().resumptions, 0);
    assert_eq!(driver.poll(&mut steps, &window), Wake::At(at(PERIOD_60)));
}

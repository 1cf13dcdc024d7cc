//! Contract: the window driver pushes window and device input into the
//! loop's queue stamped with the clock's reading when it sees each event, a
//! press forwarded between redraws reaches exactly one step, and an event
//! the loop refuses is dropped and counted, never a panic.

use std::cell::Cell;

use evenstep::input::{InputEvent, MAX_WAITING, MouseButton};
use evenstep::{Loop, ManualClock, Pacing, Timestamp, Timestep};
use evenstep_winit::{WindowDriver, WindowHandle, WindowOptions};
use winit::dpi::PhysicalPosition;
use winit::event::{DeviceEvent, DeviceId, ElementState, WindowEvent};

/// A window that paints whenever asked.
#[derive(Default)]
struct FakeWindow {
    redraws_asked: Cell<u32>,
}

impl WindowHandle for FakeWindow {
    fn request_redraw(&self) {
        self.redraws_asked.set(self.redraws_asked.get() + 1);
    }

    fn set_visible(&self, _: bool) {}

    fn refresh_rate_millihertz(&self) -> Option<u32> {
        None
    }

    fn is_minimized(&self) -> Option<bool> {
        Some(false)
    }
}

/// Whether each step, in order, saw a press of the main mouse button.
type Presses = Vec<bool>;

/// A driver at 30 Hz steps, the bank starting empty, on `clock`, attached
/// at its reading, each step noting whether it saw the main button go down.
fn attached(clock: &ManualClock, window: &FakeWindow) -> WindowDriver<Presses> {
    let builder = Loop::<Presses>::builder()
        .timestep(Timestep::from_hz(30).unwrap())
        .pacing(Pacing::OFF);
    let mut driver =
        WindowDriver::with_clock(builder, clock.clone(), WindowOptions::new()).unwrap();
    driver
        .game_loop_mut()
        .on_update(|presses, step| presses.push(step.input().pressed(MouseButton::LEFT)));
    driver.attach(window);
    driver
}

fn at_millis(millis: u64) -> Timestamp {
    Timestamp::from_nanos(millis * 1_000_000)
}

fn left(state: ElementState) -> WindowEvent {
    WindowEvent::MouseInput {
        device_id: DeviceId::dummy(),
        state,
        button: winit::event::MouseButton::Left,
    }
}

fn cursor(x: f64, y: f64) -> WindowEvent {
    WindowEvent::CursorMoved {
        device_id: DeviceId::dummy(),
        position: PhysicalPosition::new(x, y),
    }
}

fn waiting(driver: &WindowDriver<Presses>) -> Vec<(Timestamp, InputEvent)> {
    driver
        .game_loop()
        .waiting_input()
        .map(|(at, event)| (at, event.clone()))
        .collect()
}

#[test]
fn window_input_is_stamped_with_the_clock_s_reading_when_the_driver_sees_it() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window);
    clock.set(at_millis(10));
    driver.window_event(&window, &left(ElementState::Pressed));
    clock.set(at_millis(12));
    driver.window_event(&window, &cursor(40.0, 25.5));
    driver.window_event(&window, &WindowEvent::Focused(false));
    driver.window_event(&window, &WindowEvent::RedrawRequested);
    assert_eq!(
        waiting(&driver),
        [
            (at_millis(10), InputEvent::Press(MouseButton::LEFT.into())),
            (at_millis(12), InputEvent::Pointer { x: 40.0, y: 25.5 }),
            (at_millis(12), InputEvent::FocusLost),
        ]
    );
    assert_eq!(driver.stats().input_forwarded, 3);
    assert_eq!(driver.stats().input_refused, 0);
}

#[test]
fn a_press_forwarded_between_redraws_reaches_exactly_one_step() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window);
    let mut presses = Presses::new();
    clock.set(at_millis(5));
    driver.window_event(&window, &left(ElementState::Pressed));
    clock.set(at_millis(40));
    driver.window_event(&window, &left(ElementState::Released));
    // A slow frame: three 30 Hz steps in one paint; the press is in the
    // first's span, the release in the second's.
    clock.set(at_millis(100));
    let report = driver.redraw(&mut presses).unwrap();
    assert_eq!(report.steps, 3);
    assert_eq!(presses, [true, false, false]);
    assert_eq!(driver.game_loop().waiting_input().len(), 0);
}

#[test]
fn raw_mouse_motion_reaches_the_queue_through_device_event() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window);
    clock.set(at_millis(3));
    driver.device_event(&DeviceEvent::MouseMotion { delta: (4.0, -2.5) });
    driver.device_event(&DeviceEvent::Added);
    assert_eq!(
        waiting(&driver),
        [(at_millis(3), InputEvent::Motion { dx: 4.0, dy: -2.5 })]
    );
    assert_eq!(driver.stats().input_forwarded, 1);
}

#[test]
fn a_value_that_is_not_finite_is_refused_counted_and_dropped() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window);
    driver.window_event(&window, &cursor(f64::NAN, 1.0));
    driver.device_event(&DeviceEvent::MouseMotion {
        delta: (f64::INFINITY, 0.0),
    });
    driver.window_event(&window, &cursor(1.0, 2.0));
    assert_eq!(
        waiting(&driver),
        [(Timestamp::ZERO, InputEvent::Pointer { x: 1.0, y: 2.0 })]
    );
    assert_eq!(driver.stats().input_refused, 2);
    assert_eq!(driver.stats().input_forwarded, 1);
}

#[test]
fn input_past_a_full_queue_is_refused_and_counted() {
    let clock = ManualClock::new();
    let window = FakeWindow::default();
    let mut driver = attached(&clock, &window);
    for _ in 0..=MAX_WAITING {
        driver.window_event(&window, &left(ElementState::Pressed));
    }
    assert_eq!(driver.game_loop().waiting_input().len(), MAX_WAITING);
    assert_eq!(driver.stats().input_forwarded, MAX_WAITING as u64);
    assert_eq!(driver.stats().input_refused, 1);
}

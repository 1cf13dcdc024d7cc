//! Contract: the page driver pushes each DOM input event into the loop's
//! queue at the event's own `timeStamp`, so the step whose span holds it
//! reads it exactly once and an event stamped after a pump's time waits for
//! a later pump's steps; a stamp later than the page's clock is taken at the
//! clock's reading; and every event it cannot forward is counted with the
//! latest reason, never a panic. All on a manual clock.

use std::cell::RefCell;
use std::rc::Rc;

use evenstep::input::{InputError, InputEvent, Key, KeyError, MouseButton};
use evenstep::{Loop, ManualClock, Pacing, Timestamp, Timestep};
use evenstep_web::{
    InputRefusal, InputStats, KeyDown, PageDriver, PageInput, PageOptions, timestamp_from_millis,
};

/// What each step read: its tick (the first step's is 0), and its events.
type Seen = Rc<RefCell<Vec<(u64, Vec<InputEvent>)>>>;

/// A 20 Hz loop (a 50 ms step) without pacing, started at 0, logging
/// every step's events.
fn driver() -> (ManualClock, PageDriver<()>, Seen) {
    let clock = ManualClock::new();
    let builder = Loop::builder()
        .timestep(Timestep::from_hz(20).unwrap())
        .pacing(Pacing::OFF);
    let mut driver = PageDriver::with_clock(builder, clock.clone(), PageOptions::new()).unwrap();
    let seen: Seen = Rc::default();
    let log = Rc::clone(&seen);
    driver.game_loop_mut().on_update(move |(), step| {
        log.borrow_mut()
            .push((step.tick(), step.input().events().to_vec()));
    });
    driver.start(false).unwrap();
    (clock, driver, seen)
}

fn ms(millis: u64) -> Timestamp {
    Timestamp::from_nanos(millis * 1_000_000)
}

fn key_down(code: &str, key: &str) -> PageInput {
    PageInput::KeyDown(KeyDown {
        code: code.to_owned(),
        key: key.to_owned(),
        repeat: false,
        composing: false,
        shortcut: false,
    })
}

fn key_up(code: &str) -> PageInput {
    PageInput::KeyUp {
        code: code.to_owned(),
    }
}

#[test]
fn a_tap_inside_one_step_is_one_press_read_by_that_step_alone() {
    let (clock, mut driver, seen) = driver();
    clock.set(ms(30));
    driver.input(ms(10), key_down("KeyJ", "j")).unwrap();
    driver.input(ms(20), key_up("KeyJ")).unwrap();
    clock.set(ms(125));
    let _ = driver.animation_frame(&mut (), ms(120)); // steps ending at 50 and 100
    let seen = seen.borrow();
    let j = Key::named("KeyJ").unwrap().into();
    assert_eq!(
        *seen,
        [
            (
                0,
                vec![
                    InputEvent::Press(j),
                    InputEvent::Text("j".to_owned()),
                    InputEvent::Release(j)
                ]
            ),
            (1, vec![])
        ]
    );
    assert_eq!(driver.stats().input.forwarded, 3);
}

#[test]
fn an_event_stamped_after_a_frames_time_waits_for_a_later_pumps_steps() {
    let (clock, mut driver, seen) = driver();
    clock.set(ms(105));
    // Handled in the frame that began at 100 ms, before its pump ran.
    driver.input(ms(101), key_down("Space", " ")).unwrap();
    let _ = driver.animation_frame(&mut (), ms(100)); // steps ending at 50 and 100
    assert_eq!(seen.borrow().len(), 2);
    assert!(seen.borrow().iter().all(|(_, events)| events.is_empty()));
    let waiting: Vec<Timestamp> = driver
        .game_loop()
        .waiting_input()
        .map(|(at, _)| at)
        .collect();
    assert_eq!(waiting, [ms(101), ms(101)]);
    clock.set(ms(155));
    let _ = driver.animation_frame(&mut (), ms(150));
    assert_eq!(
        seen.borrow()[2],
        (
            2,
            vec![
                InputEvent::Press(Key::SPACE.into()),
                InputEvent::Text(" ".to_owned())
            ]
        )
    );
}

#[test]
fn a_stamp_later_than_the_pages_clock_is_taken_at_the_clock_and_counted() {
    let (clock, mut driver, _) = driver();
    clock.set(ms(30));
    // A timeStamp since the epoch, not the page's time origin.
    let epoch = timestamp_from_millis(1_767_225_600_000.0);
    driver.input(epoch, PageInput::Blur).unwrap();
    driver.input(ms(30), PageInput::Blur).unwrap();
    let waiting: Vec<Timestamp> = driver
        .game_loop()
        .waiting_input()
        .map(|(at, _)| at)
        .collect();
    assert_eq!(waiting, [ms(30), ms(30)]);
    assert_eq!(driver.stats().input.stamps_after_now, 1);
}

#[test]
fn a_click_is_a_press_at_its_position_and_a_blur_releases_what_is_held() {
    let (clock, mut driver, seen) = driver();
    clock.set(ms(40));
    let down = PageInput::MouseDown {
        button: 0,
        x: 100.0,
        y: 50.5,
    };
    driver.input(ms(10), down).unwrap();
    driver.input(ms(20), key_down("KeyW", "w")).unwrap();
    driver.input(ms(30), PageInput::Blur).unwrap();
    clock.set(ms(50));
    let _ = driver.animation_frame(&mut (), ms(50));
    let left = MouseButton::LEFT.into();
    let w = Key::W.into();
    assert_eq!(
        seen.borrow()[0].1,
        [
            InputEvent::Pointer { x: 100.0, y: 50.5 },
            InputEvent::Press(left),
            InputEvent::Press(w),
            InputEvent::Text("w".to_owned()),
            // The focus loss releases what is held, keys before buttons.
            InputEvent::Release(w),
            InputEvent::Release(left),
            InputEvent::FocusLost,
        ]
    );
}

#[test]
fn every_event_that_cannot_be_forwarded_is_counted_with_the_latest_reason() {
    let (clock, mut driver, _) = driver();
    clock.set(ms(10));
    // A script's `new KeyboardEvent('keydown', { key: 'Escape' })` has no code.
    let no_code = InputRefusal::Key(KeyError::Length { len: 0 });
    assert_eq!(driver.input(ms(1), key_down("", "Escape")), Err(no_code));
    let mode = InputRefusal::WheelMode(3);
    let wheel = PageInput::Wheel {
        dx: 0.0,
        dy: 1.0,
        mode: 3,
        page_width: 800.0,
        page_height: 600.0,
    };
    assert_eq!(driver.input(ms(2), wheel), Err(mode));
    let not_finite = InputRefusal::Loop(InputError::NotFinite);
    let moved = PageInput::MouseMove {
        x: 1.0,
        y: 1.0,
        dx: f64::NAN,
        dy: 0.0,
    };
    assert_eq!(driver.input(ms(3), moved), Err(not_finite));
    assert_eq!(
        driver.stats().input,
        InputStats {
            forwarded: 1, // the move's position, before its motion was refused
            refused: 3,
            last_refusal: Some(not_finite),
            stamps_after_now: 0,
        }
    );
    assert_eq!(driver.game_loop().waiting_input().len(), 1);
}

#[test]
fn forwarding_is_on_by_default_and_a_page_can_turn_it_off() {
    assert!(PageOptions::new().forwards_input());
    assert!(PageOptions::default().forwards_input());
    assert!(!PageOptions::new().forward_input(false).forwards_input());
}

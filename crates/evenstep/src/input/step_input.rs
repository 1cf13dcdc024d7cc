//! What one step reads of the input: [`StepInput`], the step's events and
//! the state they leave, one state machine for the live loop and replay.

use crate::input::{Button, Delivery, InputEvent};

/// The input of one fixed step: the events the step's span holds, in order,
/// and the state they leave. The loop fills it before each step's updates
/// (see [the module](crate::input) for which events a step gets), and
/// [`replay`](crate::replay()) fills it the same way from a recorded log.
///
/// # Examples
///
/// ```
/// use evenstep::{Loop, ManualClock, PumpKind, Timestamp};
/// use evenstep::input::{InputEvent, Key};
///
/// let clock = ManualClock::new();
/// let mut game_loop = Loop::<u32>::builder().clock(clock.clone()).build()?;
/// game_loop.on_update(|jumps, step| {
///     if step.input().pressed(Key::SPACE) {
///         *jumps += 1;
///     }
/// });
/// game_loop.start();
/// // A tap inside one step: pressed at 2 ms, released at 9 ms.
/// game_loop.push_input(Timestamp::from_nanos(2_000_000), InputEvent::Press(Key::SPACE.into()))?;
/// game_loop.push_input(Timestamp::from_nanos(9_000_000), InputEvent::Release(Key::SPACE.into()))?;
/// let mut jumps = 0;
/// clock.set(Timestamp::from_nanos(50_000_000)); // a slow frame: three steps
/// let _ = game_loop.pump(&mut jumps, PumpKind::Paint);
/// assert_eq!(jumps, 1); // seen once, by the first step
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct StepInput {
    /// This step's events, in order; a focus loss is preceded by a release
    /// of each button it released.
    events: Vec<InputEvent>,
    /// Buttons down after this step's events, sorted.
    held: Vec<Button>,
    /// The pointer's last known position.
    pointer: Option<(f64, f64)>,
}

impl StepInput {
    /// The step's events, in the order they happened (settled events from a
    /// pause, which count only as held state, are not among them).
    pub fn events(&self) -> &[InputEvent] {
        &self.events
    }

    /// Whether `button` is down at the end of the step.
    pub fn held(&self, button: impl Into<Button>) -> bool {
        self.held.binary_search(&button.into()).is_ok()
    }

    /// Every button down at the end of the step, in a fixed order.
    pub fn held_buttons(&self) -> &[Button] {
        &self.held
    }

    /// Whether `button` went down during the step: true for a press and
    /// release inside one step too, when [`held`](StepInput::held) is false.
    pub fn pressed(&self, button: impl Into<Button>) -> bool {
        let button = button.into();
        self.events.contains(&InputEvent::Press(button))
    }

    /// Whether `button` came up during the step (a focus loss included).
    pub fn released(&self, button: impl Into<Button>) -> bool {
        let button = button.into();
        self.events.contains(&InputEvent::Release(button))
    }

    /// How many times the platform repeated the held `button` during the
    /// step.
    pub fn repeats(&self, button: impl Into<Button>) -> usize {
        let button = button.into();
        self.events
            .iter()
            .filter(|event| **event == InputEvent::Repeat(button))
            .count()
    }

    /// Relative pointer motion during the step, summed in order: `(dx, dy)`.
    pub fn motion(&self) -> (f64, f64) {
        self.sum(|event| match *event {
            InputEvent::Motion { dx, dy } => Some((dx, dy)),
            _ => None,
        })
    }

    /// Wheel turns during the step, summed in order: `(dx, dy)`.
    pub fn wheel(&self) -> (f64, f64) {
        self.sum(|event| match *event {
            InputEvent::Wheel { dx, dy } => Some((dx, dy)),
            _ => None,
        })
    }

    /// The pointer's position at the end of the step: the step's last, else
    /// the last one known before it (`None` before any).
    pub fn pointer(&self) -> Option<(f64, f64)> {
        self.pointer
    }

    /// The text typed during the step, piece by piece in order.
    pub fn text(&self) -> impl Iterator<Item = &str> + '_ {
        self.events.iter().filter_map(|event| match event {
            InputEvent::Text(text) => Some(text.as_str()),
            _ => None,
        })
    }

    /// Whether the window lost the focus during the step.
    pub fn focus_lost(&self) -> bool {
        self.events.contains(&InputEvent::FocusLost)
    }

    /// The `(dx, dy)` of the events `pick` takes, summed in order.
    fn sum(&self, pick: impl Fn(&InputEvent) -> Option<(f64, f64)>) -> (f64, f64) {
        self.events
            .iter()
            .filter_map(pick)
            .fold((0.0, 0.0), |(x, y), (dx, dy)| (x + dx, y + dy))
    }

    /// Starts a step: no events yet, the held state and pointer as the last
    /// step left them.
    #[inline]
    pub(crate) fn begin(&mut self) {
        self.events.clear();
    }

    /// Takes `delivery` into the step, passing each delivery it makes to
    /// `log`: the event itself, and before a focus loss a release of every
    /// button held. An event that came while paused changes only the held
    /// state and the pointer, and is logged only if it can.
    pub(crate) fn take(&mut self, delivery: Delivery, log: &mut impl FnMut(&Delivery)) {
        if let InputEvent::FocusLost = delivery.event {
            for button in std::mem::take(&mut self.held) {
                let release = Delivery {
                    event: InputEvent::Release(button),
                    while_paused: delivery.while_paused,
                };
                log(&release);
                if !delivery.while_paused {
                    self.events.push(release.event);
                }
            }
        }
        match delivery.event {
            InputEvent::Press(button) => self.hold(button),
            InputEvent::Release(button) => self.let_go(button),
            InputEvent::Pointer { x, y } => self.pointer = Some((x, y)),
            _ if delivery.while_paused => return,
            _ => {}
        }
        log(&delivery);
        if !delivery.while_paused {
            self.events.push(delivery.event);
        }
    }

    /// `button` is down.
    fn hold(&mut self, button: Button) {
        if let Err(at) = self.held.binary_search(&button) {
            self.held.insert(at, button);
        }
    }

    /// `button` is up.
    fn let_go(&mut self, button: Button) {
        if let Ok(at) = self.held.binary_search(&button) {
            self.held.remove(at);
        }
    }
}

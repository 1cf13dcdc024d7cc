//! The world: balls bouncing in a box, moved only by fixed steps and by
//! the keys each step's input holds, so a recorded session replays exactly.

use evenstep::input::{Button, InputEvent, Key, StepInput};
use evenstep::{Alpha, Interpolated, StateHash, StepContext, replay::Input};

/// The box's width in world units. Drawing scales it to the canvas.
pub const WORLD_WIDTH: f32 = 640.0;
/// The box's height in world units.
pub const WORLD_HEIGHT: f32 = 300.0;
/// The most balls the world holds; [`WorldInput::AddBall`] beyond it does
/// nothing.
pub const MAX_BALLS: usize = 32;

/// The balls' colours, in the `0x00RRGGBB` form a [`Canvas`](crate::Canvas)
/// draws. Each is far from the background and from the text and chart
/// colours, so a screenshot test can find the balls by colour alone.
pub const BALL_COLOURS: [u32; 4] = [0x00E8_4A5F, 0x002A_D0B5, 0x00F4_A261, 0x006A_8EFF];

/// One ball: where it is (previous and current step, for drawing in
/// between), how fast it goes and how it looks.
#[derive(Clone, Debug, PartialEq)]
pub struct Ball {
    /// Centre, in world units.
    pub position: Interpolated<[f32; 2]>,
    /// World units per second.
    pub velocity: [f32; 2],
    /// Radius, in world units.
    pub radius: f32,
    /// Colour, `0x00RRGGBB`.
    pub colour: u32,
}

/// A change to the world, applied at the start of a fixed step. The step
/// reads them from its input ([`World::update`]): a press of the key
/// [`WorldInput::key`] names, and for adding and removing balls each
/// auto-repeat of it too. Input reaches the rules in no other way, so a
/// recording of the steps' input replays the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorldInput {
    /// Adds a ball at a place and speed the world's own generator picks.
    AddBall,
    /// Removes the newest ball, if there is more than one.
    RemoveBall,
    /// Reverses every ball's direction.
    Reverse,
}

/// The keys of [`WorldInput`], by position: where a US layout has N, X
/// and R.
const WORLD_KEYS: [(WorldInput, Key); 3] = [
    (WorldInput::AddBall, known_key("KeyN")),
    (WorldInput::RemoveBall, known_key("KeyX")),
    (WorldInput::Reverse, known_key("KeyR")),
];

/// A key whose name is checked while compiling.
const fn known_key(name: &str) -> Key {
    match Key::named(name) {
        Ok(key) => key,
        // Only ever evaluated in a constant: a bad name fails the build.
        Err(_) => panic!("a world key's name is not a KeyboardEvent.code value"),
    }
}

impl WorldInput {
    /// The key that asks for this input, by its position (the W3C
    /// `KeyboardEvent.code` name): `KeyN` adds a ball, `KeyX` removes one,
    /// `KeyR` reverses them, whatever the layout prints on it.
    pub const fn key(self) -> Key {
        match self {
            WorldInput::AddBall => WORLD_KEYS[0].1,
            WorldInput::RemoveBall => WORLD_KEYS[1].1,
            WorldInput::Reverse => WORLD_KEYS[2].1,
        }
    }

    /// The input `key` asks for, if any.
    pub fn for_key(key: Key) -> Option<WorldInput> {
        WORLD_KEYS
            .iter()
            .find(|(_, world_key)| *world_key == key)
            .map(|(input, _)| *input)
    }

    /// Whether a held key's auto-repeat asks for this again: adding and
    /// removing balls repeat; reversing acts once per press, so a key held
    /// a moment too long does not undo itself.
    pub fn repeats(self) -> bool {
        matches!(self, WorldInput::AddBall | WorldInput::RemoveBall)
    }

    /// The inputs a step's input asks for, in the order its events came:
    /// one per press of a world key, and one per repeat of a key whose
    /// input [`repeats`](WorldInput::repeats).
    pub fn from_step(input: &StepInput) -> impl Iterator<Item = WorldInput> + '_ {
        input.events().iter().filter_map(|event| match *event {
            InputEvent::Press(Button::Key(key)) => WorldInput::for_key(key),
            InputEvent::Repeat(Button::Key(key)) => {
                WorldInput::for_key(key).filter(|input| input.repeats())
            }
            _ => None,
        })
    }
}

impl Input<World> for WorldInput {
    fn apply(&self, world: &mut World) {
        world.apply(*self);
    }
}

/// Balls in a box, stepped at a fixed `dt`.
///
/// Only `+ − × ÷` on `f32` and comparisons move the balls, so a step gives
/// the same bits on every platform, and [`World::state_hash`] can back a
/// replay's checkpoints.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    balls: Vec<Ball>,
    /// The generator new balls are drawn from: part of the state, so an
    /// added ball lands in the same place in a replay.
    seed: u32,
    steps: u64,
}

impl Default for World {
    fn default() -> World {
        World::new()
    }
}

impl World {
    /// The demo's opening world: four balls, one of each colour, fast enough
    /// that at 20 steps a second each step moves a ball 10 to 20 units, so
    /// drawing without interpolation visibly judders.
    pub fn new() -> World {
        let mut world = World {
            balls: Vec::new(),
            seed: 0x2545_F491,
            steps: 0,
        };
        let opening = [
            ([80.0, 60.0], [260.0, 170.0], 18.0),
            ([300.0, 200.0], [-340.0, 120.0], 24.0),
            ([500.0, 90.0], [200.0, -300.0], 14.0),
            ([200.0, 150.0], [-150.0, -220.0], 30.0),
        ];
        for (index, (at, velocity, radius)) in opening.into_iter().enumerate() {
            world.balls.push(Ball {
                position: Interpolated::new(at),
                velocity,
                radius,
                colour: BALL_COLOURS[index % BALL_COLOURS.len()],
            });
        }
        world
    }

    /// The balls, oldest first.
    pub fn balls(&self) -> &[Ball] {
        &self.balls
    }

    /// Fixed steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// One fixed step as the loop runs it, live and in a replay: the inputs
    /// the step's input asks for ([`WorldInput::from_step`]), then
    /// [`step`](World::step) at the step's `dt`.
    pub fn update(&mut self, step: &StepContext<'_>) {
        for input in WorldInput::from_step(step.input()) {
            self.apply(input);
        }
        self.step(step.dt_secs_f32());
    }

    /// Applies one input. Call it before the step it belongs to.
    pub fn apply(&mut self, input: WorldInput) {
        match input {
            WorldInput::AddBall => {
                if self.balls.len() < MAX_BALLS {
                    let radius = 10.0 + self.next_unit() * 20.0;
                    let at = [
                        radius + self.next_unit() * (WORLD_WIDTH - 2.0 * radius),
                        radius + self.next_unit() * (WORLD_HEIGHT - 2.0 * radius),
                    ];
                    let velocity = [
                        self.next_unit() * 600.0 - 300.0,
                        self.next_unit() * 600.0 - 300.0,
                    ];
                    let colour = BALL_COLOURS[self.balls.len() % BALL_COLOURS.len()];
                    self.balls.push(Ball {
                        position: Interpolated::new(at),
                        velocity,
                        radius,
                        colour,
                    });
                }
            }
            WorldInput::RemoveBall => {
                if self.balls.len() > 1 {
                    self.balls.pop();
                }
            }
            WorldInput::Reverse => {
                for ball in &mut self.balls {
                    ball.velocity = [-ball.velocity[0], -ball.velocity[1]];
                }
            }
        }
    }

    /// One fixed step of `dt_secs` seconds: every ball moves in a straight
    /// line and bounces off the walls, losing no speed.
    pub fn step(&mut self, dt_secs: f32) {
        for ball in &mut self.balls {
            let [mut x, mut y] = *ball.position.current();
            x += ball.velocity[0] * dt_secs;
            y += ball.velocity[1] * dt_secs;
            (x, ball.velocity[0]) = bounce(x, ball.velocity[0], ball.radius, WORLD_WIDTH);
            (y, ball.velocity[1]) = bounce(y, ball.velocity[1], ball.radius, WORLD_HEIGHT);
            ball.position.set([x, y]);
        }
        self.steps += 1;
    }

    /// Where each ball is drawn at `alpha`, or at its latest step when
    /// `interpolate` is off.
    pub fn drawn_positions(
        &self,
        alpha: Alpha,
        interpolate: bool,
    ) -> impl Iterator<Item = [f32; 2]> {
        self.balls.iter().map(move |ball| {
            if interpolate {
                ball.position.at(alpha)
            } else {
                *ball.position.current()
            }
        })
    }

    /// A hash of everything the rules depend on, for replay checkpoints.
    pub fn state_hash(&self) -> u64 {
        let mut hash = StateHash::new();
        hash.u64(self.steps).u32(self.seed).usize(self.balls.len());
        for ball in &self.balls {
            let [x, y] = *ball.position.current();
            hash.f32(x).f32(y);
            hash.f32(ball.velocity[0]).f32(ball.velocity[1]);
            hash.f32(ball.radius).u32(ball.colour);
        }
        hash.finish()
    }

    /// The next number in `[0, 1)` from the world's generator (xorshift32).
    fn next_unit(&mut self) -> f32 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 17;
        self.seed ^= self.seed << 5;
        // 24 bits: every such value is exact in an f32.
        (self.seed >> 8) as f32 / 16_777_216.0
    }
}

/// Reflects a coordinate that left `[radius, extent − radius]` back inside,
/// turning its velocity around.
fn bounce(at: f32, velocity: f32, radius: f32, extent: f32) -> (f32, f32) {
    let low = radius;
    let high = extent - radius;
    if at < low {
        (low + (low - at), velocity.abs())
    } else if at > high {
        (high - (at - high), -velocity.abs())
    } else {
        (at, velocity)
    }
}

//! The small world the crate's commands play and check: two paddles and a
//! puck on an integer table, steered by scripted input. Shared by the
//! peer (`evenstep-ggrs-peer`), the log checker (`evenstep-ggrs-logs`)
//! and their tests, so that a log one writes the other replays with the
//! same rules.
#![allow(dead_code, unreachable_pub)]

use evenstep::{StateHash, StepContext, Timestep};
use evenstep_ggrs::RollbackGame;
use evenstep_ggrs::ggrs::{InputStatus, PlayerHandle};

/// The fixed step every peer of the world runs at.
pub const STEP: Timestep = Timestep::HZ_60;

/// The table's side, in world units.
const SIDE: i64 = 10_000;

/// Input bits: up, down, left, right.
const UP: u8 = 1;
const DOWN: u8 = 2;
const LEFT: u8 = 4;
const RIGHT: u8 = 8;

/// A paddle's reach: the puck within it takes the paddle's push.
const REACH: i64 = 600;

/// What a snapshot holds and the hash covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub frame: u32,
    pub paddles: [[i64; 2]; 2],
    pub puck: [i64; 2],
    pub puck_velocity: [i64; 2],
    pub touches: [u32; 2],
}

impl Default for Table {
    fn default() -> Table {
        Table {
            frame: 0,
            paddles: [[2_000, 5_000], [8_000, 5_000]],
            puck: [5_000, 5_000],
            puck_velocity: [37, 23],
            touches: [0, 0],
        }
    }
}

/// The world: the table, and what is not the rules' (never saved or
/// loaded): the seed of this peer's scripted input, and a frame whose
/// advance moves the puck one unit aside (`nudge_at`), to show a peer
/// leaving the rules.
#[derive(Clone, Debug, Default)]
pub struct Arena {
    pub table: Table,
    pub seed: u64,
    pub nudge_at: Option<u32>,
}

impl Arena {
    /// The opening state, every peer's, scripting its input from `seed`.
    pub fn new(seed: u64) -> Arena {
        Arena {
            seed,
            ..Arena::default()
        }
    }
}

/// Player input for `tick`: a new direction every 12 ticks, drawn from
/// `seed`, so predictions are mostly right and wrong at each change.
pub fn scripted_input(seed: u64, tick: u64) -> u8 {
    (StateHash::new().u64(seed).u64(tick / 12).finish() % 16) as u8
}

/// One axis of a bounce off the table's edges.
fn bounce(position: &mut i64, velocity: &mut i64) {
    *position += *velocity;
    if !(0..=SIDE).contains(position) {
        *velocity = -*velocity;
        *position = (*position).clamp(0, SIDE);
    }
}

impl RollbackGame for Arena {
    type Input = u8;
    type Snapshot = Table;

    fn save(&self) -> Table {
        self.table.clone()
    }

    fn load(&mut self, snapshot: &Table) {
        self.table.clone_from(snapshot);
    }

    fn state_hash(&self) -> u64 {
        let table = &self.table;
        let mut hash = StateHash::new();
        hash.u32(table.frame);
        for value in table.paddles.iter().flatten() {
            hash.i64(*value);
        }
        for value in table.puck.iter().chain(&table.puck_velocity) {
            hash.i64(*value);
        }
        hash.u32(table.touches[0]).u32(table.touches[1]).finish()
    }

    fn advance(&mut self, inputs: &[(u8, InputStatus)], _timestep: Timestep) {
        let table = &mut self.table;
        for (player, (input, _)) in inputs.iter().enumerate().take(2) {
            let push = [
                i64::from(input & RIGHT != 0) - i64::from(input & LEFT != 0),
                i64::from(input & DOWN != 0) - i64::from(input & UP != 0),
            ];
            let paddle = &mut table.paddles[player];
            for axis in 0..2 {
                paddle[axis] = (paddle[axis] + 40 * push[axis]).clamp(0, SIDE);
            }
            let near = (0..2).all(|axis| (table.puck[axis] - paddle[axis]).abs() < REACH);
            if near {
                for (axis, push) in push.iter().enumerate() {
                    table.puck_velocity[axis] =
                        (table.puck_velocity[axis] + 5 * push).clamp(-90, 90);
                }
                table.touches[player] += 1;
            }
        }
        for axis in 0..2 {
            bounce(&mut table.puck[axis], &mut table.puck_velocity[axis]);
        }
        if self.nudge_at == Some(table.frame) {
            table.puck[0] += 1;
        }
        table.frame += 1;
    }

    fn local_input(&self, _handle: PlayerHandle, step: &StepContext<'_>) -> u8 {
        scripted_input(self.seed, step.tick())
    }
}

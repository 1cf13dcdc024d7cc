//! A room: one [`Loop`] and its state, built on its worker and pumped by the
//! host; how it was set up and how it ended.

use std::fmt;
use std::sync::Arc;

use evenstep_core::{Nanos, Timestamp};

use crate::clock::Clock;
use crate::game_loop::Loop;
use crate::host::handle::{HostHandle, RoomId};
use crate::host::stats::RoomStats;
use crate::runner::{MeasuredPump, measured_tick, wake_deadline};

/// The clock a host and its rooms share: one time base, so that the host
/// can tell which room is due first.
pub type SharedClock = Arc<dyn Clock + Send + Sync>;

/// Builds a room on its worker; a refusal is its message.
pub(crate) type Factory = Box<dyn FnOnce(RoomSetup) -> Result<Room, String> + Send>;

/// What a room's factory is given on its worker: the room's id, the host's
/// clock to build the room's loop on, and a handle to the host.
pub struct RoomSetup {
    pub(crate) id: RoomId,
    pub(crate) clock: SharedClock,
    pub(crate) handle: HostHandle,
}

impl fmt::Debug for RoomSetup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RoomSetup")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl RoomSetup {
    /// The room's id.
    pub fn id(&self) -> RoomId {
        self.id
    }

    /// The host's clock. Build the room's loop on it
    /// ([`LoopBuilder::clock`](crate::LoopBuilder::clock)): the host wakes
    /// for the room by what the loop says is due, in the loop's time base.
    pub fn clock(&self) -> SharedClock {
        Arc::clone(&self.clock)
    }

    /// A handle to the host, for a room that adds rooms or removes one (its
    /// own included: [`HostHandle::remove`] with [`id`](RoomSetup::id)).
    pub fn handle(&self) -> HostHandle {
        self.handle.clone()
    }
}

/// A room for a host: a [`Loop`] and the state it runs on, of any type.
/// Each room is its own world, with its own step rate, speed and pacing.
pub struct Room {
    hosted: Box<dyn Hosted>,
}

impl fmt::Debug for Room {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Room").finish_non_exhaustive()
    }
}

impl Room {
    /// A room that runs `game_loop` on `state`. The host starts the loop if
    /// it is not running; a room ends when its loop stops (a match that
    /// ends calls [`Control::stop`](crate::Control::stop) from an update).
    pub fn new<S: 'static>(game_loop: Loop<S>, state: S) -> Room {
        Room {
            hosted: Box::new(LoopWithState { game_loop, state }),
        }
    }

    pub(crate) fn start(&mut self) {
        self.hosted.start();
    }

    pub(crate) fn deadline(&self, idle_wake: Nanos) -> Timestamp {
        self.hosted.deadline(idle_wake)
    }

    pub(crate) fn tick(&mut self) -> Option<MeasuredPump> {
        self.hosted.tick()
    }

    pub(crate) fn is_running(&self) -> bool {
        self.hosted.is_running()
    }
}

/// A room's loop with its state, its state's type erased.
trait Hosted {
    fn start(&mut self);
    fn deadline(&self, idle_wake: Nanos) -> Timestamp;
    fn tick(&mut self) -> Option<MeasuredPump>;
    fn is_running(&self) -> bool;
}

struct LoopWithState<S> {
    game_loop: Loop<S>,
    state: S,
}

impl<S> Hosted for LoopWithState<S> {
    fn start(&mut self) {
        self.game_loop.start();
    }

    fn deadline(&self, idle_wake: Nanos) -> Timestamp {
        wake_deadline(&self.game_loop, idle_wake)
    }

    fn tick(&mut self) -> Option<MeasuredPump> {
        measured_tick(&mut self.game_loop, &mut self.state)
    }

    fn is_running(&self) -> bool {
        self.game_loop.is_running()
    }
}

/// How a room ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RoomEnd {
    /// Its loop stopped (a callback called `stop`): the match ended.
    Finished,
    /// [`HostHandle::remove`] removed it.
    Removed,
    /// [`HostHandle::stop`] ended it with the host.
    Stopped,
    /// A callback panicked, with the panic's message; the other rooms run
    /// on.
    Panicked(String),
    /// Its factory failed (the error's message) or panicked (the panic's):
    /// it never ran.
    Refused(String),
}

/// A room that ended: which, how, and what it did.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomReport {
    /// The room.
    pub id: RoomId,
    /// How it ended.
    pub end: RoomEnd,
    /// What it did over its life.
    pub stats: RoomStats,
}

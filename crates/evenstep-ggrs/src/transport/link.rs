//! An in-memory link between two sessions in one process, and optionally
//! a spectator of one of them: what one end sends to another, that end
//! receives after a seeded delay, unless a seeded loss
//! drops it. The link keeps its own time in ticks, moved by the host
//! (once per frame, say), so a delay is a number of ticks, not a wait.

use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use ggrs::{Message, NonBlockingSocket};

use crate::seeded::SplitMix64;

/// An end of a [`Link`]: the address a session registers its peer under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LinkAddr(pub u8);

/// How a link delays and loses packets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkConfig {
    min_delay: u64,
    max_delay: u64,
    loss_percent: u8,
}

impl LinkConfig {
    /// A link that delivers every packet at once.
    pub const PERFECT: LinkConfig = LinkConfig {
        min_delay: 0,
        max_delay: 0,
        loss_percent: 0,
    };

    /// Each packet waits a seeded number of ticks in
    /// `min_delay..=max_delay` (so packets may overtake each other, as on
    /// UDP), and is lost with a seeded chance of `loss_percent` in 100.
    ///
    /// # Errors
    ///
    /// [`LinkConfigError`] unless `min_delay <= max_delay <= 1000` and
    /// `loss_percent` is in `0..=100`.
    pub fn new(
        min_delay: u64,
        max_delay: u64,
        loss_percent: u8,
    ) -> Result<LinkConfig, LinkConfigError> {
        if min_delay > max_delay || max_delay > 1_000 || loss_percent > 100 {
            return Err(LinkConfigError {
                min_delay,
                max_delay,
                loss_percent,
            });
        }
        Ok(LinkConfig {
            min_delay,
            max_delay,
            loss_percent,
        })
    }
}

/// A link configuration [`LinkConfig::new`] refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinkConfigError {
    /// The shortest delay asked for.
    pub min_delay: u64,
    /// The longest delay asked for.
    pub max_delay: u64,
    /// The loss asked for.
    pub loss_percent: u8,
}

impl fmt::Display for LinkConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "a link with delays {}..={} ticks and {}% loss: the delays must satisfy \
             min <= max <= 1000 and the loss must be in 0..=100",
            self.min_delay, self.max_delay, self.loss_percent
        )
    }
}

impl std::error::Error for LinkConfigError {}

/// What a link carried.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LinkStats {
    /// Packets sent, both ways.
    pub sent: u64,
    /// Packets the seeded loss dropped.
    pub lost: u64,
    /// Packets received.
    pub delivered: u64,
}

/// A packet on its way: due tick, order sent, sender, destination.
struct InFlight {
    due: u64,
    order: u64,
    from: LinkAddr,
    to: LinkAddr,
    message: Message,
}

struct Wire {
    config: LinkConfig,
    random: SplitMix64,
    now: u64,
    sent: u64,
    in_flight: Vec<InFlight>,
    stats: LinkStats,
}

/// The wire, shared by the link and its ends: behind a mutex so that a
/// link and its ends are `Send + Sync` (sessions on other threads, with
/// the `sync-send` feature). Nothing panics while holding it, and a wire
/// left by a thread that panicked elsewhere is still whole packets.
type Shared = Arc<Mutex<Wire>>;

fn lock(wire: &Shared) -> MutexGuard<'_, Wire> {
    wire.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The link between two [`LinkEnd`]s, and its clock: the host moves it
/// with [`advance`](Link::advance). Clones share the link.
#[derive(Clone)]
pub struct Link {
    wire: Shared,
}

impl fmt::Debug for Link {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let wire = lock(&self.wire);
        f.debug_struct("Link")
            .field("config", &wire.config)
            .field("now", &wire.now)
            .field("in_flight", &wire.in_flight.len())
            .field("stats", &wire.stats)
            .finish()
    }
}

impl Link {
    /// A link with `config`, its delays and losses drawn from `seed`, and
    /// its two ends: [`LinkAddr(0)`](LinkAddr) and [`LinkAddr(1)`](LinkAddr).
    pub fn pair(config: LinkConfig, seed: u64) -> (Link, LinkEnd, LinkEnd) {
        let link = Link::new(config, seed);
        let (a, b) = (link.end(0, 1), link.end(1, 0));
        (link, a, b)
    }

    /// A link as [`pair`](Link::pair) makes it, with a third end for a
    /// spectator: [`LinkAddr(2)`](LinkAddr), whose peer is end 0, the host
    /// it watches. The host registers it as `PlayerType::Spectator(LinkAddr(2))`
    /// (at a handle of 2 or more in a two-player session), and the
    /// spectator's session names end 0 as its host. Every packet between
    /// any two ends is delayed and lost as `config` says, from one seeded
    /// stream.
    pub fn with_spectator(config: LinkConfig, seed: u64) -> (Link, LinkEnd, LinkEnd, LinkEnd) {
        let link = Link::new(config, seed);
        let (a, b, spectator) = (link.end(0, 1), link.end(1, 0), link.end(2, 0));
        (link, a, b, spectator)
    }

    fn new(config: LinkConfig, seed: u64) -> Link {
        let wire = Arc::new(Mutex::new(Wire {
            config,
            random: SplitMix64::new(seed),
            now: 0,
            sent: 0,
            in_flight: Vec::new(),
            stats: LinkStats::default(),
        }));
        Link { wire }
    }

    fn end(&self, me: u8, peer: u8) -> LinkEnd {
        LinkEnd {
            wire: Arc::clone(&self.wire),
            me: LinkAddr(me),
            peer: LinkAddr(peer),
        }
    }

    /// Moves the link's clock on by `ticks`: packets due by then arrive.
    pub fn advance(&self, ticks: u64) {
        let mut wire = lock(&self.wire);
        wire.now = wire.now.saturating_add(ticks);
    }

    /// The link's clock, in ticks.
    pub fn now(&self) -> u64 {
        lock(&self.wire).now
    }

    /// What the link carried so far.
    pub fn stats(&self) -> LinkStats {
        lock(&self.wire).stats
    }
}

/// One end of a [`Link`]: a ggrs socket sending to the other end.
pub struct LinkEnd {
    wire: Shared,
    me: LinkAddr,
    peer: LinkAddr,
}

impl fmt::Debug for LinkEnd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LinkEnd")
            .field("me", &self.me)
            .field("peer", &self.peer)
            .finish_non_exhaustive()
    }
}

impl LinkEnd {
    /// This end's address.
    pub fn addr(&self) -> LinkAddr {
        self.me
    }

    /// The other end's address: what this end's session registers as its
    /// `PlayerType::Remote` (for a spectator's end, its host).
    pub fn peer(&self) -> LinkAddr {
        self.peer
    }
}

impl NonBlockingSocket<LinkAddr> for LinkEnd {
    fn send_to(&mut self, msg: &Message, addr: &LinkAddr) {
        let mut wire = lock(&self.wire);
        let wire = &mut *wire;
        wire.stats.sent += 1;
        let LinkConfig {
            min_delay,
            max_delay,
            loss_percent,
        } = wire.config;
        if wire.random.below(100) < u64::from(loss_percent) {
            wire.stats.lost += 1;
            return;
        }
        let delay = min_delay + wire.random.below(max_delay - min_delay + 1);
        let order = wire.sent;
        wire.sent += 1;
        wire.in_flight.push(InFlight {
            due: wire.now + delay,
            order,
            from: self.me,
            to: *addr,
            message: msg.clone(),
        });
    }

    fn receive_all_messages(&mut self) -> Vec<(LinkAddr, Message)> {
        let mut wire = lock(&self.wire);
        let now = wire.now;
        let (mut arrived, waiting): (Vec<_>, Vec<_>) = std::mem::take(&mut wire.in_flight)
            .into_iter()
            .partition(|packet| packet.to == self.me && packet.due <= now);
        wire.in_flight = waiting;
        arrived.sort_by_key(|packet| (packet.due, packet.order));
        wire.stats.delivered += arrived.len() as u64;
        arrived
            .into_iter()
            .map(|packet| (packet.from, packet.message))
            .collect()
    }
}

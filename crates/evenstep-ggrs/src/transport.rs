//! Transports for a session: a UDP socket on the loopback interface, and
//! an in-memory link between two sessions in one process, with seeded
//! delay and loss.

pub(crate) mod link;
pub(crate) mod loopback;

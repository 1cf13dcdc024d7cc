//! A non-blocking UDP socket bound to 127.0.0.1 only: ggrs's own
//! `UdpNonBlockingSocket` binds every interface (`0.0.0.0`), which opens
//! the port to the network and, on some systems, a firewall prompt.

use std::io::{self, ErrorKind};
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4, UdpSocket};

use ggrs::{Message, NonBlockingSocket};

/// The largest datagram read: ggrs's own socket reads up to this, and its
/// messages stay well below it.
const RECV_BUFFER_SIZE: usize = 4_096;

/// A ggrs socket on `127.0.0.1`, sending ggrs's messages in the same
/// encoding as ggrs's own UDP socket (bincode), so it talks to it.
/// Packets that fail to decode are dropped and counted.
#[derive(Debug)]
pub struct LoopbackSocket {
    socket: UdpSocket,
    buffer: Box<[u8; RECV_BUFFER_SIZE]>,
    dropped: u64,
}

impl LoopbackSocket {
    /// Binds `127.0.0.1:port`, non-blocking; port 0 picks a free port
    /// (read it with [`local_addr`](LoopbackSocket::local_addr)).
    ///
    /// # Errors
    ///
    /// The system's error if the port cannot be bound (in use, not
    /// permitted) or the socket cannot be made non-blocking.
    pub fn bind(port: u16) -> io::Result<LoopbackSocket> {
        let socket = UdpSocket::bind(SocketAddrV4::new(Ipv4Addr::LOCALHOST, port))?;
        socket.set_nonblocking(true)?;
        Ok(LoopbackSocket {
            socket,
            buffer: Box::new([0; RECV_BUFFER_SIZE]),
            dropped: 0,
        })
    }

    /// The address the socket is bound to: what the other peer registers
    /// as this one's `PlayerType::Remote`.
    ///
    /// # Errors
    ///
    /// The system's error if the address cannot be read.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.socket.local_addr()
    }

    /// Packets that could not be encoded or sent, or that arrived and did
    /// not decode as a ggrs message.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

impl NonBlockingSocket<SocketAddr> for LoopbackSocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        // UDP loses packets anyway, and ggrs resends what matters: a packet
        // that cannot go is counted, never a panic.
        let sent = bincode::serialize(msg)
            .ok()
            .and_then(|bytes| self.socket.send_to(&bytes, addr).ok());
        if sent.is_none() {
            self.dropped += 1;
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut received = Vec::new();
        loop {
            match self.socket.recv_from(&mut self.buffer[..]) {
                Ok((length, from)) => match bincode::deserialize(&self.buffer[..length]) {
                    Ok(message) => received.push((from, message)),
                    Err(_) => self.dropped += 1,
                },
                // A datagram socket may report a peer's closed port as a
                // reset on the next read: not an end of the messages.
                Err(error) if error.kind() == ErrorKind::ConnectionReset => {}
                Err(_) => return received,
            }
        }
    }
}

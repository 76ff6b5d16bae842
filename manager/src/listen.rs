//! Listening as Go's `net.Listen("tcp", ":port")` does: an unspecified IPv6 address (what `:port`
//! means) listens on both families, so that probes and webhooks answer on IPv4-only, dual-stack
//! and IPv6-only clusters alike; a host without IPv6 gets IPv4's `0.0.0.0`.

use std::io;
use std::net::{Ipv4Addr, Ipv6Addr, SocketAddr};

use socket2::{Domain, Protocol, Socket, Type};
use tokio::net::TcpListener;

/// Where `:port` listens: every address of both families.
pub fn every_interface(port: u16) -> SocketAddr {
    SocketAddr::from((Ipv6Addr::UNSPECIFIED, port))
}

/// Binds `address`; `[::]:port` accepts IPv4 clients too (`IPV6_V6ONLY` off), and falls back to
/// `0.0.0.0:port` where the host has no IPv6.
pub async fn bind(address: SocketAddr) -> io::Result<TcpListener> {
    if address.ip() != Ipv6Addr::UNSPECIFIED {
        return TcpListener::bind(address).await;
    }
    match dual_stack(address) {
        Ok(listener) => Ok(listener),
        Err(error) if no_ipv6(&error) => {
            tracing::debug!(%error, "no IPv6 on this host: listening on IPv4 only");
            TcpListener::bind((Ipv4Addr::UNSPECIFIED, address.port())).await
        }
        Err(error) => Err(error),
    }
}

fn dual_stack(address: SocketAddr) -> io::Result<TcpListener> {
    let socket = Socket::new(Domain::IPV6, Type::STREAM, Some(Protocol::TCP))?;
    socket.set_only_v6(false)?;
    // As tokio's own `TcpListener::bind`: a restarted manager rebinds over TIME_WAIT sockets.
    socket.set_reuse_address(true)?;
    socket.set_nonblocking(true)?;
    socket.bind(&address.into())?;
    socket.listen(1024)?;
    TcpListener::from_std(socket.into())
}

/// Whether `error` says the host has no IPv6 (the module is not loaded, or it is disabled).
fn no_ipv6(error: &io::Error) -> bool {
    const EAFNOSUPPORT: i32 = 97;
    const EADDRNOTAVAIL: i32 = 99;
    matches!(error.raw_os_error(), Some(EAFNOSUPPORT | EADDRNOTAVAIL))
        || error.kind() == io::ErrorKind::AddrNotAvailable
        || error.kind() == io::ErrorKind::Unsupported
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    /// A client at `address` is accepted by `listener` (and not by some other socket).
    async fn reaches(listener: &TcpListener, address: SocketAddr) {
        let mut client = tokio::net::TcpStream::connect(address).await.unwrap();
        let (mut served, _) = listener.accept().await.unwrap();
        client.write_all(b"ping").await.unwrap();
        let mut read = [0; 4];
        served.read_exact(&mut read).await.unwrap();
        assert_eq!(&read, b"ping", "{address}");
    }

    #[tokio::test]
    async fn every_interface_answers_on_ipv6_and_ipv4_loopback() {
        let listener = bind(every_interface(0)).await.unwrap();
        let port = listener.local_addr().unwrap().port();
        reaches(&listener, SocketAddr::from((Ipv4Addr::LOCALHOST, port))).await;
        if std::path::Path::new("/proc/net/if_inet6").exists() {
            reaches(&listener, SocketAddr::from((Ipv6Addr::LOCALHOST, port))).await;
        }
    }

    #[tokio::test]
    async fn a_given_address_is_bound_as_given() {
        let listener = bind(SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
            .await
            .unwrap();
        assert!(listener.local_addr().unwrap().is_ipv4());
    }

    #[test]
    fn a_host_without_ipv6_is_recognised() {
        assert!(no_ipv6(&io::Error::from_raw_os_error(97)));
        assert!(
            !no_ipv6(&io::Error::from_raw_os_error(98)),
            "EADDRINUSE is an error"
        );
    }
}

//! A TCP proxy between the replicas and kube-apiserver that cuts and delays their connections
//! (watches included: TLS passes through it untouched).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::task::JoinSet;

/// The proxy: every connection it accepts goes to `upstream`.
pub struct Proxy {
    pub address: SocketAddr,
    state: Arc<Mutex<State>>,
    accepting: tokio::task::JoinHandle<()>,
}

#[derive(Default)]
struct State {
    connections: JoinSet<()>,
    /// How long each chunk waits before it is passed on.
    delay: Duration,
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.accepting.abort();
        self.state.lock().unwrap().connections.abort_all();
    }
}

impl Proxy {
    pub async fn start(upstream: SocketAddr) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let state = Arc::new(Mutex::new(State::default()));
        let accepting = tokio::spawn({
            let state = state.clone();
            async move {
                while let Ok((client, _)) = listener.accept().await {
                    let state_for_pipe = state.clone();
                    let mut state = state.lock().unwrap();
                    while state.connections.try_join_next().is_some() {}
                    state
                        .connections
                        .spawn(pipe(client, upstream, state_for_pipe));
                }
            }
        });
        Proxy {
            address,
            state,
            accepting,
        }
    }

    /// Closes every open connection (watches end mid-stream, requests in flight fail).
    pub fn cut(&self) -> usize {
        let mut state = self.state.lock().unwrap();
        let open = state.connections.len();
        state.connections.abort_all();
        open
    }

    /// Delays every chunk of every connection by `delay` from now on (zero: none).
    pub fn delay(&self, delay: Duration) {
        self.state.lock().unwrap().delay = delay;
    }
}

async fn pipe(client: TcpStream, upstream: SocketAddr, state: Arc<Mutex<State>>) {
    let Ok(server) = TcpStream::connect(upstream).await else {
        return; // The API server is down: the client sees its connection closed.
    };
    let (client_read, client_write) = client.into_split();
    let (server_read, server_write) = server.into_split();
    tokio::select! {
        () = copy(client_read, server_write, state.clone()) => {}
        () = copy(server_read, client_write, state) => {}
    }
}

async fn copy(
    mut from: tokio::net::tcp::OwnedReadHalf,
    mut to: tokio::net::tcp::OwnedWriteHalf,
    state: Arc<Mutex<State>>,
) {
    let mut buffer = vec![0; 64 * 1024];
    loop {
        let read = match from.read(&mut buffer).await {
            Ok(0) | Err(_) => return,
            Ok(read) => read,
        };
        let delay = state.lock().unwrap().delay;
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        if to.write_all(&buffer[..read]).await.is_err() {
            return;
        }
    }
}

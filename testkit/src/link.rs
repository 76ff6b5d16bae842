//! A client whose connection to the server can be cut, as a network partition cuts one replica
//! of an operator off while the others keep talking to the API server.
//!
//! ```
//! # #[tokio::main(flavor = "current_thread")] async fn main() {
//! use k8s_openapi::api::core::v1::ConfigMap;
//! use kube::api::Api;
//!
//! let server = webop_testkit::ApiServer::new();
//! let (client, link) = server.linked_client();
//! let api: Api<ConfigMap> = Api::default_namespaced(client);
//! link.refuse();
//! assert!(api.list(&Default::default()).await.is_err());
//! link.restore();
//! assert!(api.list(&Default::default()).await.is_ok());
//! # }
//! ```

use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, Ordering};
use std::task::{Context, Poll};

use bytes::Bytes;
use http_body::Frame;

use super::body::Body;
use super::service::ApiService;

const CONNECTED: u8 = 0;
const REFUSED: u8 = 1;
const UNANSWERED: u8 = 2;

/// The switch of one client's connection, from [`ApiServer::linked_client`](super::ApiServer::linked_client).
/// Cheap to clone; clones switch the same connection.
#[derive(Clone, Debug, Default)]
pub struct Link {
    state: Arc<AtomicU8>,
}

impl Link {
    /// Cuts the connection so that the server refuses it: every request fails at once with a
    /// connection error, and open watches end with one.
    pub fn refuse(&self) {
        self.state.store(REFUSED, Ordering::SeqCst);
    }

    /// Cuts the connection so that nothing comes back (a dropped network, a stopped node):
    /// requests wait forever, and open watches receive nothing more. Only the client's own
    /// timeouts end them.
    pub fn black_hole(&self) {
        self.state.store(UNANSWERED, Ordering::SeqCst);
    }

    /// Reconnects: requests reach the server again.
    pub fn restore(&self) {
        self.state.store(CONNECTED, Ordering::SeqCst);
    }

    /// Whether requests reach the server.
    pub fn is_connected(&self) -> bool {
        self.state.load(Ordering::SeqCst) == CONNECTED
    }

    fn refused_error() -> std::io::Error {
        std::io::Error::new(
            std::io::ErrorKind::ConnectionRefused,
            "testkit: the link to the API server is cut",
        )
    }
}

/// The server as one client reaches it, through a [`Link`].
#[derive(Clone, Debug)]
pub(super) struct LinkedService {
    pub(super) inner: ApiService,
    pub(super) link: Link,
}

type LinkedFuture =
    Pin<Box<dyn Future<Output = Result<http::Response<LinkedBody>, std::io::Error>> + Send>>;

impl<B> tower::Service<http::Request<B>> for LinkedService
where
    B: http_body::Body<Data = Bytes> + Send + 'static,
    B::Error: std::fmt::Display,
{
    type Response = http::Response<LinkedBody>;
    type Error = std::io::Error;
    type Future = LinkedFuture;

    fn poll_ready(&mut self, _: &mut Context<'_>) -> Poll<Result<(), std::io::Error>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: http::Request<B>) -> Self::Future {
        let mut inner = self.inner.clone();
        let link = self.link.clone();
        Box::pin(async move {
            match link.state.load(Ordering::SeqCst) {
                REFUSED => return Err(Link::refused_error()),
                UNANSWERED => std::future::pending().await,
                _ => {}
            }
            let response = tower::Service::call(&mut inner, request)
                .await
                .unwrap_or_else(|never| match never {});
            Ok(response.map(|body| LinkedBody { inner: body, link }))
        })
    }
}

/// A response body that stops when its link is cut: a refused link ends it with an error, an
/// unanswered one delivers nothing more.
pub(super) struct LinkedBody {
    inner: Body,
    link: Link,
}

impl http_body::Body for LinkedBody {
    type Data = Bytes;
    type Error = std::io::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
        match self.link.state.load(Ordering::SeqCst) {
            REFUSED => return Poll::Ready(Some(Err(Link::refused_error()))),
            UNANSWERED => return Poll::Pending,
            _ => {}
        }
        match Pin::new(&mut self.inner).poll_frame(cx) {
            Poll::Ready(Some(Err(never))) => match never {},
            Poll::Ready(Some(Ok(frame))) => {
                // The frame was in flight when the link was cut: it is lost with the link.
                match self.link.state.load(Ordering::SeqCst) {
                    REFUSED => Poll::Ready(Some(Err(Link::refused_error()))),
                    UNANSWERED => Poll::Pending,
                    _ => Poll::Ready(Some(Ok(frame))),
                }
            }
            Poll::Ready(None) => Poll::Ready(None),
            Poll::Pending => Poll::Pending,
        }
    }
}

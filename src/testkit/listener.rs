//! An optional loopback HTTP/1.1 listener in front of the same service, so kubectl and other
//! processes can talk to a test server (`kubectl --server http://127.0.0.1:PORT get cm`).

use std::net::SocketAddr;

use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use tokio::net::TcpListener;

use super::service::ApiService;

/// Binds `address` (use `127.0.0.1:0` for any free port) and serves until the runtime stops.
/// Returns the bound address.
pub async fn serve(service: ApiService, address: SocketAddr) -> std::io::Result<SocketAddr> {
    let listener = TcpListener::bind(address).await?;
    let bound = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let service = service.clone();
            tokio::spawn(async move {
                let handler = service_fn(move |request| {
                    let mut service = service.clone();
                    tower::Service::call(&mut service, request)
                });
                let _ = http1::Builder::new()
                    .serve_connection(TokioIo::new(stream), handler)
                    .await;
            });
        }
    });
    Ok(bound)
}

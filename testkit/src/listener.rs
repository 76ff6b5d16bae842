//! An optional loopback HTTP/1.1 listener in front of the same service, so kubectl and other
//! processes can talk to a test server (`kubectl --server http://127.0.0.1:PORT get cm`, or
//! `kubectl --kubeconfig` with a file holding [`kubeconfig`]).

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

/// A kubeconfig whose current context (`webop-testkit`, namespace `default`, no credentials)
/// points at a server listening on `address`.
pub fn kubeconfig(address: SocketAddr) -> String {
    format!(
        "apiVersion: v1
kind: Config
clusters:
- name: webop-testkit
  cluster:
    server: http://{address}
users:
- name: webop-testkit
  user: {{}}
contexts:
- name: webop-testkit
  context:
    cluster: webop-testkit
    user: webop-testkit
    namespace: default
current-context: webop-testkit
"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kubeconfig_points_at_the_address() {
        let config = kubeconfig("127.0.0.1:8001".parse().unwrap());
        assert!(config.contains("    server: http://127.0.0.1:8001\n"));
        assert!(config.contains("current-context: webop-testkit\n"));
    }
}

//! Runs the webop testkit API server on a loopback port, for kubectl and other processes:
//!
//! ```text
//! cargo run --example testkit_server -- 127.0.0.1:8001
//! export KUBECONFIG=/tmp/webop-testkit-8001.kubeconfig   # printed by the example
//! kubectl apply -f config/crd/bases/ && kubectl apply -f webapp.yaml
//! kubectl get webapps && kubectl explain webapps.spec
//! ```

use std::net::SocketAddr;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let address: SocketAddr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:8001".into())
        .parse()?;
    if !address.ip().is_loopback() {
        return Err(format!(
            "{address} is not a loopback address: the testkit serves only this machine"
        )
        .into());
    }
    let server = webop_testkit::ApiServer::new();
    let bound = server.serve_http(address).await?;
    let kubeconfig =
        std::env::temp_dir().join(format!("webop-testkit-{}.kubeconfig", bound.port()));
    std::fs::write(&kubeconfig, webop_testkit::kubeconfig(bound))?;
    println!("webop testkit API server on http://{bound} (Ctrl-C to stop)");
    println!("export KUBECONFIG={}", kubeconfig.display());
    tokio::signal::ctrl_c().await?;
    Ok(())
}

//! Runs the webop testkit API server on a loopback port, for kubectl and other processes:
//!
//! ```text
//! cargo run --example testkit_server --features testkit -- 127.0.0.1:8001
//! kubectl --server http://127.0.0.1:8001 get configmaps -A
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
    let server = webop::testkit::ApiServer::new();
    let bound = server.serve_http(address).await?;
    println!("webop testkit API server on http://{bound} (Ctrl-C to stop)");
    tokio::signal::ctrl_c().await?;
    Ok(())
}

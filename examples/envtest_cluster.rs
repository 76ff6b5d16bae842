//! Starts a real control plane from `KUBEBUILDER_ASSETS` (etcd, kube-apiserver,
//! kube-controller-manager, kube-scheduler and kwok), installs the CRDs of the directories given,
//! and prints the kubeconfig to use with kubectl until Ctrl-C:
//!
//! ```text
//! export KUBEBUILDER_ASSETS="$(tools/k8s-assets | tail -n1)"
//! cargo run --example envtest_cluster -- testdata/webapp-operator/config/crd/bases
//! kubectl --kubeconfig <printed path> get nodes
//! ```

use webop_envtest::{Assets, Backend, Environment};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let assets = Assets::from_env().ok_or(webop_envtest::Error::NoAssets)?;
    let mut builder = Environment::builder()
        .backend(Backend::Real(assets))
        .controller_manager(true)
        .kwok(true);
    for dir in std::env::args().skip(1) {
        builder = builder.crd_dir(dir);
    }
    let env = builder.start().await?;
    let plane = env.control_plane().expect("a real control plane");
    println!("{} (Ctrl-C to stop)", env.describe());
    println!("kubeconfig: {}", plane.kubeconfig_path().display());
    println!("logs: {}", plane.dir().display());
    tokio::signal::ctrl_c().await?;
    Ok(())
}

//! `webop_envtest` on a real control plane (when `KUBEBUILDER_ASSETS` is set; otherwise each
//! test says it was skipped) and on the testkit fallback.
//!
//! The cleanup tests run a helper test of this binary in a child process that starts a control
//! plane, writes its process ids and directory to a file, and then panics or aborts; the parent
//! checks that no process and no directory outlives it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, PostParams};
use webop_envtest::{Backend, Environment, Error};
use webop_testkit::Verb;

/// The real control plane's binaries, or `None` (and a note) when the run has none.
fn assets() -> Option<webop_envtest::Assets> {
    let assets = webop_envtest::Assets::from_env();
    if assets.is_none() {
        eprintln!("skipped: KUBEBUILDER_ASSETS is not set (tools/k8s-assets builds the binaries)");
    }
    assets
}

fn config_map(name: &str) -> ConfigMap {
    serde_json::from_value(serde_json::json!({"metadata": {"name": name}, "data": {"a": "b"}}))
        .unwrap()
}

fn webapp_crd_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/webapp-operator/config/crd/bases")
}

#[tokio::test]
async fn a_real_control_plane_serves_crds_from_a_directory_and_counts_requests() {
    let Some(assets) = assets() else { return };
    let env = Environment::builder()
        .backend(Backend::Real(assets))
        .crd_dir(webapp_crd_dir())
        .start()
        .await
        .unwrap();
    assert!(env.is_real());
    let plane = env.control_plane().unwrap();
    assert!(plane.version().starts_with("v1."), "{}", plane.version());
    assert!(
        env.describe().contains(plane.server()),
        "{}",
        env.describe()
    );

    let webapps = kube::discovery::ApiResource {
        group: "app.example.com".into(),
        version: "v1".into(),
        api_version: "app.example.com/v1".into(),
        kind: "WebApp".into(),
        plural: "webapps".into(),
    };
    let api: Api<kube::api::DynamicObject> =
        Api::namespaced_with(env.client(), "default", &webapps);
    assert!(
        api.list(&Default::default())
            .await
            .unwrap()
            .items
            .is_empty()
    );

    env.reset_request_counts();
    let config_maps: Api<ConfigMap> = Api::namespaced(env.client(), "default");
    config_maps
        .create(&PostParams::default(), &config_map("one"))
        .await
        .unwrap();
    config_maps.get("one").await.unwrap();
    // The audit event is written as the response completes; give the log a moment.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let counts = env.request_counts().unwrap();
    assert_eq!(counts.get(Verb::Create, "configmaps"), 1, "{counts:?}");
    assert_eq!(counts.get(Verb::Get, "configmaps"), 1, "{counts:?}");
    assert_eq!(counts.writes(), 1, "{counts:?}");
}

#[tokio::test]
async fn kubectl_works_with_the_kubeconfig() {
    let Some(assets) = assets() else { return };
    let env = Environment::builder()
        .backend(Backend::Real(assets))
        .start()
        .await
        .unwrap();
    let kubeconfig = env.control_plane().unwrap().kubeconfig_path();
    let output = std::process::Command::new("kubectl")
        .arg("--kubeconfig")
        .arg(kubeconfig)
        .args(["get", "namespace", "default", "-o", "name"])
        .output()
        .expect("kubectl runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&output.stdout).trim(),
        "namespace/default"
    );
}

#[tokio::test]
async fn without_assets_the_environment_is_the_testkit() {
    let env = Environment::builder()
        .backend(Backend::Testkit)
        .crd_dir(webapp_crd_dir())
        .start()
        .await
        .unwrap();
    assert!(!env.is_real());
    assert!(env.testkit().is_some());
    let config_maps: Api<ConfigMap> = Api::namespaced(env.client(), "default");
    config_maps
        .create(&PostParams::default(), &config_map("one"))
        .await
        .unwrap();
    assert_eq!(env.request_counts().unwrap().writes(), 1);
    env.reset_request_counts();
    assert_eq!(env.request_counts().unwrap().writes(), 0);
}

#[tokio::test]
async fn a_missing_binary_is_one_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let error = Environment::builder()
        .backend(Backend::Real(webop_envtest::Assets::new(dir.path())))
        .start()
        .await
        .unwrap_err();
    assert!(
        matches!(error, Error::MissingBinary { binary: "etcd", .. }),
        "{error}"
    );
    let message = error.to_string();
    assert!(message.contains("KUBEBUILDER_ASSETS"), "{message}");
    assert!(message.contains("tools/k8s-assets"), "{message}");
}

/// Where the helper test writes what it started.
const REPORT_VARIABLE: &str = "WEBOP_ENVTEST_REPORT";

/// Run only as a child process of the cleanup tests: starts a control plane, reports it, and
/// ends as `WEBOP_ENVTEST_END` says (`panic` or `abort`).
#[tokio::test]
#[ignore = "run by the cleanup tests in a child process"]
async fn helper_start_report_and_die() {
    let report = PathBuf::from(std::env::var_os(REPORT_VARIABLE).unwrap());
    let env = Environment::builder()
        .backend(Backend::Real(webop_envtest::Assets::from_env().unwrap()))
        .controller_manager(true)
        .start()
        .await
        .unwrap();
    let plane = env.control_plane().unwrap();
    let mut lines = vec![plane.dir().display().to_string()];
    lines.extend(plane.process_ids().iter().map(|(_, pid)| pid.to_string()));
    std::fs::write(&report, lines.join("\n")).unwrap();
    match std::env::var("WEBOP_ENVTEST_END").as_deref() {
        Ok("abort") => std::process::abort(),
        _ => panic!("the test fails with the control plane running"),
    }
}

fn is_running(pid: &str) -> bool {
    // A zombie has no command line; it is dead, only not yet reaped.
    std::fs::read(format!("/proc/{pid}/cmdline")).is_ok_and(|cmdline| !cmdline.is_empty())
}

/// Runs the helper ending with `end`, then waits up to `patience` for its processes and
/// directory to be gone.
fn nothing_outlives(end: &str, patience: Duration) {
    let report_dir = tempfile::tempdir().unwrap();
    let report = report_dir.path().join("report");
    // The helper's name as the test harness lists it: its module path without the crate's.
    let module = module_path!().split_once("::").map_or("", |(_, path)| path);
    let helper = format!("{module}::helper_start_report_and_die");
    let status = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["--ignored", "--exact", helper.trim_start_matches("::")])
        .env(REPORT_VARIABLE, &report)
        .env("WEBOP_ENVTEST_END", end)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap();
    assert!(!status.success(), "the helper test fails");
    let text = std::fs::read_to_string(&report).expect("the helper started a control plane");
    let mut lines = text.lines();
    let dir = PathBuf::from(lines.next().unwrap());
    let pids: Vec<&str> = lines.collect();
    assert_eq!(
        pids.len(),
        3,
        "etcd, kube-apiserver, kube-controller-manager: {pids:?}"
    );

    let deadline = std::time::Instant::now() + patience;
    loop {
        let running: Vec<&&str> = pids.iter().filter(|pid| is_running(pid)).collect();
        if running.is_empty() && !dir.exists() {
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "after the helper {end}ed: processes {running:?} still run, directory {} exists: {}",
            dir.display(),
            dir.exists()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn a_panicking_test_leaves_no_process_or_directory() {
    if assets().is_none() {
        return;
    }
    // Unwinding drops the environment: everything is gone when the test process exits.
    nothing_outlives("panic", Duration::from_secs(1));
}

#[test]
fn an_aborted_test_process_leaves_no_process_or_directory() {
    if assets().is_none() {
        return;
    }
    // No unwinding: the sentinel notices within a second and cleans up.
    nothing_outlives("abort", Duration::from_secs(5));
}

#[tokio::test]
async fn kwok_runs_the_pods_of_a_deployment_and_the_controller_manager_collects_garbage() {
    use k8s_openapi::api::apps::v1::Deployment;
    use kube::runtime::wait::{await_condition, conditions};

    let Some(assets) = assets() else { return };
    let env = Environment::builder()
        .backend(Backend::Real(assets))
        .controller_manager(true)
        .kwok(true)
        .start()
        .await
        .unwrap();
    let deployments: Api<Deployment> = Api::namespaced(env.client(), "default");
    let deployment: Deployment = serde_json::from_value(serde_json::json!({
        "metadata": {"name": "web"},
        "spec": {
            "replicas": 2,
            "selector": {"matchLabels": {"app": "web"}},
            "template": {
                "metadata": {"labels": {"app": "web"}},
                "spec": {"containers": [{"name": "web", "image": "nginx:1.25"}]},
            },
        },
    }))
    .unwrap();
    let created = deployments
        .create(&PostParams::default(), &deployment)
        .await
        .unwrap();
    let available =
        |d: Option<&Deployment>| d.and_then(|d| d.status.as_ref()?.available_replicas) == Some(2);
    tokio::time::timeout(
        Duration::from_secs(60),
        await_condition(deployments.clone(), "web", available),
    )
    .await
    .expect("kwok makes both replicas available")
    .unwrap();

    // A ConfigMap owned by the Deployment goes with it.
    let mut owned = config_map("owned");
    owned.metadata.owner_references = Some(vec![
        k8s_openapi::apimachinery::pkg::apis::meta::v1::OwnerReference {
            api_version: "apps/v1".into(),
            kind: "Deployment".into(),
            name: "web".into(),
            uid: created.metadata.uid.clone().unwrap(),
            ..Default::default()
        },
    ]);
    let config_maps: Api<ConfigMap> = Api::namespaced(env.client(), "default");
    let owned = config_maps
        .create(&PostParams::default(), &owned)
        .await
        .unwrap();
    deployments
        .delete("web", &Default::default())
        .await
        .unwrap();
    tokio::time::timeout(
        Duration::from_secs(60),
        await_condition(
            config_maps,
            "owned",
            conditions::is_deleted(&owned.metadata.uid.unwrap()),
        ),
    )
    .await
    .expect("the garbage collector deletes the dependent")
    .unwrap();
}

#[tokio::test]
async fn a_missing_crd_directory_says_to_generate_the_crds() {
    let error = Environment::builder()
        .backend(Backend::Testkit)
        .crd_dir("/nonexistent/config/crd/bases")
        .start()
        .await
        .unwrap_err();
    let message = error.to_string();
    assert!(
        message.contains("/nonexistent/config/crd/bases"),
        "{message}"
    );
    assert!(message.contains("make manifests"), "{message}");
}

//! Offline tests of the WebApp controller: what it applies and what status it reports, without
//! a cluster.

use k8s_openapi::api::apps::v1::{Deployment, DeploymentCondition, DeploymentStatus};
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Time;
use k8s_openapi::apimachinery::pkg::util::intstr::IntOrString;
use k8s_openapi::jiff::Timestamp;
use kube::Resource;
use webapp_operator::controller::webapp_controller::{
    desired_deployment, desired_service, labels, observed_status,
};
use webapp_operator_api::v1::{WebApp, WebAppPhase, WebAppSpec};

fn webapp() -> WebApp {
    let mut webapp = WebApp::new(
        "demo",
        WebAppSpec {
            image: "nginx:1.25".to_owned(),
            replicas: 2,
            port: 8080,
        },
    );
    webapp.metadata.namespace = Some("default".to_owned());
    webapp.metadata.uid = Some("9f0e7d6c-0000-4000-8000-000000000001".to_owned());
    webapp
}

fn time(seconds: i64) -> Time {
    Time(Timestamp::from_second(seconds).unwrap())
}

fn deployment_with(available: i32, conditions: Vec<DeploymentCondition>) -> Deployment {
    Deployment {
        status: Some(DeploymentStatus {
            available_replicas: Some(available),
            conditions: Some(conditions),
            ..Default::default()
        }),
        ..Default::default()
    }
}

#[test]
fn the_deployment_runs_the_image_as_the_spec_says() {
    let webapp = webapp();
    let deployment = desired_deployment(&webapp).unwrap();
    assert_eq!(deployment.metadata.name.as_deref(), Some("demo-deploy"));
    assert_eq!(deployment.metadata.namespace.as_deref(), Some("default"));
    let owner = &deployment.metadata.owner_references.unwrap()[0];
    assert_eq!(owner.kind, WebApp::kind(&()));
    assert_eq!(owner.name, "demo");
    assert_eq!(owner.controller, Some(true));

    let pod_labels = Some(labels(&webapp));
    let spec = deployment.spec;
    assert_eq!(spec.replicas, Some(2));
    assert_eq!(spec.selector.match_labels, pod_labels);
    let pod = spec.template;
    assert_eq!(pod.metadata.unwrap().labels, pod_labels);
    let container = &pod.spec.unwrap().containers[0];
    assert_eq!(container.image.as_deref(), Some("nginx:1.25"));
    assert_eq!(container.ports.as_ref().unwrap()[0].container_port, 8080);
    let security = container.security_context.as_ref().unwrap();
    assert_eq!(security.allow_privilege_escalation, Some(false));
}

#[test]
fn the_service_exposes_the_port_of_the_pods() {
    let webapp = webapp();
    let service = desired_service(&webapp).unwrap();
    assert_eq!(service.metadata.name.as_deref(), Some("demo-svc"));
    let spec = service.spec.unwrap();
    assert_eq!(spec.selector, Some(labels(&webapp)));
    let port = &spec.ports.unwrap()[0];
    assert_eq!(port.port, 8080);
    assert_eq!(port.target_port, Some(IntOrString::Int(8080)));
}

#[test]
fn children_need_an_object_the_api_server_has_stored() {
    let mut webapp = webapp();
    webapp.metadata.uid = None;
    assert!(desired_deployment(&webapp).is_err());
}

#[test]
fn the_status_follows_the_deployment() {
    let mut webapp = webapp();
    let pending = observed_status(&webapp, &deployment_with(1, vec![]), time(1));
    assert_eq!(pending.phase, Some(WebAppPhase::Pending));
    assert_eq!(pending.available_replicas, 1);
    assert_eq!(pending.last_update_time, Some(time(1)));

    webapp.status = Some(pending.clone());
    let unchanged = observed_status(&webapp, &deployment_with(1, vec![]), time(2));
    assert_eq!(unchanged, pending, "nothing changed: nothing to write");

    let running = observed_status(&webapp, &deployment_with(2, vec![]), time(3));
    assert_eq!(running.phase, Some(WebAppPhase::Running));
    assert_eq!(running.last_update_time, Some(time(3)));

    let stuck = DeploymentCondition {
        type_: Some("Progressing".to_owned()),
        status: Some("False".to_owned()),
        reason: Some("ProgressDeadlineExceeded".to_owned()),
        ..Default::default()
    };
    let failed = observed_status(&webapp, &deployment_with(0, vec![stuck]), time(4));
    assert_eq!(failed.phase, Some(WebAppPhase::Failed));
}

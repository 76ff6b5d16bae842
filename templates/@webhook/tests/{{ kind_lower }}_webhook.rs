//! Tests of the webhooks of {{ kind }} {{ version }} (kubebuilder's {{ kind_lower }}_webhook_test.go
//! and webhook_suite_test.go), on {% if core %}a small {{ kind }} the API server admits{% elif external %}a bare {{ kind }} (an external kind: no sample of
//! this project's){% else %}the sample of
//! config/samples/{{ group }}_{{ version }}_{{ kind_lower }}.yaml{% endif %}: the defaulter and the validator
//! called directly, and an API server calling {% if foreign %}the webhooks of `setup`{% else %}every webhook of `webhooks()`{% endif %} on a create (a real
//! kube-apiserver when `KUBEBUILDER_ASSETS` is set, webop's in-memory one otherwise).
//!
//! TODO(user): add the cases of your defaulting and validation logic.

use kube::Api;
use kube::api::PostParams;
use serde_json::json;
use webop::envtest::Environment;

use {{ crate_name }}::webhook::{{ webhook_module }}::{{ kind_lower }}_webhook::*;
use {{ api_crate }}::{{ version_module }}::{{ kind }};

/// {% if core %}A small {{ kind }}, as the API server admits it{% elif external %}{{ kind }} `{{ kind_lower }}-sample` with an empty spec. TODO(user): fill in what its operator's CRD requires{% else %}The sample {{ kind }}, as `kubectl apply -k config/samples` sends it{% endif %}.
fn sample() -> {{ kind }} {
    serde_json::from_value(json!({{ sample_json }}))
    .expect("the sample is a {{ kind }}")
}

/// {% if core %}The API server calls the webhooks of {{ kind }} as `setup` registers them (no CRD needed)
/// and stores the sample they admit.{% elif external %}The API server, with {{ kind }}'s CRD as its own operator installs it (here the one its
/// types describe: `crd: true` undoes the `#[resource(skip)]` that keeps it out of config/crd),
/// calls the webhooks of {{ kind }} as `setup` registers them and stores the sample they admit.{% else %}The API server calls the webhooks as the manager registers them (`webhooks()` of
/// src/webhook/mod.rs) and stores the sample they admit.{% endif %}
#[tokio::test]
async fn the_api_server_admits_the_sample_through_the_webhooks() {
    let env = Environment::builder()
{%- if external %}
        .crd(webop::crd::single(webop::crd::CrdVersion {
            crd: true,
            ..{{ kind }}::crd_version()
        }))
{%- endif %}
{%- if foreign %}
        .webhooks(setup(webop::webhook::Webhooks::new()))
{%- else %}
        .crd_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/config/crd/bases"))
        .webhooks({{ crate_name }}::webhook::webhooks())
{%- endif %}
        .start()
        .await
        .expect("the API server starts with {% if not core %}the CRD{% if not external %}s{% endif %} and {% endif %}the webhooks");
{%- if namespaced %}
    let api: Api<{{ kind }}> = Api::namespaced(env.client(), "default");
{%- else %}
    let api: Api<{{ kind }}> = Api::all(env.client());
{%- endif %}
    let created = api
        .create(&PostParams::default(), &sample())
        .await
        .expect("the webhooks admit the sample");
    assert_eq!(created.metadata.name, sample().metadata.name);
}
// +webop:scaffold:webhooktests

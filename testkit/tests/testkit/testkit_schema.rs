//! The OpenAPI keywords of a CRD schema, one by one, with the exact 422 the API server answers:
//! kube-openapi's messages, the apiextensions server's field paths, reasons and values, and its
//! odd corners (an integer's `multipleOf: 0.5` is "0", an out-of-range `int64` is reported at
//! `<nil>`, nulls of non-nullable fields are dropped). A `scenario!`: the same body runs on the
//! testkit and on a real kube-apiserver.

use crate::testkit_common;

use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, PostParams};
use serde_json::{Value, json};
use testkit_common::{causes, environment, status_of};

/// A CRD `Sample` whose spec has one field per keyword under test.
fn sample_crd() -> CustomResourceDefinition {
    let properties = json!({
        "text": {"type": "string", "minLength": 3, "maxLength": 5, "pattern": "^[a-z]+$"},
        "choice": {"type": "string", "enum": ["a", "b"]},
        "ratio": {"type": "number", "multipleOf": 0.5, "maximum": 10, "exclusiveMaximum": true},
        "count": {"type": "integer", "minimum": 2, "exclusiveMinimum": true},
        "big": {"type": "integer", "format": "int64"},
        "list": {"type": "array", "minItems": 2, "maxItems": 3, "items": {"type": "string"}},
        "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "string"}},
        "labels": {"type": "object", "minProperties": 2, "maxProperties": 3, "additionalProperties": {"type": "string"}},
        "plain": {"type": "string"},
        "optional": {"type": "string", "nullable": true},
        "port": {"x-kubernetes-int-or-string": true},
        "day": {"type": "string", "format": "date"},
        "id": {"type": "string", "format": "uuid"},
        "address": {"type": "string", "format": "ipv4"},
        "either": {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}], "properties": {"a": {"type": "string"}, "b": {"type": "string"}}},
        "not_x": {"type": "string", "not": {"enum": ["x"]}},
        "any": {"x-kubernetes-int-or-string": true, "anyOf": [{"type": "integer"}, {"type": "string"}]},
        "nested": {"type": "object", "properties": {"name": {"type": "string"}}}
    });
    let schema = json!({"type": "object", "properties": {
        "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
        "spec": {"type": "object", "properties": properties}
    }});
    serde_json::from_value(json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "samples.app.example.com"},
        "spec": {
            "group": "app.example.com",
            "scope": "Namespaced",
            "names": {"kind": "Sample", "listKind": "SampleList", "plural": "samples", "singular": "sample"},
            "versions": [{"name": "v1", "served": true, "storage": true, "schema": {"openAPIV3Schema": schema}}]
        }
    }))
    .unwrap()
}

fn samples(client: kube::Client) -> Api<DynamicObject> {
    let resource = ApiResource::from_gvk_with_plural(
        &GroupVersionKind::gvk("app.example.com", "v1", "Sample"),
        "samples",
    );
    Api::namespaced_with(client, "default", &resource)
}

fn sample(spec: Value) -> DynamicObject {
    serde_json::from_value(json!({
        "apiVersion": "app.example.com/v1", "kind": "Sample", "metadata": {"name": "s"}, "spec": spec
    }))
    .unwrap()
}

scenario!(
    every_keyword_reports_what_kube_openapi_reports,
    async |backend| {
        let env = environment(backend)
            .crd(sample_crd())
            .start()
            .await
            .unwrap();
        let api = samples(env.client());
        let dry_run = PostParams {
            dry_run: true,
            ..Default::default()
        };
        // Each case: a spec and the causes of the 422 (`field: message`, sorted).
        let cases: &[(Value, &[&str])] = &[
            // The first failing string keyword is the only error.
            (
                json!({"text": "AB"}),
                &[
                    "spec.text: Invalid value: \"AB\": spec.text in body should be at least 3 chars long",
                ],
            ),
            (
                json!({"text": "abcdefg"}),
                &["spec.text: Too long: may not be more than 5 bytes"],
            ),
            (
                json!({"choice": "c"}),
                &["spec.choice: Unsupported value: \"c\": supported values: \"a\", \"b\""],
            ),
            // An integer meets `multipleOf: 0.5` as Go's int64(0.5).
            (
                json!({"ratio": 10}),
                &[
                    "spec.ratio: Invalid value: 0: factor MultipleOf declared for spec.ratio must be positive: 0",
                    "spec.ratio: Invalid value: 10: spec.ratio in body should be less than 10",
                ],
            ),
            (
                json!({"ratio": 1.25}),
                &[
                    "spec.ratio: Invalid value: 1.25: spec.ratio in body should be a multiple of 0.5",
                ],
            ),
            (
                json!({"count": 2}),
                &["spec.count: Invalid value: 2: spec.count in body should be greater than 2"],
            ),
            (
                json!({"big": 1e30}),
                &[
                    "<nil>: Invalid value: \"\": Checked value must be of type integer with format int64 in spec.big",
                    "spec.big: Invalid value: \"float64\": spec.big in body must be of type int64: \"float64\"",
                ],
            ),
            (
                json!({"list": ["a"]}),
                &["spec.list: Invalid value: 1: spec.list in body should have at least 2 items"],
            ),
            (
                json!({"list": ["a", "b", "c", "d"]}),
                &["spec.list: Too many: 4: must have at most 3 items"],
            ),
            (
                json!({"set": ["a", "a"]}),
                &["spec.set[1]: Duplicate value: \"a\""],
            ),
            (
                json!({"labels": {"a": "x"}}),
                &[
                    "spec.labels: Invalid value: 1: spec.labels in body should have at least 2 properties",
                ],
            ),
            (
                json!({"labels": {"a": "1", "b": "2", "c": "3", "d": "4"}}),
                &["spec.labels: Too many: 4: must have at most 3 items"],
            ),
            (
                json!({"port": 1.5}),
                &[
                    "spec.port: Invalid value: \"number\": spec.port in body must be of type integer,string: \"number\"",
                ],
            ),
            (
                json!({"day": "2020-13-01"}),
                &[
                    "spec.day: Invalid value: \"2020-13-01\": spec.day in body must be of type date: \"2020-13-01\"",
                ],
            ),
            (
                json!({"id": "x"}),
                &["spec.id: Invalid value: \"x\": spec.id in body must be of type uuid: \"x\""],
            ),
            (
                json!({"address": "1.2.3"}),
                &[
                    "spec.address: Invalid value: \"1.2.3\": spec.address in body must be of type ipv4: \"1.2.3\"",
                ],
            ),
            (
                json!({"either": {"a": "x", "b": "y"}}),
                &[
                    "<nil>: Invalid value: \"\": \"spec.either\" must validate one and only one schema (oneOf). Found 2 valid alternatives",
                ],
            ),
            (
                json!({"either": {}}),
                &[
                    "<nil>: Invalid value: \"\": \"spec.either\" must validate one and only one schema (oneOf). Found none valid",
                    "spec.either.a: Required value",
                ],
            ),
            (
                json!({"not_x": "x"}),
                &["<nil>: Invalid value: \"\": \"spec.not_x\" must not validate the schema (not)"],
            ),
            (
                json!({"any": true}),
                &[
                    "<nil>: Invalid value: \"\": \"spec.any\" must validate at least one schema (anyOf)",
                    "spec.any: Invalid value: \"boolean\": spec.any in body must be of type integer,string: \"boolean\"",
                    "spec.any: Invalid value: \"boolean\": spec.any in body must be of type integer: \"boolean\"",
                ],
            ),
            (
                json!({"nested": "x"}),
                &[
                    "spec.nested: Invalid value: \"string\": spec.nested in body must be of type object: \"string\"",
                ],
            ),
            (
                json!({"plain": 5}),
                &[
                    "spec.plain: Invalid value: \"integer\": spec.plain in body must be of type string: \"integer\"",
                ],
            ),
        ];
        for (spec, expected) in cases {
            let status = status_of(api.create(&dry_run, &sample(spec.clone())).await);
            assert_eq!(
                (status.code, status.reason.as_str()),
                (422, "Invalid"),
                "{spec}"
            );
            assert_eq!(causes(&status), *expected, "{spec}");
        }

        // Nulls of non-nullable fields are dropped; a nullable field keeps its null.
        let created = api
            .create(
                &dry_run,
                &sample(json!({"plain": null, "nested": null, "optional": null})),
            )
            .await
            .unwrap();
        assert_eq!(created.data["spec"], json!({"optional": null}));
    }
);

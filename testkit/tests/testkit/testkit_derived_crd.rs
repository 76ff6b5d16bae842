//! The derives and the API server together: `WebApp::crd()` from webop's attributes installs,
//! and the server enforces that schema (bounds, defaults) on the typed `Api<WebApp>`. A
//! `scenario!`: the same body runs on the testkit and on a real kube-apiserver.

use crate::webapp;

use kube::api::{Api, PostParams};
use serde_json::json;
use webapp::{WebApp, WebAppSpec};

use crate::testkit_common;

use testkit_common::environment;

scenario!(
    the_derived_crd_validates_and_defaults_custom_resources,
    async |backend| {
        let env = environment(backend)
            .crd(WebApp::crd())
            .start()
            .await
            .expect("the derived CRD installs");
        let api: Api<WebApp> = Api::namespaced(env.client(), "default");

        let too_many = WebApp::new(
            "big",
            WebAppSpec {
                image: "nginx".into(),
                replicas: 11,
                port: 80,
                resources: None,
            },
        );
        let err = api
            .create(&PostParams::default(), &too_many)
            .await
            .unwrap_err();
        let message = err.to_string();
        assert!(message.contains("spec.replicas"), "{message}");
        assert!(message.contains("less than or equal to 10"), "{message}");

        // A client that leaves a defaulted field out gets the schema's default back.
        let raw: Api<kube::api::DynamicObject> = Api::namespaced_with(
            env.client(),
            "default",
            &kube::api::ApiResource::erase::<WebApp>(&()),
        );
        let bare = serde_json::from_value(json!({
            "apiVersion": "app.example.com/v1",
            "kind": "WebApp",
            "metadata": {"name": "bare"},
            "spec": {"image": "nginx"}
        }))
        .unwrap();
        raw.create(&PostParams::default(), &bare).await.unwrap();
        let stored = api.get("bare").await.unwrap();
        assert_eq!((stored.spec.replicas, stored.spec.port), (1, 8080));
    }
);

//! Fault injection and request counters of the testkit.

use crate::testkit_common;

use std::time::Duration;

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{
    Api, ListParams, ObjectMeta, Patch, PatchParams, PostParams, WatchEvent, WatchParams,
};
use kube::runtime::watcher;
use serde_json::json;
use testkit_common::{status_of, within};
use webop_testkit::{ApiServer, Matcher, Verb};

fn config_map(name: &str) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            ..Default::default()
        },
        ..Default::default()
    }
}

#[tokio::test]
async fn the_next_matching_requests_fail_with_the_given_status() {
    let server = ApiServer::new();
    let api: Api<ConfigMap> = Api::default_namespaced(server.client());
    api.create(&PostParams::default(), &config_map("a"))
        .await
        .unwrap();
    server.faults().fail_next(Verb::Patch, "configmaps", 2, 409);
    let patch = Patch::Merge(json!({"data": {"k": "v"}}));
    // Other verbs and resources are unaffected.
    api.get("a").await.unwrap();
    for _ in 0..2 {
        let status = status_of(api.patch("a", &PatchParams::default(), &patch).await);
        assert_eq!((status.code, status.reason.as_str()), (409, "Conflict"));
    }
    api.patch("a", &PatchParams::default(), &patch)
        .await
        .unwrap();

    server
        .faults()
        .fail_matching(Matcher::new(None, Some("configmaps")), 1, 429);
    assert_eq!(
        status_of(api.list(&ListParams::default()).await).reason,
        "TooManyRequests"
    );
    server
        .faults()
        .fail_matching(Matcher::new(None, None), 1, 500);
    assert_eq!(status_of(api.get("a").await).code, 500);
    server.faults().fail_next(Verb::Get, "configmaps", 5, 503);
    server.faults().clear();
    api.get("a").await.unwrap();
}

#[tokio::test(start_paused = true)]
async fn responses_can_be_delayed() {
    let server = ApiServer::new();
    let api: Api<ConfigMap> = Api::default_namespaced(server.client());
    server.faults().delay(
        Matcher::new(Verb::Create, Some("configmaps")),
        Duration::from_secs(30),
    );
    let started = tokio::time::Instant::now();
    api.create(&PostParams::default(), &config_map("slow"))
        .await
        .unwrap();
    assert!(
        started.elapsed() >= Duration::from_secs(30),
        "the create waited for the injected delay (virtual time)"
    );
    let started = tokio::time::Instant::now();
    api.get("slow").await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "other verbs are not delayed"
    );
}

#[tokio::test]
async fn dropping_watches_ends_every_stream() {
    let server = ApiServer::new();
    let api: Api<ConfigMap> = Api::default_namespaced(server.client());
    let mut first = api
        .watch(&WatchParams::default(), "0")
        .await
        .unwrap()
        .boxed();
    let mut second = api
        .watch(&WatchParams::default().labels("a=b"), "0")
        .await
        .unwrap()
        .boxed();
    assert_eq!(server.open_watches(), 2);
    assert_eq!(server.faults().drop_watches(), 2);
    assert!(
        within("first stream end", first.try_next())
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        within("second stream end", second.try_next())
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(server.open_watches(), 0);
    // New watches work as before.
    let mut third = api
        .watch(
            &WatchParams::default(),
            &server.resource_version().to_string(),
        )
        .await
        .unwrap()
        .boxed();
    api.create(&PostParams::default(), &config_map("after"))
        .await
        .unwrap();
    assert!(
        matches!(within("event", third.try_next()).await.unwrap().unwrap(), WatchEvent::Added(o) if o.name_any() == "after")
    );
}

#[tokio::test]
async fn counters_count_requests_by_verb_and_resource() {
    let server = ApiServer::new();
    let api: Api<ConfigMap> = Api::default_namespaced(server.client());
    for name in ["a", "b", "c"] {
        api.create(&PostParams::default(), &config_map(name))
            .await
            .unwrap();
    }
    // A watcher costs one list and one watch; paging through 3 objects two at a time, two lists.
    let config = watcher::Config::default().page_size(2);
    let mut stream = watcher(api.clone(), config).boxed();
    while !matches!(
        within("init", stream.try_next()).await.unwrap().unwrap(),
        watcher::Event::InitDone
    ) {}
    api.patch(
        "a",
        &PatchParams::default(),
        &Patch::Merge(json!({"data": {"x": "y"}})),
    )
    .await
    .unwrap();
    while !matches!(
        within("apply", stream.try_next()).await.unwrap().unwrap(),
        watcher::Event::Apply(_)
    ) {}

    let counters = server.counters();
    assert_eq!(counters.get(Verb::Create, "configmaps"), 3);
    assert_eq!(counters.get(Verb::List, "configmaps"), 2);
    assert_eq!(counters.get(Verb::Watch, "configmaps"), 1);
    assert_eq!(counters.get(Verb::Patch, "configmaps"), 1);
    assert_eq!(counters.verb(Verb::Create), 3);
    assert_eq!(counters.total(), 7);
    assert_eq!(
        counters
            .snapshot()
            .get(&(Verb::List, "configmaps".to_string())),
        Some(&2)
    );
    counters.reset();
    assert_eq!(counters.total(), 0);
}

#[tokio::test]
async fn a_cut_link_refuses_one_client_and_ends_its_watches() {
    let server = ApiServer::new();
    let (client, link) = server.linked_client();
    let cut_off: Api<ConfigMap> = Api::default_namespaced(client);
    let other: Api<ConfigMap> = Api::default_namespaced(server.client());
    let mut events = cut_off
        .watch(&WatchParams::default(), "0")
        .await
        .unwrap()
        .boxed();
    other
        .create(&PostParams::default(), &config_map("a"))
        .await
        .unwrap();
    let first = within("the first event", events.try_next()).await.unwrap();
    assert!(matches!(first, Some(WatchEvent::Added(_))), "{first:?}");

    link.refuse();
    assert!(!link.is_connected());
    let error = cut_off.get("a").await.unwrap_err();
    assert!(error.to_string().contains("link"), "{error}");
    other
        .create(&PostParams::default(), &config_map("b"))
        .await
        .unwrap();
    let ended = within("the watch to fail", events.next()).await;
    assert!(matches!(ended, Some(Err(_))), "{ended:?}");

    link.restore();
    assert_eq!(
        cut_off
            .list(&ListParams::default())
            .await
            .unwrap()
            .items
            .len(),
        2
    );
}

#[tokio::test(start_paused = true)]
async fn a_black_holed_link_answers_nothing() {
    let server = ApiServer::new();
    let (client, link) = server.linked_client();
    let cut_off: Api<ConfigMap> = Api::default_namespaced(client);
    link.black_hole();
    let unanswered = tokio::time::timeout(Duration::from_secs(300), cut_off.get("a")).await;
    assert!(unanswered.is_err(), "no answer, only the caller's timeout");
    assert_eq!(server.counters().total(), 0, "nothing reached the server");
    link.restore();
    let status = status_of(cut_off.get("a").await);
    assert_eq!(status.code, 404);
}

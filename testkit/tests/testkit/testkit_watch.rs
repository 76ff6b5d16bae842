//! Watch semantics: event order and resourceVersions, selector transitions, resume from a
//! resourceVersion and streaming lists (`sendInitialEvents`) are `scenario!`s, run on the
//! testkit and on a real kube-apiserver; 410 Gone after compaction (and the watcher's relist)
//! and bookmarks on demand are testkit-only, as compaction and bookmarks cannot be provoked on
//! a real server.

use crate::testkit_common;

use futures::{StreamExt, TryStreamExt};
use k8s_openapi::api::core::v1::ConfigMap;
use kube::ResourceExt;
use kube::api::{
    Api, ListParams, ObjectMeta, Patch, PatchParams, PostParams, VersionMatch, WatchEvent,
    WatchParams,
};
use kube::runtime::watcher;
use serde_json::json;
use testkit_common::{client_without_retries, eventually, plain, status_of, within};
use webop_testkit::{ApiServer, Verb};

fn config_map(name: &str, labels: &[(&str, &str)]) -> ConfigMap {
    ConfigMap {
        metadata: ObjectMeta {
            name: Some(name.into()),
            labels: Some(
                labels
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect(),
            ),
            ..Default::default()
        },
        ..Default::default()
    }
}

scenario!(
    watches_stream_in_order_and_resume_from_a_resource_version,
    async |backend| {
        let env = plain(backend).await;
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        let start = api
            .list(&ListParams::default())
            .await
            .unwrap()
            .metadata
            .resource_version
            .unwrap();
        let mut stream = api
            .watch(&WatchParams::default().labels("app=x"), &start)
            .await
            .unwrap()
            .boxed();
        api.create(&PostParams::default(), &config_map("a", &[("app", "x")]))
            .await
            .unwrap();
        api.create(
            &PostParams::default(),
            &config_map("ignored", &[("app", "y")]),
        )
        .await
        .unwrap();
        api.patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(&json!({"data": {"k": "2"}})),
        )
        .await
        .unwrap();
        // Leaving the selector is a DELETED for this watch, as in a real watch cache.
        api.patch(
            "a",
            &PatchParams::default(),
            &Patch::Merge(&json!({"metadata": {"labels": {"app": "z"}}})),
        )
        .await
        .unwrap();
        let mut seen = Vec::new();
        for _ in 0..3 {
            match eventually("watch event", stream.try_next())
                .await
                .unwrap()
                .unwrap()
            {
                WatchEvent::Added(o) => seen.push(("ADDED", o.resource_version().unwrap())),
                WatchEvent::Modified(o) => seen.push(("MODIFIED", o.resource_version().unwrap())),
                WatchEvent::Deleted(o) => seen.push(("DELETED", o.resource_version().unwrap())),
                other => panic!("unexpected {other:?}"),
            }
        }
        let kinds: Vec<_> = seen.iter().map(|(k, _)| *k).collect();
        assert_eq!(kinds, ["ADDED", "MODIFIED", "DELETED"]);
        let versions: Vec<u64> = seen.iter().map(|(_, v)| v.parse().unwrap()).collect();
        assert!(
            versions.windows(2).all(|w| w[0] < w[1]),
            "resourceVersions increase: {versions:?}"
        );

        // Resuming from a resourceVersion replays exactly what came after it.
        let mut resumed = api
            .watch(&WatchParams::default(), &seen[0].1)
            .await
            .unwrap()
            .boxed();
        match eventually("resumed event", resumed.try_next())
            .await
            .unwrap()
            .unwrap()
        {
            WatchEvent::Added(o) => assert_eq!(o.name_any(), "ignored"),
            other => panic!("unexpected {other:?}"),
        }
    }
);

/// Testkit-only: compaction (`ApiServer::compact`) and bookmarks on demand
/// (`ApiServer::send_bookmarks`) have no handle on a real API server, which compacts etcd every
/// five minutes and sends bookmarks about once a minute.
#[tokio::test]
async fn compacted_history_gets_410_and_bookmarks_come_on_demand() {
    let server = ApiServer::new();
    let api: Api<ConfigMap> = Api::default_namespaced(server.client());
    let start = server.resource_version().to_string();
    api.create(&PostParams::default(), &config_map("a", &[]))
        .await
        .unwrap();

    // After compaction an old resourceVersion gets an ERROR event with 410 Gone.
    server.compact();
    let mut expired = api
        .watch(&WatchParams::default(), &start)
        .await
        .unwrap()
        .boxed();
    match within("410", expired.try_next()).await.unwrap().unwrap() {
        WatchEvent::Error(status) => {
            assert_eq!((status.code, status.reason.as_str()), (410, "Expired"))
        }
        other => panic!("unexpected {other:?}"),
    }

    // Bookmarks carry the current resourceVersion to watches that allow them.
    let mut bookmarked = api
        .watch(
            &WatchParams {
                bookmarks: true,
                ..Default::default()
            },
            &server.resource_version().to_string(),
        )
        .await
        .unwrap()
        .boxed();
    server.send_bookmarks();
    match within("bookmark", bookmarked.try_next())
        .await
        .unwrap()
        .unwrap()
    {
        WatchEvent::Bookmark(b) => assert_eq!(
            b.metadata.resource_version,
            server.resource_version().to_string()
        ),
        other => panic!("unexpected {other:?}"),
    }
}

scenario!(
    streaming_lists_end_with_the_initial_events_bookmark,
    async |backend| {
        let env = plain(backend).await;
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        api.create(&PostParams::default(), &config_map("before", &[]))
            .await
            .unwrap();
        // Streaming list: initial state comes as a watch, ended by the initial-events-end bookmark.
        // kube-runtime starts it at resourceVersion 0, any state of a real API server's watch
        // cache, which may not hold a create made a moment before: a complete list without the
        // object is followed by another (the testkit's first one holds it).
        let initial = eventually("a streaming list holding the object", async {
            loop {
                let initial = streaming_list(&api).await;
                if !initial.is_empty() {
                    return initial;
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
        })
        .await;
        assert_eq!(initial, ["before"]);
    }
);

/// The names a streaming list's initial events bring, once it ends with the initial-events-end
/// bookmark (`InitDone`); anything else in between fails the test.
async fn streaming_list(api: &Api<ConfigMap>) -> Vec<String> {
    let mut streaming = watcher(api.clone(), watcher::Config::default().streaming_lists()).boxed();
    let mut initial = Vec::new();
    loop {
        match streaming.try_next().await.unwrap().unwrap() {
            watcher::Event::Init => {}
            watcher::Event::InitApply(o) => initial.push(o.name_any()),
            watcher::Event::InitDone => return initial,
            other => panic!("unexpected {other:?}"),
        }
    }
}

/// Testkit-only: it compacts the history and drops every watch (`Faults::drop_watches`), as an
/// API server restart after a compaction would, and counts the watcher's lists.
#[tokio::test]
async fn watcher_relists_after_410() {
    let server = ApiServer::new();
    let api: Api<ConfigMap> = Api::default_namespaced(server.client());
    api.create(&PostParams::default(), &config_map("before", &[]))
        .await
        .unwrap();
    // A compaction plus a dropped watch forces a 410 on re-watch; the watcher relists and
    // still delivers what was created meanwhile.
    let mut relisting = watcher(api.clone(), watcher::Config::default()).boxed();
    while !matches!(
        within("init", relisting.try_next()).await.unwrap().unwrap(),
        watcher::Event::InitDone
    ) {}
    let lists_before = server.counters().get(Verb::List, "configmaps");
    api.create(&PostParams::default(), &config_map("during", &[]))
        .await
        .unwrap();
    server.compact();
    server.faults().drop_watches();
    let mut names = Vec::new();
    let mut gone = false;
    while !names.contains(&"during".to_string()) {
        match within("relist", relisting.next()).await.unwrap() {
            Ok(watcher::Event::Apply(o) | watcher::Event::InitApply(o)) => names.push(o.name_any()),
            Ok(_) => {}
            Err(error) => gone |= format!("{error:?}").contains("410"),
        }
    }
    assert!(
        gone,
        "the re-watch from a compacted resourceVersion got 410 Gone"
    );
    assert_eq!(
        server.counters().get(Verb::List, "configmaps"),
        lists_before + 1,
        "the watcher relisted once"
    );
}

scenario!(
    resource_versions_order_lists_reads_and_watches,
    async |backend| {
        let env = plain(backend).await;
        let api: Api<ConfigMap> = Api::default_namespaced(env.client());
        let names = |list: kube::core::ObjectList<ConfigMap>| -> Vec<String> {
            list.items.iter().map(ResourceExt::name_any).collect()
        };
        let a = api
            .create(&PostParams::default(), &config_map("a", &[]))
            .await
            .unwrap();
        let first = api.list(&ListParams::default()).await.unwrap();
        let at_a = first.metadata.resource_version.clone().unwrap();
        let version = |v: &str| v.parse::<u64>().unwrap();
        assert!(version(&at_a) >= version(&a.resource_version().unwrap()));
        api.create(&PostParams::default(), &config_map("b", &[]))
            .await
            .unwrap();

        // An exact list is the collection as it was; a plain one is the latest.
        let exact = ListParams::default()
            .at(&at_a)
            .matching(VersionMatch::Exact);
        let then = api.list(&exact).await.unwrap();
        assert_eq!(
            then.metadata.resource_version.as_deref(),
            Some(at_a.as_str())
        );
        assert_eq!(names(then), ["a"]);
        let now = api.list(&ListParams::default()).await.unwrap();
        assert!(version(now.metadata.resource_version.as_deref().unwrap()) > version(&at_a));
        assert_eq!(names(now), ["a", "b"]);

        // Unset (or "0") replays the current state as ADDED; a version replays what followed it.
        let mut replay = api
            .watch(&WatchParams::default(), "0")
            .await
            .unwrap()
            .boxed();
        let mut added = Vec::new();
        for _ in 0..2 {
            match eventually("replayed event", replay.try_next())
                .await
                .unwrap()
                .unwrap()
            {
                WatchEvent::Added(o) => added.push(o.name_any()),
                other => panic!("unexpected {other:?}"),
            }
        }
        assert_eq!(added, ["a", "b"]);
        let mut resumed = api
            .watch(&WatchParams::default(), &at_a)
            .await
            .unwrap()
            .boxed();
        match eventually("resumed event", resumed.try_next())
            .await
            .unwrap()
            .unwrap()
        {
            WatchEvent::Added(o) => assert_eq!(o.name_any(), "b"),
            other => panic!("unexpected {other:?}"),
        }

        // Versions the server cannot serve.
        // (Without the client's retries of a 504: the real server answers it after 3 seconds.)
        let once: Api<ConfigMap> = Api::default_namespaced(client_without_retries(&env).await);
        let too_new = status_of(once.list(&ListParams::default().at("999999999")).await);
        assert_eq!((too_new.code, too_new.reason.as_str()), (504, "Timeout"));
        assert!(
            too_new
                .message
                .starts_with("Timeout: Too large resource version: 999999999, current: "),
            "{}",
            too_new.message
        );
        assert_eq!(
            too_new.details.unwrap().causes[0].reason,
            "ResourceVersionTooLarge"
        );
        let garbled = status_of(api.list(&ListParams::default().at("abc")).await);
        assert_eq!(
            (garbled.code, garbled.message.as_str()),
            (
                400,
                "invalid resource version: resourceVersion: Invalid value: \"abc\": \
                 strconv.ParseUint: parsing \"abc\": invalid syntax"
            )
        );
        let request =
            http::Request::get("/api/v1/namespaces/default/configmaps?resourceVersionMatch=Exact")
                .body(Vec::new())
                .unwrap();
        let unmatched = status_of(env.client().request::<serde_json::Value>(request).await);
        assert_eq!(
            (unmatched.code, unmatched.message.as_str()),
            (
                422,
                "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: \
                 resourceVersionMatch is forbidden unless resourceVersion is provided"
            )
        );
    }
);

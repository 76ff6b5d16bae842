use super::*;
use kube::api::{DeleteParams, ListParams};
use webop_testkit::ApiServer;

fn recorder(server: &ApiServer) -> EventRecorder {
    let reporter = Reporter {
        controller: "webapp-controller".to_owned(),
        instance: Some("webapp-controller-7d9f".to_owned()),
    };
    EventRecorder::new(server.client(), reporter)
}

fn webapp(name: &str) -> ObjectReference {
    ObjectReference {
        api_version: Some("app.example.com/v1".to_owned()),
        kind: Some("WebApp".to_owned()),
        namespace: Some("default".to_owned()),
        name: Some(name.to_owned()),
        uid: Some(format!("uid-{name}")),
        resource_version: Some("7".to_owned()),
        field_path: None,
    }
}

fn updated(note: &str, related: Option<ObjectReference>) -> Event {
    Event {
        type_: EventType::Normal,
        reason: "Updated".to_owned(),
        note: Some(note.to_owned()),
        action: "Reconcile".to_owned(),
        secondary: related,
    }
}

async fn events(server: &ApiServer) -> Vec<K8sEvent> {
    Api::<K8sEvent>::namespaced(server.client(), "default")
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
}

#[tokio::test]
async fn an_event_is_created_as_kubes_recorder_creates_it() {
    let server = ApiServer::new();
    let child = webapp("demo-deploy");
    recorder(&server)
        .publish(
            &updated("applied demo-deploy", Some(child.clone())),
            &webapp("demo"),
        )
        .await
        .unwrap();

    let [event] = events(&server).await.try_into().unwrap();
    assert!(event.metadata.name.unwrap().starts_with("demo."));
    assert_eq!(event.type_.as_deref(), Some("Normal"));
    assert_eq!(event.reason.as_deref(), Some("Updated"));
    assert_eq!(event.action.as_deref(), Some("Reconcile"));
    assert_eq!(event.note.as_deref(), Some("applied demo-deploy"));
    assert_eq!(event.regarding, Some(webapp("demo")));
    assert_eq!(event.related, Some(child));
    assert_eq!(
        event.reporting_controller.as_deref(),
        Some("webapp-controller")
    );
    assert_eq!(
        event.reporting_instance.as_deref(),
        Some("webapp-controller-7d9f")
    );
    assert!(event.event_time.is_some());
    assert_eq!(event.series, None);
}

#[tokio::test]
async fn repeats_count_on_the_first_events_series_and_keep_its_note() {
    let server = ApiServer::new();
    let recorder = recorder(&server);
    for note in ["first", "second", "third"] {
        recorder
            .publish(&updated(note, None), &webapp("demo"))
            .await
            .unwrap();
    }

    let [event] = events(&server).await.try_into().unwrap();
    assert_eq!(event.note.as_deref(), Some("first"));
    assert_eq!(event.series.unwrap().count, 3);
}

#[tokio::test]
async fn another_related_object_or_resource_version_is_another_event() {
    let server = ApiServer::new();
    let recorder = recorder(&server);
    let later = ObjectReference {
        resource_version: Some("8".to_owned()),
        ..webapp("demo")
    };
    let publishes = [
        (
            updated("deploy", Some(webapp("demo-deploy"))),
            webapp("demo"),
        ),
        (updated("svc", Some(webapp("demo-svc"))), webapp("demo")),
        (updated("deploy", Some(webapp("demo-deploy"))), later),
    ];
    for (event, regarding) in publishes {
        recorder.publish(&event, &regarding).await.unwrap();
    }

    let events = events(&server).await;
    assert_eq!(events.len(), 3);
    assert!(events.iter().all(|event| event.series.is_none()));
}

#[tokio::test(start_paused = true)]
async fn a_repeat_after_six_quiet_minutes_starts_a_new_event() {
    let server = ApiServer::new();
    let recorder = recorder(&server);
    let regarding = webapp("demo");
    recorder
        .publish(&updated("one", None), &regarding)
        .await
        .unwrap();
    tokio::time::advance(Duration::from_secs(5 * 60)).await;
    recorder
        .publish(&updated("two", None), &regarding)
        .await
        .unwrap();
    // Six minutes after the repeat, not after the first: the window follows the series.
    tokio::time::advance(Duration::from_secs(5 * 60)).await;
    recorder
        .publish(&updated("three", None), &regarding)
        .await
        .unwrap();
    assert_eq!(events(&server).await.len(), 1);

    tokio::time::advance(SERIES_WINDOW).await;
    assert_eq!(recorder.remembered(), 0);
    recorder
        .publish(&updated("four", None), &regarding)
        .await
        .unwrap();
    let mut notes: Vec<_> = events(&server).await.into_iter().map(|e| e.note).collect();
    notes.sort();
    assert_eq!(notes, [Some("four".to_owned()), Some("one".to_owned())]);
}

#[tokio::test]
async fn a_repeat_of_an_event_the_server_let_go_creates_it_again() {
    let server = ApiServer::new();
    let recorder = recorder(&server);
    recorder
        .publish(&updated("one", None), &webapp("demo"))
        .await
        .unwrap();
    let [first] = events(&server).await.try_into().unwrap();
    Api::<K8sEvent>::namespaced(server.client(), "default")
        .delete(&first.metadata.name.unwrap(), &DeleteParams::default())
        .await
        .unwrap();

    recorder
        .publish(&updated("two", None), &webapp("demo"))
        .await
        .unwrap();
    let [again] = events(&server).await.try_into().unwrap();
    assert_eq!(again.note.as_deref(), Some("two"));
    assert_eq!(again.series, None);
}

#[tokio::test]
async fn memory_holds_the_most_recent_events_only() {
    let server = ApiServer::new();
    let recorder = recorder(&server);
    let objects = REMEMBERED_EVENTS.get() + 100;
    for index in 0..objects {
        let regarding = webapp(&format!("app-{index}"));
        recorder
            .publish(&updated("applied", None), &regarding)
            .await
            .unwrap();
    }
    assert_eq!(recorder.remembered(), REMEMBERED_EVENTS.get());

    // The most recent still counts its repeat; the first was forgotten and starts anew.
    let last = webapp(&format!("app-{}", objects - 1));
    recorder
        .publish(&updated("again", None), &last)
        .await
        .unwrap();
    recorder
        .publish(&updated("again", None), &webapp("app-0"))
        .await
        .unwrap();
    let events = events(&server).await;
    assert_eq!(events.len(), objects + 1);
    let series = events.iter().filter(|event| event.series.is_some()).count();
    assert_eq!(series, 1);
}

use super::super::Metrics;
use super::*;

fn line(text: &str, prefix: &str) -> String {
    text.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} in\n{text}"))
        .to_owned()
}

#[tokio::test(start_paused = true)]
async fn adds_depth_durations_and_retries_follow_client_go() {
    let metrics = Metrics::new();
    let queue = metrics.controller("webapp", 1).queue;
    queue.add("ns/a");
    queue.add("ns/a");
    queue.add("ns/b");
    let text = metrics.encode();
    let labels = "{name=\"webapp\",controller=\"webapp\"}";
    assert_eq!(
        line(&text, "workqueue_adds_total"),
        format!("workqueue_adds_total{labels} 2")
    );
    assert_eq!(
        line(&text, "workqueue_depth{"),
        "workqueue_depth{name=\"webapp\",controller=\"webapp\",priority=\"\"} 2"
    );

    tokio::time::advance(Duration::from_secs(2)).await;
    queue.start("ns/a");
    tokio::time::advance(Duration::from_secs(3)).await;
    let text = metrics.encode();
    assert_eq!(
        line(&text, "workqueue_unfinished_work_seconds{"),
        format!("workqueue_unfinished_work_seconds{labels} 3.0")
    );
    assert_eq!(
        line(&text, "workqueue_longest_running_processor_seconds{"),
        format!("workqueue_longest_running_processor_seconds{labels} 3.0")
    );
    queue.done("ns/a");
    queue.add_after("ns/a", Duration::from_secs(10));
    let text = metrics.encode();
    assert!(
        text.contains(&format!("workqueue_retries_total{labels} 1")),
        "{text}"
    );
    assert!(text.contains("priority=\"\"} 1"), "b only: {text}");
    assert!(text.contains(&format!("workqueue_queue_duration_seconds_count{labels} 1")));
    assert!(text.contains(&format!("workqueue_work_duration_seconds_sum{labels} 3.0")));

    // The delayed item is added when its delay ends.
    tokio::time::advance(Duration::from_secs(10)).await;
    let text = metrics.encode();
    assert!(
        text.contains(&format!("workqueue_adds_total{labels} 3")),
        "{text}"
    );
    assert!(text.contains("priority=\"\"} 2"), "{text}");
    queue.remove("ns/b");
    assert!(metrics.encode().contains("priority=\"\"} 1"));
}

#[tokio::test(start_paused = true)]
async fn a_prioritized_queue_counts_its_depth_by_priority() {
    let metrics = Metrics::new();
    let queue = metrics.controller("webapp", 1).queue;
    queue.prioritize();
    let depth = |priority: &str| {
        line(
            &metrics.encode(),
            &format!(
                "workqueue_depth{{name=\"webapp\",controller=\"webapp\",priority=\"{priority}\"}}"
            ),
        )
        .rsplit(' ')
        .next()
        .unwrap()
        .to_owned()
    };
    assert_eq!((depth("0"), depth("-100")), ("0".into(), "0".into()));
    queue.add_at("ns/listed", Priority::Low);
    queue.add_at("ns/raised", Priority::Low);
    queue.add_at("ns/raised", Priority::Normal);
    queue.add_at("ns/changed", Priority::Normal);
    queue.add_at("ns/changed", Priority::Low);
    assert_eq!((depth("0"), depth("-100")), ("2".into(), "1".into()));
    queue.start("ns/raised");
    queue.done("ns/raised");
    queue.add_after("ns/raised", Duration::from_secs(1));
    tokio::time::advance(Duration::from_secs(1)).await;
    assert_eq!((depth("0"), depth("-100")), ("2".into(), "1".into()));
    assert!(!metrics.encode().contains("priority=\"\""));
    assert!(
        metrics
            .encode()
            .contains("workqueue_adds_total{name=\"webapp\",controller=\"webapp\"} 4")
    );
}

//! Events with notes a person reads, and errors as one line of text.

use k8s_openapi::api::core::v1::ObjectReference;
use kube::Resource;
use kube::runtime::events::{Event, EventType};

use crate::EventRecorder;

/// Records an event `reason` on `regarding` with `note`, about `related` if given; a failure to
/// record is logged, never fatal. controller-runtime: `record.EventRecorder.Eventf`.
///
/// The recorder counts repeats of an event (same type, reason, regarding and related object)
/// as a series that keeps its first note; so each child a change touches gets its own event
/// (`related` is the child), and a note says which.
pub async fn publish<K: Resource<DynamicType = ()>>(
    recorder: &EventRecorder,
    regarding: &K,
    type_: EventType,
    reason: &str,
    note: String,
    related: Option<ObjectReference>,
) {
    let event = Event {
        type_,
        reason: reason.to_owned(),
        note: Some(note),
        action: "Reconcile".to_owned(),
        secondary: related,
    };
    if let Err(error) = recorder.publish(&event, &regarding.object_ref(&())).await {
        tracing::warn!(error = %one_line(&error), "cannot record an event");
    }
}

/// `error` as one line of text for a person: an API server's refusal is its message (`Service
/// "demo-svc" is invalid: spec.ports[1].name: Duplicate value: "http"`), never a `Debug` dump.
pub fn one_line(error: &kube::Error) -> String {
    let text = match error {
        kube::Error::Api(status) if !status.message.is_empty() => status.message.clone(),
        kube::Error::Api(status) => format!("the API server answered {}", status.code),
        other => {
            let mut text = other.to_string();
            let mut source = std::error::Error::source(other);
            while let Some(cause) = source {
                let cause = cause.to_string();
                if !text.contains(&cause) {
                    text = format!("{text}: {cause}");
                }
                source = cause_of(source);
            }
            text
        }
    };
    single_line(&text)
}

/// `text` with every run of whitespace (newlines of a conflict list) made one space.
pub(crate) fn single_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn cause_of<'a>(
    error: Option<&'a (dyn std::error::Error + 'static)>,
) -> Option<&'a (dyn std::error::Error + 'static)> {
    error.and_then(std::error::Error::source)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_api_error_is_its_message_on_one_line() {
        let status = kube::core::Status::failure(
            "Service \"demo-svc\" is invalid:\n spec.ports[1].name: Duplicate value: \"http\"",
            "Invalid",
        )
        .with_code(422);
        let text = one_line(&kube::Error::Api(Box::new(status)));
        assert_eq!(
            text,
            "Service \"demo-svc\" is invalid: spec.ports[1].name: Duplicate value: \"http\""
        );
    }
}

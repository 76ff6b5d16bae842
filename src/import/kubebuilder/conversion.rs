//! A kind whose Go conversion is not translated: the scaffolded spoke returns a TODO(user)
//! error for the fields the versions type differently, so the API server cannot convert it yet.
//! The kind's webhook test on the API server needs that conversion whenever the server calls a
//! webhook of another version than the one it stores (`matchPolicy: Equivalent`), so the import
//! marks it ignored with the reason, as the scaffold marks the round-trip test: the imported
//! project passes its tests, and the user is told what to port.

use super::go::GoFile;
use super::{Issue, Resource};

/// What the import says of each `*_conversion.go` of an API package.
const UNTRANSLATED: &str = "the Go conversion functions are not translated: the scaffolded \
    conversion copies the fields both versions have with the same type and returns a TODO(user) \
    error for the others, whose tests (the round trip, and the webhook test where the API server \
    converts) wait, ignored, until it is ported";

/// The issue of each `*_conversion.go` of an API package: Go function bodies are not translated,
/// so a spoke's hand-written conversion is the user's to port where the versions' fields differ.
pub(super) fn untranslated(files: &[GoFile]) -> impl Iterator<Item = Issue> + '_ {
    let conversions = files.iter().filter(|f| f.path.ends_with("_conversion.go"));
    conversions.map(|file| Issue {
        file: file.path.clone(),
        line: 0,
        what: UNTRANSLATED.into(),
    })
}

/// The name of the generated test that creates the kind's sample through the API server.
const SERVER_TEST: &str = "async fn the_api_server_admits_the_sample_through_the_webhooks()";

/// Whether the API server converts `hub`'s kind to admit a sample in its webhook test: a version
/// other than the hub, the one it stores, has admission webhooks (the test creates the sample of
/// one version, and each webhook is called with the object in its own version).
pub fn server_test_needs_conversion(resources: &[Resource], hub: &Resource) -> bool {
    resources.iter().any(|r| {
        r.group == hub.group
            && r.kind == hub.kind
            && r.version != hub.version
            && r.webhooks
                .as_ref()
                .is_some_and(|w| w.defaulting || w.validation)
    })
}

/// `test` (a kind's `tests/<kind>_webhook.rs`) with its API-server test ignored until the
/// conversions in `incomplete` (the spokes' files) are written; unchanged when it has no such
/// test or is already ignored.
pub fn server_test_waiting_for_conversion(test: &str, kind: &str, incomplete: &[String]) -> String {
    let Some(at) = test.find(SERVER_TEST) else {
        return test.to_owned();
    };
    let attributes = &test[..at];
    let attributes_start = attributes.trim_end().rfind('\n').map_or(0, |i| i + 1);
    if attributes[attributes_start..].contains("#[ignore") {
        return test.to_owned();
    }
    let files = incomplete.join(" and ");
    let ignore = format!(
        "#[ignore = \"TODO(user): port the Go conversion of {kind} to {files}: the API server \
         converts {kind} to call the webhooks of each version; then remove this line\"]\n"
    );
    format!("{}{ignore}{}", &test[..at], &test[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resource(version: &str, webhooks: Option<super::super::Webhooks>) -> Resource {
        Resource {
            group: "batch".into(),
            version: version.into(),
            kind: "CronJob".into(),
            webhooks,
            ..Resource::default()
        }
    }

    fn admission() -> Option<super::super::Webhooks> {
        Some(super::super::Webhooks {
            defaulting: true,
            ..Default::default()
        })
    }

    #[test]
    fn the_server_test_needs_the_conversion_when_another_version_has_admission_webhooks() {
        let hub = resource("v1", admission());
        let spoke = resource("v2", admission());
        assert!(server_test_needs_conversion(&[hub.clone(), spoke], &hub));
        let bare_spoke = resource("v2", None);
        assert!(!server_test_needs_conversion(
            &[hub.clone(), bare_spoke],
            &hub
        ));
    }

    #[test]
    fn the_server_test_is_ignored_once_with_the_files_to_write() {
        let test = "use x;\n\n/// Doc.\n#[tokio::test]\nasync fn the_api_server_admits_the_sample_through_the_webhooks() {\n}\n\n#[tokio::test]\nasync fn other() {}\n";
        let files = ["api/src/v2/cronjob_conversion.rs".to_owned()];
        let ignored = server_test_waiting_for_conversion(test, "CronJob", &files);
        assert!(
            ignored.contains("#[tokio::test]\n#[ignore = \"TODO(user): port the Go conversion of CronJob to api/src/v2/cronjob_conversion.rs: "),
            "{ignored}"
        );
        assert_eq!(ignored.matches("#[ignore").count(), 1);
        assert!(ignored.ends_with("#[tokio::test]\nasync fn other() {}\n"));
        assert_eq!(
            server_test_waiting_for_conversion(&ignored, "CronJob", &files),
            ignored
        );
        assert_eq!(
            server_test_waiting_for_conversion("fn f() {}", "CronJob", &files),
            "fn f() {}"
        );
    }
}

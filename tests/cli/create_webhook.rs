//! `webop create webhook` on the WebApp project: the plan and `--dry-run`, every refused input
//! (nothing written), a second call merging into the files of the first, the PROJECT entries,
//! `delete api` refusing a kind with webhooks, and a conversion webhook's files. What
//! `kubectl kustomize config/default` builds, and the generated project with webhooks built and
//! tested, are in create_webhook_built.rs.

use crate::support;
use crate::webhook_project;

use std::path::Path;

use support::{gvk_command, read, refused, run_ok, tree};
use webhook_project::{V2, WEBHOOK, webapp, with};

/// `webop args` fails with a message containing each of `expected`, and changes no file.
fn refused_with(dir: &Path, args: &[&str], expected: &[&str]) {
    let stderr = refused(dir, args);
    for part in expected {
        assert!(stderr.contains(part), "webop {args:?}: {stderr}");
    }
}

#[test]
fn dry_run_prints_the_plan_and_writes_nothing() {
    let (_temp, dir) = webapp();
    let before = tree(&dir);
    let report = run_ok(
        &dir,
        &with(
            WEBHOOK,
            &["--defaulting", "--programmatic-validation", "--dry-run"],
        ),
    );
    assert_eq!(tree(&dir), before);
    for line in [
        "created src/webhook/v1/webapp_webhook.rs",
        "created src/webhook/mod.rs",
        "created src/webhook/v1/mod.rs",
        "created tests/webapp_webhook.rs",
        "created config/webhook/service.yaml",
        "created config/certmanager/certificate-webhook.yaml",
        "created config/default/manager_webhook_patch.yaml",
        "updated config/default/kustomization.yaml",
        "updated config/network-policy/kustomization.yaml",
        "updated Cargo.toml",
        "updated src/main.rs",
        "updated src/lib.rs",
        "updated PROJECT",
        "dry run: no file was written",
    ] {
        assert!(
            report.lines().any(|l| l == line),
            "{line:?} not in:\n{report}"
        );
    }
}

#[test]
fn every_bad_input_is_refused_and_writes_nothing() {
    let (_temp, dir) = webapp();
    refused_with(
        &dir,
        &with(WEBHOOK, &[]),
        &["at least one of --defaulting, --programmatic-validation and --conversion"],
    );
    refused_with(
        &dir,
        &gvk_command(
            &["create", "webhook"],
            ["app", "v1", "Blog"],
            &["--defaulting"],
        ),
        &["no kind Blog in app/v1", "app/v1 WebApp"],
    );
    refused_with(
        &dir,
        &with(WEBHOOK, &["--defaulting", "--spoke", "v2"]),
        &["--spoke v2 needs --conversion"],
    );
    refused_with(
        &dir,
        &with(WEBHOOK, &["--conversion", "--spoke", "v2"]),
        &["WebApp has no other version", "--controller=false"],
    );
    run_ok(&dir, V2);
    refused_with(
        &dir,
        &with(WEBHOOK, &["--conversion", "--spoke", "v3"]),
        &["invalid spoke \"v3\"", "it has v1, v2"],
    );
    refused_with(
        &dir,
        &with(WEBHOOK, &["--conversion"]),
        &["needs --spoke", "WebApp also has v2"],
    );
    refused_with(
        &dir,
        &with(WEBHOOK, &["--conversion", "--spoke", "v1"]),
        &["the hub v1 cannot be its own spoke"],
    );
    run_ok(&dir, &with(WEBHOOK, &["--conversion", "--spoke", "v2"]));
    refused_with(
        &dir,
        &gvk_command(
            &["create", "webhook"],
            ["app", "v2", "WebApp"],
            &["--conversion", "--spoke", "v1"],
        ),
        &["v2 is a spoke of the hub v1", "conversion runs on the hub"],
    );
    refused_with(
        &dir,
        &with(WEBHOOK, &["--conversion", "--spoke", "v2"]),
        &["WebApp v1 already has a conversion webhook", "--force"],
    );
    // delete api keeps a kind whose webhooks, or whose hub, need it.
    refused_with(
        &dir,
        &gvk_command(&["delete", "api"], ["app", "v1", "WebApp"], &[]),
        &["WebApp v1 has webhooks (conversion)"],
    );
    refused_with(
        &dir,
        &gvk_command(&["delete", "api"], ["app", "v2", "WebApp"], &[]),
        &["WebApp v2 is a spoke of the conversion webhook of WebApp v1"],
    );
}

/// A kustomization whose section `create webhook` uncomments was removed by the user: a clear
/// error naming the section, and nothing written.
#[test]
fn a_missing_kustomization_section_is_named_and_nothing_is_written() {
    let (_temp, dir) = webapp();
    let path = dir.join("config/default/kustomization.yaml");
    let text = read(&dir, "config/default/kustomization.yaml").replace("#- ../certmanager\n", "");
    std::fs::write(&path, text).unwrap();
    refused_with(
        &dir,
        &with(WEBHOOK, &["--defaulting"]),
        &["config/default/kustomization.yaml", "#- ../certmanager"],
    );
}

#[test]
fn a_second_call_merges_into_the_files_of_the_first() {
    let (_temp, dir) = webapp();
    run_ok(&dir, &with(WEBHOOK, &["--defaulting"]));
    let module = "src/webhook/v1/webapp_webhook.rs";
    let first = read(&dir, module);
    assert!(
        first.contains("pub struct WebAppCustomDefaulter;"),
        "{first}"
    );
    assert!(!first.contains("WebAppCustomValidator"), "{first}");
    assert!(
        !read(&dir, "config/default/kustomization.yaml").contains(
            "\n - source: # Uncomment the following block if you have a ValidatingWebhook"
        )
    );
    // The user fills in the defaulter.
    let edited = first.replace(
        "        // TODO(user): fill in your defaulting logic.\n",
        "        webapp.spec.replicas = webapp.spec.replicas.max(1);\n",
    );
    assert_ne!(edited, first);
    std::fs::write(dir.join(module), &edited).unwrap();

    let report = run_ok(&dir, &with(WEBHOOK, &["--programmatic-validation"]));
    assert!(
        report.lines().any(|l| l == format!("updated {module}")),
        "{report}"
    );
    let merged = read(&dir, module);
    assert!(
        merged.contains("webapp.spec.replicas = webapp.spec.replicas.max(1);"),
        "{merged}"
    );
    assert!(
        merged.contains(
            "    webhooks = webhooks.defaulter::<WebApp, _>(WebAppCustomDefaulter);\n    webhooks = webhooks.validator::<WebApp, _>(WebAppCustomValidator);\n    // +webop:scaffold:webhookregistrations\n    webhooks\n"
        ),
        "{merged}"
    );
    assert!(
        merged.contains("pub struct WebAppCustomValidator;"),
        "{merged}"
    );
    assert_eq!(
        merged.matches("pub struct WebAppCustomDefaulter;").count(),
        1
    );
    // Merged, the files are what one call with both types writes (but for the user's edit).
    let (_both_temp, both) = webapp();
    run_ok(
        &both,
        &with(WEBHOOK, &["--defaulting", "--programmatic-validation"]),
    );
    assert_eq!(
        merged.replace(
            "webapp.spec.replicas = webapp.spec.replicas.max(1);\n",
            "// TODO(user): fill in your defaulting logic.\n"
        ),
        read(&both, module)
    );
    assert_eq!(
        read(&dir, "tests/webapp_webhook.rs"),
        read(&both, "tests/webapp_webhook.rs")
    );
    assert_eq!(
        read(&dir, "config/default/kustomization.yaml"),
        read(&both, "config/default/kustomization.yaml")
    );
    let tests = read(&dir, "tests/webapp_webhook.rs");
    assert!(
        tests.contains("async fn the_defaulter_admits_the_sample"),
        "{tests}"
    );
    assert!(
        tests.contains("async fn the_validator_admits_the_sample"),
        "{tests}"
    );
    let kustomization = read(&dir, "config/default/kustomization.yaml");
    for kind in [
        "ValidatingWebhookConfiguration",
        "MutatingWebhookConfiguration",
    ] {
        assert!(
            kustomization.contains(&format!("\n     - select:\n         kind: {kind}\n")),
            "{kustomization}"
        );
    }
    assert!(read(&dir, "PROJECT").contains(
        "  version: v1\n  webhooks:\n    defaulting: true\n    validation: true\n    webhookVersion: v1\n"
    ));
    // The same type again is refused; with --force the module is scaffolded anew.
    refused_with(
        &dir,
        &with(WEBHOOK, &["--defaulting"]),
        &["already has a defaulting webhook"],
    );
    let report = run_ok(&dir, &with(WEBHOOK, &["--defaulting", "--force"]));
    assert!(
        report.contains(&format!("overwritten {module}")),
        "{report}"
    );
    assert!(!read(&dir, module).contains("max(1)"));
}

#[test]
fn conversion_marks_the_hub_and_writes_both_sides() {
    let (_temp, dir) = webapp();
    run_ok(&dir, V2);
    run_ok(&dir, &with(WEBHOOK, &["--conversion", "--spoke", "v2"]));
    let hub_types = read(&dir, "api/src/v1/webapp_types.rs");
    assert!(
        hub_types.contains(
            "#[resource(group = \"app.example.com\", version = \"v1\", kind = \"WebApp\")]\n#[storage_version]\n"
        ),
        "{hub_types}"
    );
    assert!(!read(&dir, "api/src/v2/webapp_types.rs").contains("#[storage_version]"));
    assert!(
        read(&dir, "api/src/v1/webapp_conversion.rs")
            .contains("impl webop::webhook::Hub for super::WebApp {}")
    );
    let spoke = read(&dir, "api/src/v2/webapp_conversion.rs");
    assert!(
        spoke.contains("impl Convertible<v1::WebApp> for WebApp {"),
        "{spoke}"
    );
    // v2 (plain flavour: `foo`) shares no spec field with v1 (--image flavour): named in a TODO.
    assert!(
        spoke.contains("`spec.image`") && spoke.contains("`spec.foo` (no counterpart)"),
        "{spoke}"
    );
    for version in ["v1", "v2"] {
        let module = read(&dir, &format!("api/src/{version}/mod.rs"));
        assert!(
            module.contains("mod webapp_conversion;\nmod webapp_types;\n"),
            "{module}"
        );
    }
    assert!(read(&dir, "config/crd/kustomization.yaml").contains(
        "- path: patches/webhook_in_webapps.yaml\n# +webop:scaffold:crdkustomizewebhookpatch\n"
    ));
    assert!(read(&dir, "PROJECT").contains(
        "  version: v1\n  webhooks:\n    conversion: true\n    spoke:\n    - v2\n    webhookVersion: v1\n"
    ));
    let registry = read(&dir, "src/webhook/mod.rs");
    assert!(
        registry.contains(".conversion::<webapp_operator_api::v1::WebApp>()\n        .spoke::<webapp_operator_api::v2::WebApp>()\n        .done();"),
        "{registry}"
    );
    assert!(
        !dir.join("src/webhook/v1").exists(),
        "no admission webhook, no module"
    );
    // Without admission webhooks there is no manifests.yaml to list.
    assert!(!read(&dir, "config/webhook/kustomization.yaml").contains("- manifests.yaml"));
}

/// kubebuilder's `--defaulting-path` and `--validation-path`: the webhook is served there, the
/// path is in PROJECT, and `delete webhook` takes the type and its path out again.
#[test]
fn a_custom_path_is_served_recorded_and_deleted_with_its_webhook() {
    let (_temp, dir) = webapp();
    refused_with(
        &dir,
        &with(WEBHOOK, &["--defaulting", "--validation-path", "/v"]),
        &["--validation-path can only be used with --programmatic-validation"],
    );
    refused_with(
        &dir,
        &with(WEBHOOK, &["--defaulting", "--defaulting-path", "mutate"]),
        &["invalid defaulting-path \"mutate\"", "starts with `/`"],
    );
    let before = tree(&dir);
    let custom = [
        "--programmatic-validation",
        "--validation-path=/validate-my-webapp",
    ];
    run_ok(&dir, &with(WEBHOOK, &custom));
    let project = read(&dir, "PROJECT");
    assert!(
        project.contains("    validation: true\n    validationPath: /validate-my-webapp\n"),
        "{project}"
    );
    let module = read(&dir, "src/webhook/v1/webapp_webhook.rs");
    for line in [
        "path = \"/validate-my-webapp\",",
        "webhooks.validator_at::<WebApp, _>(\"/validate-my-webapp\", WebAppCustomValidator);",
    ] {
        assert!(module.contains(line), "{line}: {module}");
    }
    let delete = ["delete", "webhook"];
    run_ok(&dir, &gvk_command(&delete, ["app", "v1", "WebApp"], &[]));
    assert_eq!(tree(&dir), before);
}

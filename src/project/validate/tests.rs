use super::*;

#[test]
fn kinds() {
    // Names of the scaffolded code's own items are fine: it reaches the kind through its
    // module (`appv1::Context`).
    for good in [
        "WebApp",
        "Memcached",
        "A",
        "Web2App",
        "Busybox",
        "SelfTest",
        "Condition",
        "Context",
        "Client",
    ] {
        assert_eq!(kind(good), Ok(()), "{good}");
    }
    for (bad, rule) in [
        ("webApp", "PascalCase"),
        ("Web-App", "PascalCase"),
        ("9Lives", "PascalCase"),
        ("", "PascalCase"),
        ("Web_App", "PascalCase"),
        ("Wébapp", "PascalCase"),
        ("Self", "keyword"),
        ("Option", "prelude"),
        ("String", "prelude"),
        ("Future", "prelude"),
        ("Debug", "prelude"),
    ] {
        let err = kind(bad).unwrap_err();
        assert!(err.rule.contains(rule), "{bad}: {err}");
        assert!(
            err.to_string()
                .starts_with(&format!("invalid kind {bad:?}: "))
        );
    }
}

#[test]
fn kinds_alongside_others() {
    assert_eq!(kind_alongside("Cache", "v1", &["WebApp"]), Ok(()));
    assert!(kind_alongside("WebAppStatus", "v1", &["WebApp"]).is_err());
    assert!(kind_alongside("WebApp", "v1", &["WebAppSpec"]).is_err());
}

#[test]
fn groups_and_domains() {
    for good in ["app", "example.com", "a-b.c9", "x", &"a".repeat(63)] {
        assert_eq!(group(good), Ok(()), "{good}");
        assert_eq!(domain(good), Ok(()), "{good}");
    }
    let long = format!("{}.{}", "a".repeat(200), "b".repeat(53)); // 254
    for bad in [
        "Example.com",
        "-a.com",
        "a-.com",
        "a..b",
        ".a",
        "a.",
        "",
        "a_b",
        &long,
    ] {
        let err = domain(bad).unwrap_err();
        assert!(err.rule.contains("DNS-1123 subdomain"), "{bad}: {err}");
        assert!(group(bad).is_err(), "{bad}");
    }
    assert!(
        domain(&long)
            .unwrap_err()
            .rule
            .contains("it has 254 characters")
    );
}

#[test]
fn qualified_groups() {
    assert_eq!(qualified_group("app", "example.com"), Ok(()));
    let err = qualified_group(&"a".repeat(200), &"b".repeat(53)).unwrap_err();
    assert!(err.rule.contains("254 characters"), "{err}");
}

#[test]
fn versions() {
    for good in ["v1", "v0", "v12", "v1beta1", "v2alpha3", "v10beta20"] {
        assert_eq!(version(good), Ok(()), "{good}");
    }
    for bad in [
        "1",
        "V1",
        "v1beta",
        "v0x",
        "v",
        "v1gamma1",
        "v1alpha1beta1",
        "v1 ",
        "vv1",
    ] {
        let err = version(bad).unwrap_err();
        assert!(
            err.rule.contains(r"^v\d+((alpha|beta)\d+)?$"),
            "{bad}: {err}"
        );
    }
}

#[test]
fn project_names() {
    for good in ["webapp-operator", "a", "op2", &"a".repeat(56)] {
        assert_eq!(project_name(good), Ok(()), "{good}");
    }
    for bad in [
        "WebApp", "9lives", "-a", "a-", "a_b", "a.b", "", "test", "std", "self", "fn",
    ] {
        assert!(project_name(bad).is_err(), "{bad}");
    }
    assert!(project_name(&"a".repeat(57)).is_err());
}

#[test]
fn plurals_and_images() {
    assert_eq!(plural("webapps"), Ok(()));
    assert!(plural("WebApps").is_err());
    assert_eq!(image("nginx:1.25"), Ok(()));
    assert_eq!(image("registry.example.com:5000/a/b@sha256:0f"), Ok(()));
    for bad in ["", "nginx 1.25", "a\"b", "{{x}}"] {
        assert!(image(bad).is_err(), "{bad}");
        assert!(repo(bad).is_err(), "{bad}");
    }
    assert_eq!(repo("github.com/example/webapp-operator"), Ok(()));
}

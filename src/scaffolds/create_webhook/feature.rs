//! The operator package's `webop` dependency line with and without webop's `webhook` feature,
//! which `create webhook` switches on and `delete webhook` off again.

/// Each pair is the line without the feature and the line with it. The first is what
/// `templates/Cargo.toml.tera` writes; the second what projects scaffolded before the `webop`
/// crate became the runtime facade alone (when the manager was a feature to ask for) have.
const LINES: &[(&str, &str)] = &[
    (
        "webop.workspace = true",
        r#"webop = { workspace = true, features = ["webhook"] }"#,
    ),
    (
        r#"webop = { workspace = true, features = ["manager"] }"#,
        r#"webop = { workspace = true, features = ["manager", "webhook"] }"#,
    ),
];

/// `manifest` with the feature on, or `None` when it has no `webop` line this knows. A manifest
/// that has it already is returned as it is.
pub fn enable(manifest: &str) -> Option<String> {
    switch(manifest, |(off, on)| (off, on))
}

/// `manifest` with the feature off; as it is when the feature is not on.
pub fn disable(manifest: &str) -> String {
    switch(manifest, |(off, on)| (on, off)).unwrap_or_else(|| manifest.to_owned())
}

/// The first line of `manifest` that equals a `from` of [`LINES`], replaced by its `to`; the
/// manifest as it is when a line already equals a `to`.
fn switch(
    manifest: &str,
    direction: fn((&'static str, &'static str)) -> (&'static str, &'static str),
) -> Option<String> {
    let pairs = LINES.iter().map(|&pair| direction(pair));
    let lines: Vec<&str> = manifest.lines().collect();
    if pairs
        .clone()
        .any(|(_, to)| lines.iter().any(|l| l.trim() == to))
    {
        return Some(manifest.to_owned());
    }
    let (index, to) = lines.iter().enumerate().find_map(|(index, line)| {
        let (_, to) = pairs.clone().find(|(from, _)| line.trim() == *from)?;
        Some((index, to))
    })?;
    let mut out: Vec<&str> = lines;
    out[index] = to;
    let mut text = out.join("\n");
    if manifest.ends_with('\n') {
        text.push('\n');
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TODAY: &str = "[dependencies]\napi.workspace = true\nwebop.workspace = true\n\n\
                         [dev-dependencies]\nwebop = { workspace = true, features = [\"envtest\"] }\n";

    #[test]
    fn the_feature_goes_on_and_off_again_byte_for_byte() {
        let on = enable(TODAY).unwrap();
        assert!(
            on.contains("\nwebop = { workspace = true, features = [\"webhook\"] }\n"),
            "{on}"
        );
        assert_eq!(enable(&on).unwrap(), on);
        assert_eq!(disable(&on), TODAY);
        assert_eq!(disable(TODAY), TODAY);
    }

    #[test]
    fn a_project_from_before_the_facade_split_keeps_its_manager_feature() {
        let old = "webop = { workspace = true, features = [\"manager\"] }\n";
        let on = enable(old).unwrap();
        assert_eq!(
            on,
            "webop = { workspace = true, features = [\"manager\", \"webhook\"] }\n"
        );
        assert_eq!(disable(&on), old);
    }

    #[test]
    fn a_manifest_without_a_known_line_is_refused() {
        assert_eq!(enable("[dependencies]\nwebop = \"0.1\"\n"), None);
    }

    #[test]
    fn the_template_writes_the_first_line() {
        let template = include_str!("../../../templates/Cargo.toml.tera");
        assert!(template.lines().any(|l| l == LINES[0].0), "{template}");
    }
}

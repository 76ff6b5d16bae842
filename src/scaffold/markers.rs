//! `+webop:scaffold:<name>` insertion points: how `create api` extends a user-owned file without
//! owning it.

/// The text of a marker line, after its comment sign: `+webop:scaffold:<name>`.
pub fn marker(name: &str) -> String {
    format!("+webop:scaffold:{name}")
}

/// `contents` with each of `lines` inserted above the marker line `name`, with the marker's
/// indentation, unless the file already has that line, or has it commented out (so inserting
/// twice changes nothing, and a line the user commented out stays out). `None` when the file
/// has no such marker.
pub fn insert(contents: &str, name: &str, lines: &[String]) -> Option<String> {
    let marker = marker(name);
    let is_marker = |line: &str| {
        let text = line.trim();
        ["# ", "// "]
            .iter()
            .any(|comment| text.strip_prefix(comment) == Some(marker.as_str()))
    };
    let at = contents.lines().position(is_marker)?;
    let existing: Vec<&str> = contents.lines().map(str::trim_end).collect();
    let indent: String = existing[at]
        .chars()
        .take_while(|c| c.is_whitespace())
        .collect();
    let present = |line: &str| {
        existing
            .iter()
            .any(|have| have.trim() == line || uncommented(have) == Some(line))
    };
    let missing: Vec<String> = lines
        .iter()
        .filter(|line| !present(line.trim()))
        .map(|line| format!("{indent}{line}"))
        .collect();
    if missing.is_empty() {
        return Some(contents.to_owned());
    }
    let mut out =
        String::with_capacity(contents.len() + missing.iter().map(|l| l.len() + 1).sum::<usize>());
    for (i, line) in contents.split_inclusive('\n').enumerate() {
        if i == at {
            for new in &missing {
                out.push_str(new);
                out.push('\n');
            }
        }
        out.push_str(line);
    }
    Some(out)
}

/// The text of a commented-out line (`# - a.yaml`, `#- a.yaml`, `// pub mod a;`), trimmed.
fn uncommented(line: &str) -> Option<&str> {
    let text = line.trim();
    text.strip_prefix("//")
        .or_else(|| text.strip_prefix('#'))
        .map(str::trim)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KUSTOMIZATION: &str = "resources:\n- a.yaml\n# +webop:scaffold:crdkustomizeresource\n\nconfigurations:\n- kustomizeconfig.yaml\n";

    fn lines(l: &[&str]) -> Vec<String> {
        l.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn inserts_above_the_marker() {
        let out = insert(KUSTOMIZATION, "crdkustomizeresource", &lines(&["- b.yaml"])).unwrap();
        assert_eq!(
            out,
            "resources:\n- a.yaml\n- b.yaml\n# +webop:scaffold:crdkustomizeresource\n\nconfigurations:\n- kustomizeconfig.yaml\n"
        );
    }

    #[test]
    fn inserting_twice_changes_nothing() {
        let once = insert(
            KUSTOMIZATION,
            "crdkustomizeresource",
            &lines(&["- b.yaml", "- a.yaml"]),
        )
        .unwrap();
        let twice = insert(&once, "crdkustomizeresource", &lines(&["- b.yaml"])).unwrap();
        assert_eq!(once, twice);
        assert_eq!(once.matches("- a.yaml").count(), 1);
    }

    #[test]
    fn a_line_the_user_commented_out_stays_out() {
        for commented in ["# - b.yaml", "#- b.yaml", "  #  - b.yaml"] {
            let text = KUSTOMIZATION.replace("- a.yaml\n", &format!("- a.yaml\n{commented}\n"));
            let out = insert(&text, "crdkustomizeresource", &lines(&["- b.yaml"])).unwrap();
            assert_eq!(out, text, "{commented}");
        }
        let rust = "pub mod a;\n// pub mod b;\n// +webop:scaffold:modules\n";
        assert_eq!(
            insert(rust, "modules", &lines(&["pub mod b;"])).unwrap(),
            rust
        );
    }

    #[test]
    fn keeps_the_marker_indentation() {
        let text = "spec:\n  items:\n  # +webop:scaffold:x\n";
        assert_eq!(
            insert(text, "x", &lines(&["- y"])).unwrap(),
            "spec:\n  items:\n  - y\n  # +webop:scaffold:x\n"
        );
    }

    #[test]
    fn a_missing_marker_is_none() {
        assert_eq!(
            insert(
                "resources:\n",
                "crdkustomizeresource",
                &lines(&["- b.yaml"])
            ),
            None
        );
        // The marker must be the whole comment, not part of another word.
        assert_eq!(
            insert(
                "# +webop:scaffold:crdkustomizeresources\n",
                "crdkustomizeresource",
                &[]
            ),
            None
        );
    }
}

//! `+webop:scaffold:<name>` insertion points: how `create api` extends a user-owned file without
//! owning it.

use std::cmp::Ordering;

/// The text of a marker line, after its comment sign: `+webop:scaffold:<name>`.
pub fn marker(name: &str) -> String {
    format!("+webop:scaffold:{name}")
}

/// `contents` with each of `lines` inserted above the marker line `name`, with the marker's
/// indentation, unless the file already has that line, or has it commented out (so inserting
/// twice changes nothing, and a line the user commented out stays out). `None` when the file
/// has no such marker.
pub fn insert(contents: &str, name: &str, lines: &[String]) -> Option<String> {
    insert_in_order(contents, name, lines, Order::Append)
}

/// Where inserted lines go among the lines above a marker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// Right above the marker, after the lines already there.
    Append,
    /// Among the run of lines right above the marker, in rustfmt's order (`mod` and `use`
    /// items, which `cargo fmt` would otherwise reorder).
    Sorted,
}

/// [`insert`], with the lines placed by `order`.
pub fn insert_in_order(
    contents: &str,
    name: &str,
    lines: &[String],
    order: Order,
) -> Option<String> {
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
    // Each new line goes before the line it lands at: the marker, or (sorted) the first line of
    // the run above the marker that sorts after it.
    let run_start = existing[..at]
        .iter()
        .rposition(|line| line.trim().is_empty() || uncommented(line).is_some())
        .map_or(0, |i| i + 1);
    let mut before: Vec<Vec<&String>> = vec![Vec::new(); existing.len() + 1];
    for new in &missing {
        let lands = match order {
            Order::Append => at,
            Order::Sorted => (run_start..at)
                .find(|&i| rustfmt_order(existing[i].trim(), new.trim()) == Ordering::Greater)
                .unwrap_or(at),
        };
        before[lands].push(new);
    }
    for group in &mut before {
        if order == Order::Sorted {
            group.sort_by(|a, b| rustfmt_order(a.trim(), b.trim()));
        }
    }
    let mut out =
        String::with_capacity(contents.len() + missing.iter().map(|l| l.len() + 1).sum::<usize>());
    for (i, line) in contents.split_inclusive('\n').enumerate() {
        for new in &before[i] {
            out.push_str(new);
            out.push('\n');
        }
        out.push_str(line);
    }
    Some(out)
}

/// `contents` with `block` (several lines) inserted above the marker line `name`, unless the
/// file already has the block, enabled or commented out. `None` when the file has no such marker.
/// Unlike [`insert`], which skips each line the file has, a block goes in whole: its lines
/// (`}`, `fieldPaths:`) may well appear elsewhere.
pub fn insert_block(contents: &str, name: &str, block: &str) -> Option<String> {
    let marker = marker(name);
    let at = contents.lines().position(|line| {
        let text = line.trim();
        ["# ", "// "]
            .iter()
            .any(|comment| text.strip_prefix(comment) == Some(marker.as_str()))
    })?;
    let block = block.trim_end_matches('\n');
    if contains_block(contents, block) || contains_block(contents, &commented_block(block, "#")) {
        return Some(contents.to_owned());
    }
    let mut out = String::with_capacity(contents.len() + block.len() + 1);
    for (i, line) in contents.split_inclusive('\n').enumerate() {
        if i == at {
            out.push_str(block);
            out.push('\n');
        }
        out.push_str(line);
    }
    Some(out)
}

/// `contents` with the commented-out `block` (each of its lines behind `comment`, as
/// kubebuilder's `UncommentCode` reads it) enabled; unchanged when the block is already enabled.
/// `None` when the file has neither.
pub fn uncomment_block(contents: &str, block: &str, comment: &str) -> Option<String> {
    let block = block.trim_end_matches('\n');
    let commented = commented_block(block, comment);
    match find_block(contents, &commented) {
        Some(at) => Some(format!(
            "{}{block}{}",
            &contents[..at],
            &contents[at + commented.len()..]
        )),
        None => contains_block(contents, block).then(|| contents.to_owned()),
    }
}

/// `contents` with the first `old` replaced by `new`, unless `new` is there already. `None`
/// when the file has neither.
pub fn replace_once(contents: &str, old: &str, new: &str) -> Option<String> {
    if contents.contains(new) {
        return Some(contents.to_owned());
    }
    contents
        .contains(old)
        .then(|| contents.replacen(old, new, 1))
}

fn commented_block(block: &str, comment: &str) -> String {
    block
        .lines()
        .map(|line| format!("{comment}{line}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The byte offset of `block` in `contents` as whole lines.
fn find_block(contents: &str, block: &str) -> Option<usize> {
    let mut from = 0;
    while let Some(found) = contents[from..].find(block) {
        let at = from + found;
        let end = at + block.len();
        let starts_line = at == 0 || contents.as_bytes()[at - 1] == b'\n';
        let ends_line = end == contents.len() || contents.as_bytes()[end] == b'\n';
        if starts_line && ends_line {
            return Some(at);
        }
        from = at + 1;
    }
    None
}

fn contains_block(contents: &str, block: &str) -> bool {
    find_block(contents, block).is_some()
}

/// `contents` without the first line whose text is each of `lines` (what `insert` added): the
/// inverse of `insert` for lines that are there, uncommented.
pub fn remove(contents: &str, lines: &[String]) -> String {
    let mut wanted: Vec<&str> = lines.iter().map(|line| line.trim()).collect();
    let mut out = String::with_capacity(contents.len());
    for line in contents.split_inclusive('\n') {
        match wanted.iter().position(|w| *w == line.trim()) {
            Some(i) => {
                wanted.swap_remove(i);
            }
            None => out.push_str(line),
        }
    }
    out
}

/// rustfmt's (style edition 2024) order of items: digit runs compare as numbers, so `v2`
/// sorts before `v10`.
pub fn rustfmt_order(a: &str, b: &str) -> Ordering {
    fn chunks(s: &str) -> Vec<(bool, &str)> {
        let mut out = Vec::new();
        let mut start = 0;
        for (i, c) in s.char_indices().skip(1) {
            let prev = s[..i].chars().last().is_some_and(|p| p.is_ascii_digit());
            if prev != c.is_ascii_digit() {
                out.push((prev, &s[start..i]));
                start = i;
            }
        }
        if !s.is_empty() {
            out.push((
                s[start..].starts_with(|c: char| c.is_ascii_digit()),
                &s[start..],
            ));
        }
        out
    }
    for (x, y) in chunks(a).into_iter().zip(chunks(b)) {
        let order = match (x, y) {
            ((true, x), (true, y)) => x
                .parse::<u128>()
                .unwrap_or(u128::MAX)
                .cmp(&y.parse::<u128>().unwrap_or(u128::MAX)),
            ((_, x), (_, y)) => x.cmp(y),
        };
        if order != Ordering::Equal {
            return order;
        }
    }
    a.len().cmp(&b.len()).then_with(|| a.cmp(b))
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
    fn sorted_lines_land_where_rustfmt_would_put_them() {
        let text = "pub mod v1;\npub mod v2;\npub mod v10;\n// +webop:scaffold:apiversions\n";
        let out = insert_in_order(
            text,
            "apiversions",
            &lines(&["pub mod v1beta1;", "pub mod v11;", "pub mod v3;"]),
            Order::Sorted,
        )
        .unwrap();
        assert_eq!(
            out,
            "pub mod v1;\npub mod v1beta1;\npub mod v2;\npub mod v3;\npub mod v10;\npub mod v11;\n// +webop:scaffold:apiversions\n"
        );
        // Only the run right above the marker counts.
        let text = "mod z;\n\nmod b_types;\n// +webop:scaffold:kindmodules\n";
        let out = insert_in_order(
            text,
            "kindmodules",
            &lines(&["mod a_types;"]),
            Order::Sorted,
        )
        .unwrap();
        assert_eq!(
            out,
            "mod z;\n\nmod a_types;\nmod b_types;\n// +webop:scaffold:kindmodules\n"
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

    #[test]
    fn blocks_go_in_whole_once() {
        let text = "a:\n  x: 1\n# +webop:scaffold:m\n";
        let once = insert_block(text, "m", "b:\n  x: 1").unwrap();
        assert_eq!(once, "a:\n  x: 1\nb:\n  x: 1\n# +webop:scaffold:m\n");
        assert_eq!(insert_block(&once, "m", "b:\n  x: 1").unwrap(), once);
        let commented = "#b:\n#  x: 1\n# +webop:scaffold:m\n";
        assert_eq!(
            insert_block(commented, "m", "b:\n  x: 1").unwrap(),
            commented
        );
        assert_eq!(insert_block("a\n", "m", "b"), None);
    }

    #[test]
    fn uncommenting_drops_the_comment_sign_of_each_line() {
        let text = "r:\n#- ../webhook\n#- ../webhookx\n";
        assert_eq!(
            uncomment_block(text, "- ../webhook", "#").unwrap(),
            "r:\n- ../webhook\n#- ../webhookx\n"
        );
        let enabled = "r:\n- ../webhook\n";
        assert_eq!(
            uncomment_block(enabled, "- ../webhook", "#").unwrap(),
            enabled
        );
        // Only whole lines count.
        assert_eq!(
            uncomment_block("#- ../webhookx\n", "- ../webhook", "#"),
            None
        );
        let block = " - a:\n     b: 1";
        assert_eq!(
            uncomment_block("x\n# - a:\n#     b: 1\ny\n", block, "#").unwrap(),
            "x\n - a:\n     b: 1\ny\n"
        );
    }

    #[test]
    fn replacing_once() {
        assert_eq!(replace_once("a b a", "a", "c").unwrap(), "c b a");
        assert_eq!(replace_once("a c", "a", "c").unwrap(), "a c");
        assert_eq!(replace_once("b", "a", "c"), None);
    }

    #[test]
    fn removing_takes_out_each_line_once_and_leaves_commented_ones() {
        let text = "a\n  pub mod v1;\n// pub mod v2;\npub mod v2;\n// +webop:scaffold:x\n";
        let lines = ["pub mod v1;".to_owned(), "pub mod v2;".to_owned()];
        assert_eq!(
            remove(text, &lines),
            "a\n// pub mod v2;\n// +webop:scaffold:x\n"
        );
        assert_eq!(remove(text, &[]), text);
    }
}

//! The machine-local `.cargo/config.toml` that `webop init` writes when it knows the webop
//! source it was built from: a `[patch.crates-io]` entry for each crate of that source the
//! project names. It is in no lock (it is listed in `.gitignore`, and each machine has its own
//! path), so the merge never sees it; an upgrade adds the entries this webop's templates need,
//! next to the `webop` entry, and leaves the rest of the file as the user has it.

/// The file, from the project's root.
pub const FILE: &str = ".cargo/config.toml";

/// The crates of a webop source that generated projects name, with their directory in that
/// source: the operator depends on `webop`, its API crate on `webop-core`. The template
/// `templates/.cargo/config.toml` writes one entry for each (a test below keeps them in step).
pub const PATCHED_CRATES: &[(&str, &str)] = &[("webop", ""), ("webop-core", "core")];

/// `config` with an entry for each crate of [`PATCHED_CRATES`] it lacks, in the directory of
/// the source its `webop = { path = "..." }` entry names; `None` when it names no webop source
/// or lacks nothing.
pub fn add_missing_patches(config: &str) -> Option<String> {
    let lines: Vec<&str> = config.lines().collect();
    let (at, source) = lines
        .iter()
        .enumerate()
        .find_map(|(index, line)| webop_source(line).map(|source| (index, source)))?;
    let missing: Vec<String> = PATCHED_CRATES
        .iter()
        .filter(|(name, _)| !lines.iter().any(|line| entry_key(line) == Some(*name)))
        .map(|(name, dir)| format!("{name} = {{ path = \"{source}/{dir}\" }}"))
        .collect();
    if missing.is_empty() {
        return None;
    }
    let mut out: Vec<&str> = lines[..=at].to_vec();
    out.extend(missing.iter().map(String::as_str));
    out.extend(&lines[at + 1..]);
    let mut text = out.join("\n");
    if config.ends_with('\n') {
        text.push('\n');
    }
    Some(text)
}

/// The quoted path of a `webop = { path = "..." }` line, as written between the quotes (the
/// line `webop init` writes, and the one the Makefile's `vendor-webop` reads).
fn webop_source(line: &str) -> Option<&str> {
    line.trim()
        .strip_prefix("webop = { path = \"")?
        .strip_suffix("\" }")
}

/// The key of a `key = value` line.
fn entry_key(line: &str) -> Option<&str> {
    let (key, _) = line.split_once('=')?;
    Some(key.trim().trim_matches('"'))
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "# Machine-local\n[patch.crates-io]\nwebop = { path = \"/src/webop\" }\n";

    #[test]
    fn a_config_from_before_the_api_crate_used_webop_core_gets_its_entry() {
        assert_eq!(
            add_missing_patches(OLD).unwrap(),
            "# Machine-local\n[patch.crates-io]\nwebop = { path = \"/src/webop\" }\n\
             webop-core = { path = \"/src/webop/core\" }\n"
        );
    }

    #[test]
    fn the_users_own_settings_stay_and_a_complete_config_is_left_alone() {
        let config = format!("{OLD}\n[build]\njobs = 1\n");
        let upgraded = add_missing_patches(&config).unwrap();
        assert!(upgraded.ends_with("\n[build]\njobs = 1\n"), "{upgraded}");
        assert_eq!(add_missing_patches(&upgraded), None);
        assert_eq!(add_missing_patches("[build]\njobs = 1\n"), None);
    }

    #[test]
    fn the_template_patches_every_crate_in_the_list() {
        let template = include_str!("../../templates/.cargo/config.toml");
        for (name, _) in PATCHED_CRATES {
            assert!(
                template.lines().any(|line| entry_key(line) == Some(*name)),
                "templates/.cargo/config.toml has no entry for {name}"
            );
        }
    }
}

//! The machine-local `.cargo/config.toml` that `webop init` writes when it knows the webop
//! source it was built from: a `[patch.crates-io]` entry for each crate of that source the
//! project names. It is in no lock (it is listed in `.gitignore`, and each machine has its own
//! path), so the merge never sees it; an upgrade points the entries at the directories this
//! webop's source has them in, adds those its templates need next to the `webop` entry, and
//! leaves the rest of the file as the user has it.

/// The file, from the project's root.
pub const FILE: &str = ".cargo/config.toml";

/// The crates of a webop source that generated projects name, with their directory in that
/// source: the operator depends on `webop` (the runtime facade), its API crate on
/// `webop-core`. The template `templates/.cargo/config.toml` writes one entry for each (a test
/// below keeps them in step).
pub const PATCHED_CRATES: &[(&str, &str)] = &[("webop", "webop"), ("webop-core", "core")];

/// `config` with an entry for each crate of [`PATCHED_CRATES`], at its directory in the webop
/// source the config names; `None` when it names no webop source or is current.
///
/// The source's root is read from the entries: `webop-core` is always `<root>/core`. Without a
/// `webop-core` entry the config is older than it, from when `webop` was the source's root
/// package, so its `webop` path is the root.
pub fn upgrade_patches(config: &str) -> Option<String> {
    let mut lines: Vec<String> = config.lines().map(str::to_owned).collect();
    let webop_at = lines
        .iter()
        .position(|line| patch_path(line, "webop").is_some())?;
    let root = match lines.iter().find_map(|line| patch_path(line, "webop-core")) {
        Some(core) => core.strip_suffix("/core")?.to_owned(),
        None => patch_path(&lines[webop_at], "webop")?.to_owned(),
    };
    let mut inserted = 0;
    for (name, dir) in PATCHED_CRATES {
        let entry = format!("{name} = {{ path = \"{root}/{dir}\" }}");
        match lines.iter().position(|line| entry_key(line) == Some(*name)) {
            Some(at) if patch_path(&lines[at], name).is_some() => lines[at] = entry,
            Some(_) => {} // the user's own form of the entry
            None => {
                inserted += 1;
                lines.insert(webop_at + inserted, entry);
            }
        }
    }
    let mut text = lines.join("\n");
    if config.ends_with('\n') {
        text.push('\n');
    }
    (text != config).then_some(text)
}

/// The quoted path of a `<name> = { path = "..." }` line, as written between the quotes (the
/// form `webop init` writes, and the one the Makefile's `vendor-webop` reads).
fn patch_path<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    line.trim()
        .strip_prefix(name)?
        .trim_start()
        .strip_prefix("= { path = \"")?
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

    const CURRENT: &str = "# Machine-local\n[patch.crates-io]\n\
                           webop = { path = \"/src/webop/webop\" }\n\
                           webop-core = { path = \"/src/webop/core\" }\n";

    #[test]
    fn a_config_from_before_the_api_crate_used_webop_core_gets_every_entry() {
        let old = "# Machine-local\n[patch.crates-io]\nwebop = { path = \"/src/webop\" }\n";
        assert_eq!(upgrade_patches(old).unwrap(), CURRENT);
    }

    #[test]
    fn a_config_from_when_webop_was_the_roots_package_points_at_the_facade() {
        let old = "# Machine-local\n[patch.crates-io]\nwebop = { path = \"/src/webop\" }\n\
                   webop-core = { path = \"/src/webop/core\" }\n";
        assert_eq!(upgrade_patches(old).unwrap(), CURRENT);
    }

    #[test]
    fn the_users_own_settings_stay_and_a_current_config_is_left_alone() {
        let config = "[patch.crates-io]\nwebop = { path = \"/src/webop\" }\n\n[build]\njobs = 1\n";
        let upgraded = upgrade_patches(config).unwrap();
        assert!(upgraded.ends_with("\n\n[build]\njobs = 1\n"), "{upgraded}");
        assert_eq!(upgrade_patches(&upgraded), None);
        assert_eq!(upgrade_patches(CURRENT), None);
        assert_eq!(upgrade_patches("[build]\njobs = 1\n"), None);
    }

    #[test]
    fn the_template_patches_every_crate_in_the_list_at_its_directory() {
        let template = include_str!("../../templates/.cargo/config.toml");
        for (name, dir) in PATCHED_CRATES {
            assert!(
                template.lines().any(|line| entry_key(line) == Some(*name)),
                "templates/.cargo/config.toml has no entry for {name}"
            );
            assert!(template.contains(&format!("\"/{dir}\"")), "{template}");
        }
    }
}

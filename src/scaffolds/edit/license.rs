//! `edit --license`/`--owner`: the lines `init --license apache2 --owner ...` wrote, added to or
//! taken out of the user's files in place (the root and API `Cargo.toml`, the README's License
//! section), so that the rest of those files, which users change, is kept as it is.

use std::path::Path;

use crate::project::Project;
use crate::scaffold::context::{InitOptions, ProjectVars, Scoped};
use crate::scaffold::{Conflict, Error, FileSystem, Templates};

/// The license line of the root `[workspace.package]`.
const WORKSPACE_LICENSE: &str = "license = \"Apache-2.0\"";
/// The license line of each package.
const PACKAGE_LICENSE: &str = "license.workspace = true";

/// Why the license could not be changed in a file. Nothing has been written.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error(
        "{path} declares {line:?}, not the license webop writes; change it by hand (or remove the \
         line) and run the command again"
    )]
    OtherLicense { path: String, line: String },
    #[error(
        "{path} has no `{anchor}` line, after which webop writes `{line}`; add `{line}` by hand"
    )]
    NoAnchor {
        path: String,
        anchor: String,
        line: String,
    },
    #[error(
        "{path}: its License section differs from the one webop wrote; refusing to rewrite it \
         (change it by hand, or pass --force to replace it)"
    )]
    EditedSection { path: String },
}

impl From<Refused> for Error {
    fn from(refused: Refused) -> Self {
        Error::Refused(Box::new(refused))
    }
}

/// The license of `cargo_toml` (the root manifest): Apache-2.0 when it has webop's line.
pub fn is_apache2(cargo_toml: &str) -> bool {
    cargo_toml.lines().any(|l| l.trim() == WORKSPACE_LICENSE)
}

/// The owner named in `readme`'s License section, if it has webop's.
pub fn owner(readme: &str) -> Option<&str> {
    let section = &readme[section_start(readme)?..];
    section
        .lines()
        .find_map(|l| l.strip_prefix("Copyright ")?.strip_suffix('.'))
}

/// `manifest` (at `path`) with webop's license lines (`apache2`) or without them.
pub fn cargo_toml(path: &str, manifest: &str, apache2: bool) -> Result<String, Refused> {
    let other = manifest.lines().find(|l| {
        let l = l.trim();
        (l.starts_with("license ") || l.starts_with("license=") || l.starts_with("license."))
            && l != WORKSPACE_LICENSE
            && l != PACKAGE_LICENSE
    });
    if let Some(line) = other {
        return Err(Refused::OtherLicense {
            path: path.into(),
            line: line.trim().into(),
        });
    }
    let mut out: Vec<&str> = Vec::new();
    let mut wanted = 0;
    let mut inserted = 0;
    for line in manifest.lines() {
        let trimmed = line.trim();
        if trimmed == WORKSPACE_LICENSE || trimmed == PACKAGE_LICENSE {
            continue;
        }
        out.push(line);
        let license = match trimmed {
            "edition = \"2024\"" => Some(WORKSPACE_LICENSE),
            "edition.workspace = true" => Some(PACKAGE_LICENSE),
            _ => None,
        };
        if let Some(license) = license {
            wanted += 1;
            if apache2 {
                out.push(license);
                inserted += 1;
            }
        }
    }
    if apache2 && wanted == 0 {
        return Err(Refused::NoAnchor {
            path: path.into(),
            anchor: "edition.workspace = true".into(),
            line: PACKAGE_LICENSE.into(),
        });
    }
    debug_assert_eq!(inserted, if apache2 { wanted } else { 0 });
    let mut text = out.join("\n");
    if manifest.ends_with('\n') {
        text.push('\n');
    }
    Ok(text)
}

/// `readme` (at `path`) with the License section `section` in place of `written`, the one webop
/// wrote for the license and owner as they were (both from [`split_section`] of the template's
/// renders). A section that differs from `written` is kept unless `force`.
pub fn readme(
    path: &str,
    readme: &str,
    written: &str,
    section: &str,
    force: bool,
) -> Result<String, Refused> {
    let (body, current) = split_section(readme);
    if current != written && !force {
        return Err(Refused::EditedSection { path: path.into() });
    }
    Ok(format!("{body}{section}"))
}

/// A README as its body and its License section, from the blank line before `## License` to the
/// end; without one, the section is the final newlines.
pub fn split_section(readme: &str) -> (&str, &str) {
    match section_start(readme) {
        Some(start) => readme.split_at(start),
        None => readme.split_at(readme.trim_end_matches('\n').len()),
    }
}

fn section_start(readme: &str) -> Option<usize> {
    readme.find("\n\n## License\n")
}

/// The license of a project: `Some(owner)` for Apache-2.0 with that copyright holder, `None` for
/// none (as `init --license --owner` wrote it).
pub type Licensed = Option<String>;

/// The files `init` wrote for the license `before`, with the license `after` instead: the
/// license lines of the root and API `Cargo.toml`, the README's License section. Missing files
/// are left missing.
pub fn relicense(
    fs: &dyn FileSystem,
    templates: &Templates,
    root: &Path,
    project: &Project,
    before: &Licensed,
    after: &Licensed,
    force: bool,
) -> Result<Vec<(String, String)>, Error> {
    let read = |path: &str| -> Result<Option<String>, Error> {
        match fs.read(&root.join(path)) {
            Ok(bytes) => Ok(Some(String::from_utf8_lossy(&bytes).into_owned())),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(source) => Err(Conflict::Io {
                path: path.into(),
                source,
            }
            .into()),
        }
    };
    let mut out = Vec::new();
    for path in ["Cargo.toml", "api/Cargo.toml"] {
        if let Some(text) = read(path)? {
            let text = cargo_toml(path, &text, after.is_some())?;
            out.push((path.to_owned(), text));
        }
    }
    if let Some(text) = read("README.md")? {
        let render = |licensed: &Licensed| -> Result<String, Error> {
            let options = InitOptions {
                owner: licensed.clone().unwrap_or_default(),
                license: if licensed.is_some() {
                    "apache2"
                } else {
                    "none"
                }
                .to_owned(),
                webop_path: None,
            };
            let vars = ProjectVars::new(project, Some(&options));
            Ok(templates
                .render("README.md", &vars.context(&Scoped::Project))?
                .contents)
        };
        let (written, wanted) = (render(before)?, render(after)?);
        let written = split_section(&written).1;
        let wanted = split_section(&wanted).1;
        let text = readme("README.md", &text, written, wanted, force)?;
        out.push(("README.md".to_owned(), text));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ROOT: &str = "[workspace.package]\nversion = \"0.1.0\"\nedition = \"2024\"\nlicense = \"Apache-2.0\"\n\n[package]\nname = \"x\"\nedition.workspace = true\nlicense.workspace = true\n\n[dependencies]\nfoo = \"1\"\n";

    #[test]
    fn the_license_lines_go_and_come_back() {
        let none = cargo_toml("Cargo.toml", ROOT, false).unwrap();
        assert!(!none.contains("license"), "{none}");
        assert!(none.contains("foo = \"1\"\n"));
        assert!(!is_apache2(&none));
        assert_eq!(cargo_toml("Cargo.toml", &none, true).unwrap(), ROOT);
        assert_eq!(cargo_toml("Cargo.toml", ROOT, true).unwrap(), ROOT);
    }

    #[test]
    fn another_license_is_refused() {
        let mit = ROOT.replace("license = \"Apache-2.0\"", "license = \"MIT\"");
        let error = cargo_toml("Cargo.toml", &mit, false).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("declares \"license = \\\"MIT\\\"\""),
            "{error}"
        );
    }

    #[test]
    fn the_readme_section_is_replaced_only_as_written() {
        let written = "\n\n## License\n\nCopyright The x Authors.\n";
        let text = format!("# x\nours{written}");
        assert_eq!(owner(&text), Some("The x Authors"));
        let ours = "\n\n## License\n\nCopyright Acme.\n";
        assert_eq!(
            readme("README.md", &text, written, ours, false).unwrap(),
            format!("# x\nours{ours}")
        );
        let edited = text.replace("Authors.", "Authors.\nAnd more.");
        assert_eq!(
            readme("README.md", &edited, written, ours, false),
            Err(Refused::EditedSection {
                path: "README.md".into()
            })
        );
        assert!(readme("README.md", &edited, written, ours, true).is_ok());
        assert_eq!(
            readme("README.md", "# x\n", "\n", ours, false).unwrap(),
            format!("# x{ours}")
        );
        assert_eq!(split_section(&format!("# x{ours}")), ("# x", ours));
    }
}

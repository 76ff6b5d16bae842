//! `webop manifests` reads `#[rbac]` rules (and `#[webhook]`s) straight from source, as
//! controller-gen reads markers: every `*.rs` file under a directory is parsed with syn and its
//! attributes checked by `webop-attrs`.

use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use webop_attrs::rbac::{RbacAttr, rules_in_file};

use super::Rule;

/// Why the rules of a source tree could not be collected.
#[derive(Debug, thiserror::Error)]
pub enum ScanError {
    /// A directory or file could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Read { path: PathBuf, source: io::Error },
    /// Files that do not parse, or attributes that break a rule; all of them.
    #[error("{}", problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Invalid { problems: Vec<SourceProblem> },
}

/// One error at a place in a source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceProblem {
    pub path: PathBuf,
    /// 1-based.
    pub line: usize,
    /// 1-based, in characters.
    pub column: usize,
    pub message: String,
}

impl fmt::Display for SourceProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

/// The `#[rbac]` rules of every `*.rs` file under `dir`, files in sorted path order and rules
/// in source order. Errors name the file, line and column; all files are checked before
/// failing.
pub fn rules_in_dir(dir: &Path) -> Result<Vec<Rule>, ScanError> {
    rules_in_dirs(&[dir.to_owned()])
}

/// The `#[rbac]` rules of every `*.rs` file under any of `dirs` (each file once, however many
/// of the directories hold it), as [`rules_in_dir`].
pub fn rules_in_dirs(dirs: &[PathBuf]) -> Result<Vec<Rule>, ScanError> {
    let per_file = each_file(dirs, rules_in_file)?;
    Ok(per_file.iter().flatten().map(rule_of).collect())
}

/// What `find` finds in each `*.rs` file under any of `dirs`, files in sorted path order, each
/// once. Errors name the file, line and column; all files are checked before failing.
pub(crate) fn each_file<T>(
    dirs: &[PathBuf],
    find: impl Fn(&syn::File) -> syn::Result<T>,
) -> Result<Vec<T>, ScanError> {
    let mut files = Vec::new();
    for dir in dirs {
        collect_rust_files(dir, &mut files)?;
    }
    files.sort();
    files.dedup();

    let mut found = Vec::new();
    let mut problems = Vec::new();
    for path in files {
        let source = fs::read_to_string(&path).map_err(|source| ScanError::Read {
            path: path.clone(),
            source,
        })?;
        let file = match syn::parse_file(&source) {
            Ok(file) => file,
            Err(error) => {
                let mut problem = problem(&path, &error);
                problem.message = format!("not valid Rust: {}", problem.message);
                problems.push(problem);
                continue;
            }
        };
        match find(&file) {
            Ok(in_file) => found.push(in_file),
            Err(errors) => problems.extend(errors.into_iter().map(|error| problem(&path, &error))),
        }
    }
    if problems.is_empty() {
        Ok(found)
    } else {
        Err(ScanError::Invalid { problems })
    }
}

fn collect_rust_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), ScanError> {
    let read_error = |source| ScanError::Read {
        path: dir.to_owned(),
        source,
    };
    for entry in fs::read_dir(dir).map_err(read_error)? {
        let entry = entry.map_err(read_error)?;
        let path = entry.path();
        let file_type = entry.file_type().map_err(|source| ScanError::Read {
            path: path.clone(),
            source,
        })?;
        // Symlinked directories are not followed, so a link cycle cannot loop forever.
        if file_type.is_dir() {
            collect_rust_files(&path, files)?;
        } else if path.extension().is_some_and(|ext| ext == "rs") && path.is_file() {
            files.push(path);
        }
    }
    Ok(())
}

fn problem(path: &Path, error: &syn::Error) -> SourceProblem {
    let start = error.span().start();
    SourceProblem {
        path: path.to_owned(),
        line: start.line,
        column: start.column + 1,
        message: error.to_string(),
    }
}

fn rule_of(attr: &RbacAttr) -> Rule {
    Rule {
        groups: RbacAttr::values(&attr.groups),
        resources: RbacAttr::values(&attr.resources),
        resource_names: RbacAttr::values(&attr.resource_names),
        verbs: RbacAttr::values(&attr.verbs),
        urls: RbacAttr::values(&attr.urls),
        namespace: attr.namespace.as_ref().map(|v| v.value.clone()),
        role_name: attr.role_name.as_ref().map(|v| v.value.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(root: &Path, relative: &str, contents: &str) {
        let path = root.join(relative);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, contents).unwrap();
    }

    #[test]
    fn collects_rules_from_all_rust_files_in_path_order() {
        let dir = tempfile::tempdir().unwrap();
        write(
            dir.path(),
            "z.rs",
            r#"#[rbac(urls = ["/metrics"], verbs = ["get"])] fn z() {}"#,
        );
        write(
            dir.path(),
            "controller/webapp.rs",
            r#"
            use webop::prelude::*;
            #[rbac(groups = ["app.example.com"], resources = "webapps;webapps/status", verbs = ["get"])]
            #[rbac(groups = "core", resources = ["pods"], verbs = ["list"], namespace = "system", role_name = "r")]
            pub struct Reconciler;
            "#,
        );
        write(
            dir.path(),
            "a.rs",
            "mod x { #[webop::rbac(groups = [\"apps\"], resources = [\"deployments\"], verbs = \"watch\")] fn f() {} }",
        );
        write(dir.path(), "notes.txt", "#[rbac(this is not rust)]");

        let rules = rules_in_dir(dir.path()).unwrap();
        let verbs: Vec<&str> = rules.iter().map(|r| r.verbs[0].as_str()).collect();
        assert_eq!(verbs, ["watch", "get", "list", "get"]);
        assert_eq!(rules[1].resources, ["webapps", "webapps/status"]);
        assert_eq!(
            rules[2],
            Rule {
                groups: vec![String::new()],
                resources: vec!["pods".into()],
                verbs: vec!["list".into()],
                namespace: Some("system".into()),
                role_name: Some("r".into()),
                ..Rule::default()
            }
        );
        assert_eq!(rules[3].urls, ["/metrics"]);
    }

    #[test]
    fn errors_name_file_line_and_column() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "ok.rs", "fn main() {}\n");
        write(
            dir.path(),
            "bad.rs",
            "struct A;\n\n#[rbac(groups = [\"\"], resources = [\"pods\"], colour = [\"red\"])]\nstruct B;\n",
        );
        write(dir.path(), "broken.rs", "fn (\n");

        let error = rules_in_dir(dir.path()).unwrap_err();
        let ScanError::Invalid { problems } = &error else {
            panic!("{error}")
        };
        assert_eq!(problems.len(), 3, "{error}");
        let bad = dir.path().join("bad.rs");
        assert_eq!(
            (
                problems[0].path.clone(),
                problems[0].line,
                problems[0].column
            ),
            (bad.clone(), 3, 45)
        );
        assert!(problems[0].message.starts_with("unknown key `colour`"));
        assert_eq!((problems[1].path.clone(), problems[1].line), (bad, 3));
        assert!(problems[1].message.starts_with("#[rbac] needs `verbs`"));
        assert_eq!(problems[2].path, dir.path().join("broken.rs"));
        assert_eq!(problems[2].line, 1);
        assert!(
            problems[2].message.starts_with("not valid Rust: "),
            "{}",
            problems[2].message
        );
        let text = error.to_string();
        assert!(
            text.contains(&format!(
                "{}:3:45: unknown key `colour`",
                dir.path().join("bad.rs").display()
            )),
            "{text}"
        );
    }

    #[test]
    fn missing_directory_is_a_read_error() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("nope");
        let error = rules_in_dir(&missing).unwrap_err();
        assert!(
            matches!(&error, ScanError::Read { path, .. } if *path == missing),
            "{error}"
        );
        assert!(
            error
                .to_string()
                .starts_with(&format!("cannot read {}", missing.display()))
        );
    }
}

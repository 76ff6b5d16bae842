//! The command examples of the README, the docs and `--help` are commands webop takes: each one
//! parses, each help example is printed whole (not wrapped onto a line of its own), and each one
//! that needs no cluster, build or outside file runs, in a project prepared as its command needs
//! (`create webhook` after `create api`, ...). So the examples cannot drift from behaviour.

use crate::support;

use std::path::Path;

use clap::{CommandFactory, Parser};
use support::{ISSUER_CRD, project_dir, workspace};
use webop_cli::cli::Cli;

/// One example: where it is written, and the command line.
struct Example {
    source: String,
    line: String,
}

/// The words of the command `line`, split as a POSIX shell splits them (quotes, backslashes;
/// up to a comment or a redirection); `None` for a substitution, whose words are unknown.
fn shell_words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '"' {
                        break;
                    }
                    if c == '$' || c == '`' {
                        return None;
                    }
                    word.push(c);
                }
            }
            '\\' => {
                in_word = true;
                word.extend(chars.next());
            }
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            // A comment, or a redirection: the command's words end there.
            '#' if !in_word => break,
            '>' | '<' => break,
            '$' | '`' => return None,
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Some(words)
}

/// The `webop` commands of a shell line (`a && webop x; webop y | z`).
fn webop_commands(line: &str) -> Vec<String> {
    line.split("&&")
        .flat_map(|part| part.split(';'))
        .map(|part| part.split('|').next().unwrap_or_default().trim())
        .filter(|part| part.starts_with("webop "))
        .map(str::to_owned)
        .collect()
}

/// The examples of the shell blocks (```sh) of the README and docs/*.md.
fn doc_examples() -> Vec<Example> {
    let mut pages = vec![workspace().join("README.md")];
    let mut docs: Vec<_> = std::fs::read_dir(workspace().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    let mut out = Vec::new();
    for page in pages {
        let text = std::fs::read_to_string(&page).unwrap();
        let name = page
            .strip_prefix(workspace())
            .unwrap()
            .display()
            .to_string();
        let mut in_shell = false;
        let mut continued: Option<(usize, String)> = None;
        for (number, line) in text.lines().enumerate() {
            let fence = line.trim_start();
            if fence.starts_with("```") {
                in_shell = !in_shell && matches!(fence, "```sh" | "```bash" | "```console");
                continue;
            }
            if in_shell {
                let line = line.trim().trim_start_matches("$ ");
                // A line continued with `\` is one command with the lines after it.
                if let Some(head) = line.strip_suffix('\\') {
                    continued
                        .get_or_insert_with(|| (number, String::new()))
                        .1
                        .push_str(head);
                    continue;
                }
                let (first, mut whole) = continued.take().unwrap_or((number, String::new()));
                whole.push_str(line);
                for command in webop_commands(&whole) {
                    out.push(Example {
                        source: format!("{name}:{}", first + 1),
                        line: command,
                    });
                }
            }
        }
    }
    out
}

/// The examples of every command's `--help`, with the help as printed.
fn help_examples() -> Vec<(Example, String)> {
    fn walk(command: &mut clap::Command, path: &str, out: &mut Vec<(Example, String)>) {
        let help = command.render_long_help().to_string();
        if let Some(after) = command.get_after_help().map(|h| h.to_string()) {
            for line in after
                .lines()
                .map(str::trim)
                .filter(|l| l.starts_with("webop "))
            {
                for command in webop_commands(line) {
                    let example = Example {
                        source: format!("`{path} --help`"),
                        line: command,
                    };
                    out.push((example, help.clone()));
                }
            }
        }
        for sub in command.get_subcommands_mut() {
            let path = format!("{path} {}", sub.get_name());
            walk(sub, &path, out);
        }
    }
    let mut out = Vec::new();
    walk(&mut Cli::command().term_width(100), "webop", &mut out);
    out
}

/// Runs `webop args` in-process in `dir`.
fn webop(dir: &Path, args: &[String]) -> Result<String, String> {
    let mut out = Vec::new();
    let argv = std::iter::once("webop".to_owned()).chain(args.iter().cloned());
    webop_cli::cli::run(argv, dir, &mut out)
        .map(|()| String::from_utf8_lossy(&out).into_owned())
        .map_err(|e| format!("{e:#}"))
}

/// The project an example of `args`' command runs in; `None`: it is only parsed (it needs a
/// cluster, a build, or files of the reader's).
fn prepared(dir: &Path, args: &[String]) -> Option<()> {
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    let steps: &[&[&str]] = match words.as_slice() {
        ["init", ..] | ["version"] | ["completion", ..] => &[],
        ["create", "api", ..] | ["edit", ..] | ["upgrade", ..] => &[INIT],
        ["delete", "api", ..] => &[INIT, WEBAPP],
        // An external kind's webhook: its types from its CRD first, unless the example names
        // the module of its Rust type.
        ["create", "webhook", rest @ ..]
            if rest.contains(&"cert-manager") && !rest.contains(&"--external-api-path") =>
        {
            &[INIT, IMPORT_ISSUER]
        }
        ["create", "webhook", ..] => &[INIT, WEBAPP, WEBAPP_V2],
        ["delete", "webhook", ..] => &[INIT, WEBAPP, WEBHOOKS],
        _ => return None,
    };
    for step in steps {
        if *step == IMPORT_ISSUER {
            std::fs::write(dir.join(ISSUER_CRD_FILE), ISSUER_CRD).unwrap();
        }
        let step: Vec<String> = step.iter().map(|s| (*s).to_owned()).collect();
        webop(dir, &step).unwrap_or_else(|e| panic!("preparing {args:?}: {e}"));
    }
    // `--adopt` is for a project scaffolded before webop kept a lock.
    if words.starts_with(&["upgrade", "--adopt"]) {
        std::fs::remove_dir_all(dir.join(webop_cli::upgrade::lock::DIR)).unwrap();
    }
    Some(())
}

const INIT: &[&str] = &[
    "init",
    "--domain",
    "example.com",
    "--repo",
    "github.com/example/webapp-operator",
];
/// Where the examples' external kind, cert-manager's Issuer, has its CRD.
const ISSUER_CRD_FILE: &str = "cert-manager.io_issuers.yaml";
const IMPORT_ISSUER: &[&str] = &["import", "crd", "--external", ISSUER_CRD_FILE];
const WEBAPP: &[&str] = &[
    "create",
    "api",
    "--group",
    "app",
    "--version",
    "v1",
    "--kind",
    "WebApp",
];
const WEBAPP_V2: &[&str] = &[
    "create",
    "api",
    "--group",
    "app",
    "--version",
    "v2",
    "--kind",
    "WebApp",
    "--controller=false",
];
const WEBHOOKS: &[&str] = &[
    "create",
    "webhook",
    "--group",
    "app",
    "--version",
    "v1",
    "--kind",
    "WebApp",
    "--defaulting",
    "--programmatic-validation",
];

fn check(example: &Example, problems: &mut Vec<String>, ran: &mut usize) {
    let Some(words) = shell_words(&example.line) else {
        return;
    };
    if let Err(error) = Cli::try_parse_from(&words) {
        problems.push(format!(
            "{}: `{}` does not parse: {error}",
            example.source, example.line
        ));
        return;
    }
    let (_temp, dir) = project_dir();
    let args = words[1..].to_vec();
    if prepared(&dir, &args).is_none() {
        return;
    }
    *ran += 1;
    if let Err(error) = webop(&dir, &args) {
        problems.push(format!(
            "{}: `{}` fails: {error}",
            example.source, example.line
        ));
    }
}

#[test]
fn every_example_of_the_readme_the_docs_and_the_help_parses_and_runs() {
    let docs = doc_examples();
    let help = help_examples();
    assert!(
        docs.len() >= 10,
        "found only {} examples in the docs",
        docs.len()
    );
    assert!(
        help.len() >= 10,
        "found only {} examples in --help",
        help.len()
    );
    let mut problems = Vec::new();
    let mut ran = 0;
    for example in &docs {
        check(example, &mut problems, &mut ran);
    }
    for (example, printed) in &help {
        // Printed whole: clap wraps long lines, which would put a flag on a line of its own.
        if !printed.lines().any(|l| l.trim() == example.line) {
            problems.push(format!(
                "{}: `{}` is not printed on one line:\n{printed}",
                example.source, example.line
            ));
        }
        check(example, &mut problems, &mut ran);
    }
    println!(
        "{} examples in the docs, {} in --help; {ran} ran",
        docs.len(),
        help.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn shell_words_split_as_a_shell_does() {
    assert_eq!(
        shell_words("webop edit --owner 'Acme Corp' --x \"a b\" # note").unwrap(),
        ["webop", "edit", "--owner", "Acme Corp", "--x", "a b"]
    );
    assert_eq!(
        shell_words("webop completion bash > /etc/x").unwrap(),
        ["webop", "completion", "bash"]
    );
    assert!(shell_words("webop init --repo $REPO").is_none());
    assert_eq!(
        webop_commands("cd x && webop init && make build; webop version | head"),
        ["webop init", "webop version"]
    );
}

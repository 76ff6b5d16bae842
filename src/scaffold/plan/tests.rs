use super::*;
use crate::scaffold::fs::RealFs;
use crate::scaffold::markers;
use std::fs;
use std::path::Path;

fn planner(dir: &Path, force: bool) -> Planner<'static> {
    Planner::new(dir, &RealFs, force)
}

#[test]
fn user_owned_files_are_written_once() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("a"), "mine").unwrap();
    fs::write(dir.path().join("same"), "same").unwrap();
    let mut p = planner(dir.path(), false);
    p.user_owned("a", "theirs".into()).unwrap();
    p.user_owned("b", "new".into()).unwrap();
    p.user_owned("same", "same".into()).unwrap();
    let plan = p.finish().unwrap();
    assert_eq!(
        plan.report(),
        "skipped a (exists; --force to overwrite)\ncreated b\n"
    );
    assert_eq!(plan.changes["a"].contents, b"mine");

    let mut p = planner(dir.path(), true);
    p.user_owned("a", "theirs".into()).unwrap();
    assert_eq!(
        p.finish().unwrap().report(),
        "overwritten a (its content was yours: replaced because of --force)\n"
    );
}

#[test]
fn edited_tool_owned_files_are_refused_without_force() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("gen"), "edited").unwrap();
    let mut p = planner(dir.path(), false);
    let err = p.tool_owned("gen", "new".into(), Some("old")).unwrap_err();
    assert!(err.to_string().starts_with("gen was edited"), "{err}");

    let mut p = planner(dir.path(), false);
    p.tool_owned("gen", "new".into(), Some("edited")).unwrap();
    assert_eq!(p.finish().unwrap().report(), "updated gen\n");

    let mut p = planner(dir.path(), true);
    p.tool_owned("gen", "new".into(), Some("old")).unwrap();
    assert_eq!(
        p.finish().unwrap().report(),
        "overwritten gen (its content was yours: replaced because of --force)\n"
    );
}

#[test]
fn insertions_apply_to_planned_or_existing_contents() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("k.yaml"), "r:\n# +webop:scaffold:m\n").unwrap();
    let mut p = planner(dir.path(), false);
    p.insert("k.yaml", "m", &["- a".into()], markers::Order::Append)
        .unwrap();
    p.user_owned("new.yaml", "r:\n# +webop:scaffold:n\n".into())
        .unwrap();
    p.insert("new.yaml", "n", &["- b".into()], markers::Order::Append)
        .unwrap();
    let err = p
        .insert("none.yaml", "m", &[], markers::Order::Append)
        .unwrap_err();
    assert!(matches!(err, Conflict::MissingFile { .. }));
    let err = p
        .insert("new.yaml", "other", &[], markers::Order::Append)
        .unwrap_err();
    assert!(err.to_string().contains("+webop:scaffold:other"), "{err}");
    let plan = p.finish().unwrap();
    assert_eq!(plan.report(), "updated k.yaml\ncreated new.yaml\n");
    assert_eq!(
        plan.changes["k.yaml"].contents,
        b"r:\n- a\n# +webop:scaffold:m\n"
    );
    assert_eq!(
        plan.changes["new.yaml"].contents,
        b"r:\n- b\n# +webop:scaffold:n\n"
    );
}

#[test]
fn read_only_targets_are_refused() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ro");
    fs::write(&file, "x").unwrap();
    fs::set_permissions(&file, fs::Permissions::from_mode(0o444)).unwrap();
    let mut p = planner(dir.path(), true);
    p.user_owned("ro", "y".into()).unwrap();
    let err = p.finish().unwrap_err();
    assert_eq!(
        err.to_string(),
        "ro is read-only: refusing to write it (make it writable, or remove it)"
    );

    let sub = dir.path().join("sub");
    fs::create_dir(&sub).unwrap();
    fs::set_permissions(&sub, fs::Permissions::from_mode(0o555)).unwrap();
    let mut p = planner(dir.path(), false);
    p.user_owned("sub/deeper/new", "y".into()).unwrap();
    assert!(matches!(p.finish(), Err(Conflict::ReadOnly { path }) if path == "sub"));
}

#[test]
fn a_file_where_a_directory_goes_is_in_the_way() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("src"), "x").unwrap();
    let mut p = planner(dir.path(), true);
    p.user_owned("src/main.rs", "fn main() {}".into()).unwrap();
    assert!(matches!(p.finish(), Err(Conflict::InTheWay { path, .. }) if path == "src"));
}

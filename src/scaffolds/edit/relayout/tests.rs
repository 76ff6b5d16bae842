use super::paths::{replace_path, role_names};
use super::reads;

#[test]
fn paths_are_renamed_whole() {
    let text = "use x_api::v1 as appv1;\nuse x_api::v10;\nlet a = my_x_api::v1::A;\n\
                use x::controller::webapp_controller;\n";
    let text = replace_path(text, "x_api::v1", "x_api::app::v1");
    let text = replace_path(
        &text,
        "controller::webapp_controller",
        "controller::app::webapp_controller",
    );
    assert_eq!(
        text,
        "use x_api::app::v1 as appv1;\nuse x_api::v10;\nlet a = my_x_api::v1::A;\n\
         use x::controller::app::webapp_controller;\n"
    );
}

#[test]
fn role_names_take_the_group_and_give_it_back() {
    let single = "metadata:\n  name: frigate-editor-role\nrules: []\n";
    let multi = role_names(single, "frigate", "ship", true);
    assert_eq!(
        multi,
        "metadata:\n  name: ship-frigate-editor-role\nrules: []\n"
    );
    assert_eq!(role_names(&multi, "frigate", "ship", false), single);
}

#[test]
fn the_files_it_reads() {
    assert!(reads("api/src/v1/mod.rs"));
    assert!(reads("tests/webapp_controller.rs"));
    assert!(reads("config/rbac/kustomization.yaml"));
    assert!(!reads("config/manager/manager.yaml"));
    assert!(!reads("target/debug/build/x.rs"));
}

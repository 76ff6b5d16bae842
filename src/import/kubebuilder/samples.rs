//! The kubebuilder project's samples (`config/samples/<group>_<version>_<kind>.yaml`): they
//! replace the scaffold's, whose `foo: bar` spec fits the scaffold's placeholder type, not the
//! imported one; the webhook tests read them when `create webhook` runs, and the controller
//! test builds its object from the sample's spec.

use std::path::Path;

use serde_json::Value;

use super::Error;

/// A kind's sample of the Go project.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// `config/samples/<group>_<version>_<kind>.yaml`, relative to the project.
    pub path: String,
    /// The file as the Go project has it.
    pub text: String,
    /// Its `spec`, `{}` where the sample has none (kubebuilder's scaffold leaves `spec:` empty).
    pub spec: Value,
}

/// The sample of `group`/`version`/`kind` in the project at `root`, if it has one; a sample
/// that is not YAML or not an object is an error naming it.
pub fn read(root: &Path, group: &str, version: &str, kind: &str) -> Result<Option<Sample>, Error> {
    let path = format!(
        "config/samples/{group}_{version}_{}.yaml",
        kind.to_ascii_lowercase()
    );
    let Ok(text) = std::fs::read_to_string(root.join(&path)) else {
        return Ok(None);
    };
    let bad = |message: String| Error::Project {
        file: path.clone(),
        message,
    };
    let value: Value =
        serde_saphyr::from_str(&text).map_err(|err| bad(format!("not a sample: {err}")))?;
    let Value::Object(object) = value else {
        return Err(bad("not a sample: the document is no object".into()));
    };
    let (text, spec) = match object.get("spec") {
        Some(Value::Null) | None => (with_empty_spec(&text), Value::Object(Default::default())),
        Some(spec) => (text, spec.clone()),
    };
    Ok(Some(Sample { path, text, spec }))
}

/// A sample whose `spec` is empty (kubebuilder's `spec:` followed by a TODO comment, which YAML
/// reads as null) with `spec: {}`: the Rust kind's `spec` is an object, never null.
fn with_empty_spec(text: &str) -> String {
    let mut out = String::new();
    let mut found = false;
    for line in text.split_inclusive('\n') {
        if !found && line.trim_end() == "spec:" {
            out.push_str("spec: {}\n");
            found = true;
        } else {
            out.push_str(line);
        }
    }
    if !found {
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str("spec: {}\n");
    }
    out
}

/// The scaffold's controller test (`tests/<kind>_controller.rs`) with its placeholder spec
/// (`<Kind>Spec { foo: Some("bar".to_owned()) }`) replaced by the sample's spec, decoded into
/// the imported type (`{}` without a sample: a spec whose fields are all optional or
/// defaulted); the text as it was when it has no such placeholder.
pub fn controller_test(text: &str, sample: Option<&Sample>) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|l| {
        l.trim_start().starts_with("let spec = ") && l.trim_end().ends_with("Spec {")
    }) else {
        return text.to_owned();
    };
    let Some(length) = lines[start..].iter().position(|l| l.trim() == "};") else {
        return text.to_owned();
    };
    let indent = &lines[start][..lines[start].len() - lines[start].trim_start().len()];
    let ty = lines[start]
        .trim()
        .trim_start_matches("let spec = ")
        .trim_end_matches(" {");
    let kind = ty.rsplit("::").next().unwrap_or(ty);
    let empty = Value::Object(Default::default());
    let json = serde_json::to_string_pretty(sample.map_or(&empty, |s| &s.spec))
        .expect("JSON values serialize")
        .replace('\n', &format!("\n{indent}"));
    let mut out: Vec<String> = lines[..start].iter().map(|l| (*l).to_owned()).collect();
    out.push(match sample {
        Some(sample) => format!(
            "{indent}// The spec of the kubebuilder project's sample ({}).",
            sample.path
        ),
        None => format!("{indent}// The kubebuilder project has no sample of this kind."),
    });
    out.push(format!("{indent}let sample = serde_json::json!({json});"));
    // Laid out as rustfmt lays it out: on one line where it fits in 100 columns.
    let decode =
        format!("serde_json::from_value(sample).expect(\"the sample's spec is a {kind}\");");
    let one_line = format!("{indent}let spec: {ty} = {decode}");
    if one_line.len() <= 100 {
        out.push(one_line);
    } else {
        out.push(format!("{indent}let spec: {ty} ="));
        out.push(format!("{indent}    {decode}"));
    }
    out.extend(lines[start + length + 1..].iter().map(|l| (*l).to_owned()));
    let mut joined = out.join("\n");
    if text.ends_with('\n') {
        joined.push('\n');
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    const SCAFFOLD: &str = "    let controller = 1;\n\n    let spec = v1::CronJobSpec {\n        foo: Some(\"bar\".to_owned()),\n    };\n    let api = 2;\n";

    fn sample(spec: Value) -> Sample {
        Sample {
            path: "config/samples/batch_v1_cronjob.yaml".into(),
            text: String::new(),
            spec,
        }
    }

    #[test]
    fn the_placeholder_spec_becomes_the_sample_s() {
        let test = controller_test(
            SCAFFOLD,
            Some(&sample(serde_json::json!({"schedule": "*/1 * * * *"}))),
        );
        assert_eq!(
            test,
            "    let controller = 1;\n\n    \
             // The spec of the kubebuilder project's sample (config/samples/batch_v1_cronjob.yaml).\n    \
             let sample = serde_json::json!({\n    \
             \x20 \"schedule\": \"*/1 * * * *\"\n    \
             });\n    \
             let spec: v1::CronJobSpec =\n    \
             \x20   serde_json::from_value(sample).expect(\"the sample's spec is a CronJobSpec\");\n    \
             let api = 2;\n"
        );
    }

    #[test]
    fn a_test_without_the_placeholder_is_left_alone() {
        let text = "    let api = 2;\n";
        assert_eq!(controller_test(text, Some(&sample(Value::Null))), text);
    }

    #[test]
    fn an_empty_spec_of_a_sample_is_an_empty_object() {
        let temp = tempfile::tempdir().unwrap();
        let samples = temp.path().join("config/samples");
        std::fs::create_dir_all(&samples).unwrap();
        std::fs::write(
            samples.join("crew_v1_captain.yaml"),
            "kind: Captain\nmetadata:\n  name: captain-sample\nspec:\n  # TODO(user): Add fields here\n",
        )
        .unwrap();
        let captain = read(temp.path(), "crew", "v1", "Captain").unwrap().unwrap();
        assert_eq!(captain.spec, serde_json::json!({}));
        assert!(
            captain
                .text
                .ends_with("spec: {}\n  # TODO(user): Add fields here\n"),
            "{}",
            captain.text
        );
        assert_eq!(with_empty_spec("kind: A"), "kind: A\nspec: {}\n");
        assert_eq!(read(temp.path(), "crew", "v1", "Sailor").unwrap(), None);
        std::fs::write(samples.join("crew_v1_sailor.yaml"), "- a list\n").unwrap();
        let message = read(temp.path(), "crew", "v1", "Sailor")
            .unwrap_err()
            .to_string();
        assert!(message.contains("crew_v1_sailor.yaml"), "{message}");
    }
}

//! End-to-end cases for the emitter: our own inputs, expected outputs worked out from go-yaml
//! v2's rules (see the module docs of `yaml`).

use serde_json::json;

use super::{documents, to_string};

fn value_of(s: &str) -> String {
    to_string(&json!({ "k": s }))
}

#[test]
fn quoting_table() {
    let cases: &[(&str, &str)] = &[
        // Plain.
        ("hello", "k: hello\n"),
        ("hello world", "k: hello world\n"),
        ("a:b", "k: a:b\n"),
        ("https://example.com/x#y", "k: https://example.com/x#y\n"),
        ("-a", "k: -a\n"),
        ("v1", "k: v1\n"),
        ("1.2.3", "k: 1.2.3\n"),
        ("0x", "k: 0x\n"),
        ("nil", "k: nil\n"),
        ("é", "k: é\n"),
        ("a'b", "k: a'b\n"),
        ("a\"b", "k: a\"b\n"),
        ("<<", "k: <<\n"),
        // Would read back as another type: double-quoted.
        ("", "k: \"\"\n"),
        ("true", "k: \"true\"\n"),
        ("False", "k: \"False\"\n"),
        ("y", "k: \"y\"\n"),
        ("N", "k: \"N\"\n"),
        ("on", "k: \"on\"\n"),
        ("off", "k: \"off\"\n"),
        ("null", "k: \"null\"\n"),
        ("~", "k: \"~\"\n"),
        ("1", "k: \"1\"\n"),
        ("-1", "k: \"-1\"\n"),
        ("0755", "k: \"0755\"\n"),
        ("1.5", "k: \"1.5\"\n"),
        (".5", "k: \".5\"\n"),
        ("1e3", "k: \"1e3\"\n"),
        ("1_000", "k: \"1_000\"\n"),
        ("0x1F", "k: \"0x1F\"\n"),
        (".inf", "k: \".inf\"\n"),
        (".NaN", "k: \".NaN\"\n"),
        ("1:30", "k: \"1:30\"\n"),
        ("2006-01-02", "k: \"2006-01-02\"\n"),
        ("2006-01-02T15:04:05Z", "k: \"2006-01-02T15:04:05Z\"\n"),
        // Plain would be misread as syntax: single-quoted.
        ("- a", "k: '- a'\n"),
        ("-", "k: '-'\n"),
        ("a: b", "k: 'a: b'\n"),
        ("a:", "k: 'a:'\n"),
        ("a #b", "k: 'a #b'\n"),
        ("#a", "k: '#a'\n"),
        ("*", "k: '*'\n"),
        ("&a", "k: '&a'\n"),
        ("!a", "k: '!a'\n"),
        ("|", "k: '|'\n"),
        (">", "k: '>'\n"),
        ("%a", "k: '%a'\n"),
        ("@a", "k: '@a'\n"),
        ("`a", "k: '`a'\n"),
        ("[a]", "k: '[a]'\n"),
        ("{a}", "k: '{a}'\n"),
        (",a", "k: ',a'\n"),
        ("? a", "k: '? a'\n"),
        ("'a'", "k: '''a'''\n"),
        ("\"a\"", "k: '\"a\"'\n"),
        ("---", "k: '---'\n"),
        ("...x", "k: '...x'\n"),
        (" a", "k: ' a'\n"),
        ("a ", "k: 'a '\n"),
        (" ", "k: ' '\n"),
        ("*.example.com", "k: '*.example.com'\n"),
        // Unprintable characters: double-quoted with escapes.
        ("a\tb", "k: \"a\\tb\"\n"),
        ("a\rb", "k: \"a\\rb\"\n"),
        ("\u{7}\u{1b}\u{0}", "k: \"\\a\\e\\0\"\n"),
        ("a\u{7f}", "k: \"a\\x7F\"\n"),
        ("a\u{85}b", "k: \"a\\Nb\"\n"),
        ("a\u{fffe}", "k: \"a\\uFFFE\"\n"),
        ("smile 😀", "k: \"smile \\U0001F600\"\n"),
        ("\u{feff}ab", "k: \"\\uFEFF\\x61\\x62\"\n"),
        ("a\"\\\t", "k: \"a\\\"\\\\\\t\"\n"),
        // A printable line separator: single-quoted; libyaml counts it as a line break and
        // indents what follows, without writing a `\n`.
        ("a\u{2028}b", "k: 'a\u{2028}  b'\n"),
    ];
    for (input, expected) in cases {
        assert_eq!(value_of(input), *expected, "input {input:?}");
    }
}

#[test]
fn literal_blocks() {
    assert_eq!(value_of("a\nb"), "k: |-\n  a\n  b\n");
    assert_eq!(value_of("a\nb\n"), "k: |\n  a\n  b\n");
    assert_eq!(value_of("a\nb\n\n"), "k: |+\n  a\n  b\n\n");
    assert_eq!(value_of("\n"), "k: |2+\n\n");
    assert_eq!(value_of("a\n\nb"), "k: |-\n  a\n\n  b\n");
    // Leading space or break: explicit indentation indicator.
    assert_eq!(value_of("  a\nb"), "k: |2-\n    a\n  b\n");
    assert_eq!(value_of("\na"), "k: |2-\n\n  a\n");
    // Text that would be quoted on one line is fine in a block.
    assert_eq!(value_of("true\n- x: y"), "k: |-\n  true\n  - x: y\n");
    // Literal blocks are never folded.
    let long = format!("{}\nend", "word ".repeat(30).trim_end());
    assert_eq!(
        value_of(&long),
        format!("k: |-\n  {}\n  end\n", "word ".repeat(30).trim_end())
    );
    // Blocks that cannot hold the text fall back to double quotes.
    assert_eq!(value_of("a \nb"), "k: \"a \\nb\"\n");
    assert_eq!(value_of("a\nb "), "k: \"a\\nb \"\n");
    assert_eq!(value_of("a\n\tb"), "k: \"a\\n\\tb\"\n");
    // A break followed by a space may still be a block.
    assert_eq!(value_of("a\n b"), "k: |-\n  a\n   b\n");
}

#[test]
fn folding_of_long_plain_scalars() {
    let text = "This is a long description that goes on and on past the eighty column limit of the emitter for sure";
    let expected = "description: This is a long description that goes on and on past the eighty column\n  limit of the emitter for sure\n";
    assert_eq!(to_string(&json!({ "description": text })), expected);

    // The break comes at the first space after column 80, so a line may run past it.
    let word = "x".repeat(100);
    let expected = format!("k: {word} tail\n");
    assert_eq!(
        to_string(&json!({ "k": format!("{word} tail") })),
        expected.replacen(" tail", "\n  tail", 1)
    );

    // Exactly at column 80 no fold happens yet.
    let head = "y".repeat(77); // "k: " + 77 = 80 columns
    assert_eq!(value_of(&format!("{head} z")), format!("k: {head} z\n"));
    let head = "y".repeat(78); // 81 columns
    assert_eq!(value_of(&format!("{head} z")), format!("k: {head}\n  z\n"));

    // Continuation lines are indented relative to the key, also inside sequences.
    let nested = json!({ "a": { "b": [format!("{} tail", "w".repeat(80))] } });
    assert_eq!(
        to_string(&nested),
        format!("a:\n  b:\n  - {}\n    tail\n", "w".repeat(80))
    );

    // Runs of spaces are not folded at their first space.
    let spaced = format!("{}  z", "y".repeat(80));
    assert_eq!(value_of(&spaced), format!("k: {}  z\n", "y".repeat(80)));
}

#[test]
fn folding_of_quoted_scalars() {
    let head = "q".repeat(80);
    // Single-quoted (starts with an indicator).
    assert_eq!(
        value_of(&format!("*{head} tail")),
        format!("k: '*{head}\n  tail'\n")
    );
    // Double-quoted (unprintable character) folds too; a following space is escaped.
    assert_eq!(
        value_of(&format!("\t{head} tail")),
        format!("k: \"\\t{head}\n  tail\"\n")
    );
    assert_eq!(
        value_of(&format!("\t{head}  tail")),
        format!("k: \"\\t{head}\n  \\ tail\"\n")
    );
    // Keys are never folded.
    let key = format!("{} tail", "k".repeat(100));
    assert_eq!(to_string(&json!({ key.clone(): 1 })), format!("{key}: 1\n"));
}

#[test]
fn key_order_and_key_forms() {
    let value = json!({
        "type": "object",
        "x-kubernetes-preserve-unknown-fields": true,
        "description": "d",
        "properties": {},
        "v10": 1, "v2": 2, "v1": 3,
        "": "empty key",
        "true": "bool-like key",
        "a: b": "indicator key",
    });
    let expected = "\
\"\": empty key
'a: b': indicator key
description: d
properties: {}
\"true\": bool-like key
type: object
v1: 3
v2: 2
v10: 1
x-kubernetes-preserve-unknown-fields: true
";
    assert_eq!(to_string(&value), expected);

    // Multi-line and very long keys use the explicit `? key` form.
    assert_eq!(to_string(&json!({ "a\nb": 1 })), "? |-\n  a\n  b\n: 1\n");
    let long_key = "k".repeat(129);
    assert_eq!(
        to_string(&json!({ long_key.clone(): [1] })),
        format!("? {long_key}\n: - 1\n")
    );
    let key_128 = "k".repeat(128);
    assert_eq!(
        to_string(&json!({ key_128.clone(): 1 })),
        format!("{key_128}: 1\n")
    );
}

#[test]
fn nesting_and_indentation() {
    let value = json!({
        "spec": {
            "versions": [
                { "name": "v1", "served": true, "additionalPrinterColumns": [{ "jsonPath": ".spec.image", "name": "Image" }] },
                { "name": "v2", "served": false }
            ],
            "matrix": [[1, 2], [], [[3]]],
            "objects": [{}, { "a": {} }],
            "empty": [],
        }
    });
    let expected = "\
spec:
  empty: []
  matrix:
  - - 1
    - 2
  - []
  - - - 3
  objects:
  - {}
  - a: {}
  versions:
  - additionalPrinterColumns:
    - jsonPath: .spec.image
      name: Image
    name: v1
    served: true
  - name: v2
    served: false
";
    assert_eq!(to_string(&value), expected);
}

#[test]
fn scalars_and_collections_at_the_root() {
    assert_eq!(to_string(&json!(null)), "null\n");
    assert_eq!(to_string(&json!(true)), "true\n");
    assert_eq!(to_string(&json!(1.5)), "1.5\n");
    assert_eq!(to_string(&json!("x")), "x\n");
    assert_eq!(to_string(&json!("")), "\"\"\n");
    assert_eq!(to_string(&json!("a\nb")), "|-\n  a\n  b\n");
    assert_eq!(to_string(&json!({})), "{}\n");
    assert_eq!(to_string(&json!([])), "[]\n");
    assert_eq!(to_string(&json!(["a", { "b": null }])), "- a\n- b: null\n");
}

#[test]
fn numbers_and_other_scalars_in_context() {
    let value = json!({
        "maximum": 10.0, "minimum": -3, "multipleOf": 0.5, "tiny": 1e-7, "huge": 1e21,
        "big": 18446744073709551615u64, "flag": false, "none": null, "ratio": 1234567.5,
    });
    let expected = "\
big: 18446744073709551615
flag: false
huge: 1e+21
maximum: 10
minimum: -3
multipleOf: 0.5
none: null
ratio: 1.2345675e+06
tiny: 1e-07
";
    assert_eq!(to_string(&value), expected);
}

#[test]
fn documents_are_prefixed() {
    assert_eq!(
        documents(&[json!({ "a": 1 }), json!({ "b": [] })]),
        "---\na: 1\n---\nb: []\n"
    );
    assert_eq!(documents(&[]), "");
}

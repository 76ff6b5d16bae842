//! Names, strings and doc comments for generated cases: ordinary words, plus the strings that
//! test quoting (YAML's special scalars, punctuation, quotes, backslashes, tabs, non-ASCII) and
//! the doc lines controller-gen treats specially (`TODO`, `---`, code fences, blank lines, long
//! lines).

use super::model::Doc;
use super::rng::Rng;

/// Kinds, chosen to exercise flect's plurals (irregulars, `-y`, `-s`, `-x`, `-ch`, Latin).
#[rustfmt::skip]
pub const KINDS: [&str; 40] = [
    "Widget", "Policy", "Proxy", "Index", "Status", "Bus", "Child", "Person", "Datum", "Series",
    "Matrix", "Tax", "Batch", "Leaf", "Knife", "Hero", "Quiz", "Analysis", "Criterion", "Cactus",
    "Mouse", "Ox", "Tooth", "Foot", "Sheep", "Fish", "Alias", "Octopus", "Virus", "Address",
    "Gateway", "Database", "Echo", "Safe", "Wolf", "Day", "Key", "Entry", "Class", "Process",
];

/// Words of field names: lower camel case, never a CEL reserved word (some Rust keywords, which
/// the Rust writer escapes).
#[rustfmt::skip]
const FIELD_WORDS: [&str; 51] = [
    "image", "replicas", "port", "size", "mode", "level", "count", "name", "target", "source",
    "limit", "timeout", "label", "owner", "region", "zone", "tier", "phase", "weight", "policy",
    "backup", "retry", "window", "schedule", "secret", "bucket", "channel", "quota", "version",
    "path", "host", "protocol", "suffix", "prefix", "format", "scope", "reason", "message",
    "selector", "storage", "network", "volume", "profile", "rule", "action", "filter", "config",
    "value", "type", "ref", "async",
];

/// JSON names YAML must quote as keys, that no Go or Rust identifier spells, or that CEL reserves:
/// they reach the schema only through the JSON tag and serde's rename (and CEL never reads them
/// here).
#[rustfmt::skip]
pub const ODD_NAMES: [&str; 14] = [
    "on", "yes", "null", "true", "1", "a.b", "x-y", "_z", "with space", "@at", "#hash", "k:v",
    "namespace", "in",
];

/// Words of type names; none is a field word capitalized, so an embedded struct's Go field name
/// never clashes with a field.
#[rustfmt::skip]
const TYPE_WORDS: [&str; 32] = [
    "Kettle", "Lantern", "Magnet", "Endpoint", "Gauge", "Harbor", "Journal", "Ledger", "Meter",
    "Nozzle", "Orbit", "Paddle", "Quiver", "Relay", "Sensor", "Tunnel", "Valve", "Anchor",
    "Beacon", "Cradle", "Dial", "Engine", "Funnel", "Girder", "Hinge", "Lever", "Mirror",
    "Needle", "Piston", "Socket", "Spindle", "Turbine",
];

#[rustfmt::skip]
const PROSE: [&str; 40] = [
    "the", "a", "of", "is", "controls", "how", "many", "replicas", "run", "when", "set", "this",
    "field", "defaults", "to", "value", "and", "or", "not", "every", "object", "must", "be",
    "unique", "within", "cluster", "operator", "reconciles", "pods", "after", "restart", "as",
    "described", "in", "API", "conventions", "it", "may", "change", "later",
];

/// Strings that YAML or JSON writers must quote or escape with care (no line breaks: attribute
/// and marker strings are one line).
#[rustfmt::skip]
pub const TRICKY: [&str; 34] = [
    "yes", "no", "on", "off", "null", "~", "true", "1", "1.0", "0x1F", "1e3", "-", "a: b", "#x",
    "*a", "&a", "!a", "@a", "%a", "a,b", "a;b", "é", "a  b", " a", "b ", "{a}", "[a]", "0755",
    "say \"hi\"", "C:\\dir", "it's", "tab\there", "naïve — ok", "日本",
];

/// Doc lines that YAML must escape or that look like other things (no line starts with `+`,
/// which would be a Go marker).
#[rustfmt::skip]
const DOC_LINES: [&str; 12] = [
    "Quotes \"double\" and 'single'.", "A backslash \\ and C:\\path.", "A\ttab inside.",
    "Ends with a colon:", "key: value", "# not a heading", "| not a block", "> not folded",
    "Non-ASCII: naïve, café, 日本語.", "A very_long_identifier_without_any_spaces_that_goes_past_the_eighty_column_limit_of_yaml",
    "Trailing spaces   ", "`code` and *emphasis*",
];

/// A unique lower camel case field name, not among `taken`; sometimes (with `odd`) a name that
/// is no identifier.
pub fn field_name(rng: &mut Rng, taken: &[String], odd: bool) -> String {
    loop {
        let mut name = (*rng.pick(&FIELD_WORDS)).to_owned();
        if odd && rng.chance(4) {
            name = (*rng.pick(&ODD_NAMES)).to_owned();
        } else if rng.chance(50) {
            let second = rng.pick(&FIELD_WORDS);
            name.push_str(&second[..1].to_ascii_uppercase());
            name.push_str(&second[1..]);
        }
        if rng.chance(10) {
            name.push_str(&rng.range(2, 9).to_string());
        }
        if !taken.contains(&name) {
            return name;
        }
    }
}

/// Whether a JSON name is an identifier (Go, Rust and CEL can name it).
pub fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.chars().all(|c| c.is_ascii_alphanumeric())
        && !ODD_NAMES.contains(&name)
}

/// A unique type name, not among `taken`.
pub fn type_name(rng: &mut Rng, taken: &[String]) -> String {
    loop {
        let name = format!("{}{}", rng.pick(&TYPE_WORDS), rng.pick(&TYPE_WORDS));
        if !taken.contains(&name) {
            return name;
        }
    }
}

/// A few words of prose.
pub fn phrase(rng: &mut Rng, words: usize) -> String {
    let words: Vec<&str> = (0..words).map(|_| *rng.pick(&PROSE)).collect();
    words.join(" ")
}

/// A string value: a word, a tricky string, or a few words.
pub fn string_value(rng: &mut Rng) -> String {
    match rng.below(4) {
        0 => (*rng.pick(&TRICKY)).to_owned(),
        1 => phrase(rng, 2),
        _ => (*rng.pick(&FIELD_WORDS)).to_owned(),
    }
}

/// A one-line text (a title, a message, a description): prose or a tricky string.
pub fn text(rng: &mut Rng) -> String {
    match rng.below(3) {
        0 => (*rng.pick(&TRICKY)).to_owned(),
        _ => {
            let words = rng.range(2, 6) as usize;
            phrase(rng, words)
        }
    }
}

/// A doc comment: none, one line, or several lines with what controller-gen treats specially.
pub fn doc(rng: &mut Rng) -> Doc {
    match rng.below(10) {
        0 | 1 => Vec::new(),
        2..=5 => vec![sentence(rng)],
        _ => {
            let mut lines = Vec::new();
            for _ in 0..rng.range(2, 6) {
                lines.push(match rng.below(14) {
                    0 => String::new(),
                    1 => format!("TODO: {}", phrase(rng, 3)),
                    2 => "---".to_owned(),
                    3 => format!("- {}", phrase(rng, 3)),
                    4 => format!("  {}", phrase(rng, 3)),
                    5 => long_line(rng),
                    6 => format!("{}: {}", rng.pick(&FIELD_WORDS), rng.pick(&TRICKY)),
                    7 => "```".to_owned(),
                    8 | 9 => (*rng.pick(&DOC_LINES)).to_owned(),
                    _ => sentence(rng),
                });
            }
            if lines.iter().filter(|l| *l == "```").count() % 2 == 1 {
                lines.push("```".to_owned());
            }
            lines
        }
    }
}

fn sentence(rng: &mut Rng) -> String {
    let n = rng.range(3, 12) as usize;
    let mut s = phrase(rng, n);
    s[..1].make_ascii_uppercase();
    s.push('.');
    s
}

/// A line longer than the YAML emitter's 80 columns.
fn long_line(rng: &mut Rng) -> String {
    let n = rng.range(16, 30) as usize;
    phrase(rng, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_identifiers_unless_odd() {
        let mut rng = Rng::new(5);
        let mut taken = Vec::new();
        for _ in 0..40 {
            let name = field_name(&mut rng, &taken, false);
            assert!(is_identifier(&name), "{name}");
            assert!(!taken.contains(&name));
            taken.push(name);
        }
        assert!(!is_identifier("x-y") && !is_identifier("on") && !is_identifier("Image"));
    }

    #[test]
    fn strings_are_one_line_and_doc_lines_are_no_markers() {
        for s in TRICKY.iter().chain(&DOC_LINES) {
            assert!(!s.contains('\n'), "{s:?}");
        }
        assert!(DOC_LINES.iter().all(|l| !l.trim_start().starts_with('+')));
    }

    #[test]
    fn docs_close_their_code_fences() {
        let mut rng = Rng::new(9);
        for _ in 0..200 {
            let doc = doc(&mut rng);
            assert_eq!(doc.iter().filter(|l| *l == "```").count() % 2, 0);
            assert!(doc.iter().all(|l| !l.trim_start().starts_with('+')));
        }
    }
}

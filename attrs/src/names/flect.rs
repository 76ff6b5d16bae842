//! flect v1.0.3's `Pluralize`: split the word into parts, then look the last part up in the
//! dictionary and the ordered suffix rules.
//!
//! Matching is on the last part as written, so case matters: `TestQuota`'s last part `Quota`
//! misses the lower-case rule for `quota` and is found through the dictionary instead, while an
//! all-upper-case acronym part (`DNS`) only meets flect's one upper-case rule (`S` → `Ses`).
//! Character classes follow Go's `unicode` package exactly for ASCII; other characters are
//! classified with Rust's nearest equivalents.

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use super::flect_data::{ACRONYMS, DICTIONARY, SUFFIX_RULES};

/// One entry of flect's ordered plural rules: a suffix and its plural replacement; `None`
/// marks a suffix that is already plural and is kept as is.
struct SuffixRule {
    suffix: &'static str,
    replacement: Option<&'static str>,
}

struct Tables {
    singular_to_plural: HashMap<&'static str, &'static str>,
    plurals: HashSet<&'static str>,
    rules: Vec<SuffixRule>,
    acronyms: HashSet<&'static str>,
}

static TABLES: LazyLock<Tables> = LazyLock::new(|| {
    let mut singular_to_plural = HashMap::new();
    let mut plurals = HashSet::new();
    for word in DICTIONARY {
        singular_to_plural.insert(word.singular, word.plural);
        if !word.one_way {
            plurals.insert(word.plural);
            plurals.extend(word.alternative);
        }
    }
    // flect prepends each rule (its plural form first), dictionary words after the suffix
    // list: so the dictionary comes first, last word first, then the suffix list in order.
    let dictionary_rules = DICTIONARY
        .iter()
        .rev()
        .filter(|w| !w.exact)
        .map(|w| (w.singular, w.plural));
    let rules = dictionary_rules
        .chain(SUFFIX_RULES.iter().copied())
        .flat_map(|(singular, plural)| {
            [
                SuffixRule {
                    suffix: plural,
                    replacement: None,
                },
                SuffixRule {
                    suffix: singular,
                    replacement: Some(plural),
                },
            ]
        })
        .collect();
    Tables {
        singular_to_plural,
        plurals,
        rules,
        acronyms: ACRONYMS.iter().copied().collect(),
    }
});

/// flect's `Pluralize(word)`.
pub(super) fn pluralize(word: &str) -> String {
    let tables = &*TABLES;
    let parts = to_parts(word);
    let Some(last) = parts.last() else {
        return String::new();
    };
    if let Some(plural) = tables.singular_to_plural.get(word) {
        return (*plural).to_owned();
    }
    if tables.plurals.contains(word) {
        return word.to_owned();
    }
    let lower = last.to_lowercase();
    if tables.plurals.contains(lower.as_str()) {
        return word.to_owned();
    }
    if let Some(plural) = tables.singular_to_plural.get(lower.as_str()) {
        let plural = if *last == capitalize(last) {
            capitalize(plural)
        } else {
            (*plural).to_owned()
        };
        return replace_suffix(word, last, &plural);
    }
    if let Some(rule) = tables.rules.iter().find(|rule| last.ends_with(rule.suffix)) {
        let replaced = match rule.replacement {
            Some(replacement) => {
                format!("{}{replacement}", &last[..last.len() - rule.suffix.len()])
            }
            None => last.clone(),
        };
        return replace_suffix(word, last, &replaced);
    }
    if lower.ends_with('s') {
        return word.to_owned();
    }
    format!("{word}s")
}

/// flect's `Ident.ReplaceSuffix`: `old` is cut from the end of `word` only if it is there
/// (an upper-cased acronym part is not, so it is appended to: `dns` → `dnsDNSes`).
fn replace_suffix(word: &str, old: &str, new: &str) -> String {
    format!("{}{new}", word.strip_suffix(old).unwrap_or(word))
}

/// flect's `Capitalize`: the first character in title case (empty if the word has no parts).
fn capitalize(word: &str) -> String {
    if to_parts(word).is_empty() {
        return String::new();
    }
    let mut chars = word.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// flect's `toParts`: words split at separators, at lower→upper transitions and after
/// acronyms; a whole word that is an acronym stays one upper-case part.
fn to_parts(word: &str) -> Vec<String> {
    let acronyms = &TABLES.acronyms;
    let word = word.trim();
    if word.is_empty() {
        return Vec::new();
    }
    if acronyms.contains(word.to_uppercase().as_str()) {
        return vec![word.to_uppercase()];
    }
    let mut parts = Vec::new();
    let mut current = String::new();
    let mut previous = '\0';
    for c in word.chars() {
        let starts_part = is_separator(c)
            || (c.is_uppercase() && !previous.is_uppercase())
            || (c.is_uppercase() && acronyms.contains(current.to_uppercase().as_str()));
        if starts_part {
            push_part(&mut parts, &current);
            current = c.to_string();
        } else if c.is_alphabetic() || c.is_numeric() || is_go_punct(c) || c == '`' {
            current.push(c);
        } else {
            push_part(&mut parts, &current);
            current.clear();
        }
        previous = c;
    }
    push_part(&mut parts, &current);
    parts
}

/// flect's `xappend`: trims separators; acronyms are upper-cased; empty parts are dropped.
fn push_part(parts: &mut Vec<String>, part: &str) {
    let mut part = part.trim();
    for separator in SEPARATORS {
        part = part.trim_matches(separator);
    }
    let upper = part.to_uppercase();
    if TABLES.acronyms.contains(upper.as_str()) {
        parts.push(upper);
    } else if !part.is_empty() {
        parts.push(part.to_owned());
    }
}

const SEPARATORS: [char; 5] = ['_', ' ', ':', '-', '/'];

fn is_separator(c: char) -> bool {
    SEPARATORS.contains(&c) || c.is_whitespace()
}

/// Go's `unicode.IsPunct` (category P) for ASCII; `$+<=>^|~` are symbols, not punctuation.
fn is_go_punct(c: char) -> bool {
    c.is_ascii_punctuation() && !matches!(c, '$' | '+' | '<' | '=' | '>' | '^' | '`' | '|' | '~')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts() {
        assert_eq!(to_parts("TestQuota"), ["Test", "Quota"]);
        assert_eq!(to_parts("MyDNS"), ["My", "DNS"]);
        assert_eq!(to_parts("dns"), ["DNS"]);
        assert_eq!(to_parts("node_child"), ["node", "child"]);
        assert_eq!(to_parts("a-b c/d:e"), ["a", "b", "c", "d", "e"]);
        assert_eq!(to_parts("x$y"), ["x", "y"]);
        assert!(to_parts("  ").is_empty());
    }

    #[test]
    fn flect_examples() {
        for (singular, plural) in [
            ("Car", "Cars"),
            ("GoodBoy", "GoodBoys"),
            ("Axis", "Axes"),
            ("GoodChild", "GoodChildren"),
            ("node_child", "node_children"),
            ("SmartPerson", "SmartPeople"),
            ("funky jeans", "funky jeans"),
            ("SuperbOx", "SuperbOxen"),
            ("wild_ox", "wild_oxen"),
            ("sportsEquipment", "sportsEquipment"),
            ("ID", "IDs"),
            ("", ""),
        ] {
            assert_eq!(pluralize(singular), plural, "{singular}");
            assert_eq!(pluralize(plural), plural, "{plural} stays plural");
        }
    }

    #[test]
    fn capitalize_first_character() {
        assert_eq!(capitalize("quota"), "Quota");
        assert_eq!(capitalize("Quota"), "Quota");
        assert_eq!(capitalize("$"), "");
    }
}

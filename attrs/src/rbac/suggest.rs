//! "Did you mean": the valid key closest to a misspelt one.

use super::args::KEYS;

/// Spellings from controller-gen and Kubernetes (compared without case and `_`) and the key
/// they mean here.
const ALIASES: [(&str, &str); 4] = [
    ("apigroups", "groups"),
    ("nonresourceurls", "urls"),
    ("resourcenames", "resource_names"),
    ("rolename", "role_name"),
];

pub(super) fn closest_key(name: &str) -> Option<&'static str> {
    let normalize = |s: &str| s.to_ascii_lowercase().replace(['_', '-'], "");
    let wanted = normalize(name);
    let by_spelling = KEYS
        .iter()
        .map(|(n, _)| (*n, *n))
        .chain(ALIASES.iter().copied());
    if let Some((_, key)) = by_spelling
        .clone()
        .find(|(spelling, _)| normalize(spelling) == wanted)
    {
        return Some(key);
    }
    by_spelling
        .map(|(spelling, key)| (edit_distance(&normalize(spelling), &wanted), key))
        .filter(|(distance, key)| *distance <= (key.len() / 3).max(2))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, key)| key)
}

/// Levenshtein distance between two short ASCII-ish strings.
pub(super) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != *cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

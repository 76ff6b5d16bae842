//! "Did you mean": the known key closest to a misspelt one, for every attribute family.

/// The key of `known` that `name` most likely meant: the same key but for case, `_` and `-`
/// (`roleName`, `MAX_LENGTH`), one of the `aliases` (another tool's spelling and the key it
/// means here), or the closest within a few edits. Ties go to the key listed first.
pub fn closest<'k>(name: &str, known: &[&'k str], aliases: &[(&str, &'k str)]) -> Option<&'k str> {
    let wanted = normalize(name);
    let spellings = known
        .iter()
        .map(|key| (*key, *key))
        .chain(aliases.iter().copied());
    if let Some((_, key)) = spellings
        .clone()
        .find(|(spelling, _)| normalize(spelling) == wanted)
    {
        return Some(key);
    }
    spellings
        .map(|(spelling, key)| (edit_distance(&normalize(spelling), &wanted), key))
        .filter(|(distance, key)| *distance <= (key.len() / 3).max(2))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, key)| key)
}

fn normalize(name: &str) -> String {
    name.to_ascii_lowercase().replace(['_', '-'], "")
}

/// Levenshtein distance between two short strings.
pub fn edit_distance(a: &str, b: &str) -> usize {
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

#[cfg(test)]
mod tests {
    use super::*;

    const KEYS: [&str; 3] = ["max_length", "min_length", "role_name"];

    #[test]
    fn case_separators_aliases_and_typos() {
        assert_eq!(closest("maxLength", &KEYS, &[]), Some("max_length"));
        assert_eq!(closest("ROLE-NAME", &KEYS, &[]), Some("role_name"));
        assert_eq!(closest("maxLenght", &KEYS, &[]), Some("max_length"));
        assert_eq!(
            closest("roleRef", &KEYS, &[("roleref", "role_name")]),
            Some("role_name")
        );
        assert_eq!(closest("colour", &KEYS, &[]), None);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }
}

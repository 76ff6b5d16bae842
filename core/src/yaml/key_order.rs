//! The order yaml.v2 writes map keys in: `keyList.Less` from sorter.go, for string keys.
//!
//! Strings are compared rune by rune; at the first difference a letter sorts after a non-letter,
//! two letters compare by code point, and otherwise the runs of digits starting there compare as
//! numbers (`a2` < `a10`), then by run length, then by code point.
//!
//! Go's `unicode.IsLetter` is approximated by `char::is_alphabetic` outside ASCII (they differ
//! only on letter-like numbers and combining marks) and `unicode.IsDigit` by `char::is_numeric`
//! (which also admits other numeric categories); a digit's value is taken as yaml.v2 takes it,
//! `rune - '0'`. ASCII, which is what CRD keys are made of, is exact.

use std::cmp::Ordering;

/// yaml.v2's `keyList.Less` for two string keys.
pub(super) fn key_less(a: &str, b: &str) -> bool {
    if a.is_ascii() && b.is_ascii() {
        // Bytes are runes in ASCII: no need to decode.
        return runes_less(a.as_bytes(), b.as_bytes());
    }
    let ar: Vec<char> = a.chars().collect();
    let br: Vec<char> = b.chars().collect();
    runes_less(&ar, &br)
}

fn runes_less<R: Copy + Into<char>>(ar: &[R], br: &[R]) -> bool {
    let rune = |runes: &[R], i: usize| -> char { runes[i].into() };
    for i in 0..ar.len().min(br.len()) {
        let (a, b) = (rune(ar, i), rune(br, i));
        if a == b {
            continue;
        }
        let (a_letter, b_letter) = (a.is_alphabetic(), b.is_alphabetic());
        if a_letter && b_letter {
            return a < b;
        }
        if a_letter || b_letter {
            return b_letter;
        }
        let (mut an, mut bn): (i64, i64) = (0, 0);
        if a == '0' || b == '0' {
            // A zero inside a number that started earlier with a non-zero digit is significant.
            let mut earlier_digits = (0..i)
                .rev()
                .map(|j| rune(ar, j))
                .take_while(|c| is_digit(*c));
            if earlier_digits.any(|c| c != '0') {
                an = 1;
                bn = 1;
            }
        }
        let (an, ai) = digit_run(ar, i, an);
        let (bn, bi) = digit_run(br, i, bn);
        if an != bn {
            return an < bn;
        }
        if ai != bi {
            return ai < bi;
        }
        return a < b;
    }
    ar.len() < br.len()
}

/// Accumulates the digits starting at `from` onto `n` (with Go's wrapping int64 arithmetic);
/// returns the number and the index after the run.
fn digit_run<R: Copy + Into<char>>(runes: &[R], from: usize, mut n: i64) -> (i64, usize) {
    let mut end = from;
    while end < runes.len() && is_digit(runes[end].into()) {
        let digit = i64::from(u32::from(runes[end].into())) - i64::from(u32::from('0'));
        n = n.wrapping_mul(10).wrapping_add(digit);
        end += 1;
    }
    (n, end)
}

fn is_digit(c: char) -> bool {
    c.is_ascii_digit() || (!c.is_ascii() && c.is_numeric())
}

/// Sorts `keys` into yaml.v2's order.
///
/// `Less` is not transitive for every set of keys (`v1alpha2` < `v2` < `v10` < `v1alpha2`); for
/// such sets Go's result depends on its random map iteration order, so no output is "the" right
/// one. For all other sets any correct sort gives Go's order. Short lists use Go's own insertion
/// sort; longer ones a merge sort, which (unlike the standard library's sorts) never panics on a
/// comparison that is not a total order.
pub(super) fn sort_keys<T>(keys: &mut Vec<(&str, T)>) {
    const GO_INSERTION_SORT_MAX: usize = 12;
    if keys.len() <= GO_INSERTION_SORT_MAX {
        for i in 1..keys.len() {
            let mut j = i;
            while j > 0 && key_less(keys[j].0, keys[j - 1].0) {
                keys.swap(j, j - 1);
                j -= 1;
            }
        }
        return;
    }
    let items = std::mem::take(keys);
    *keys = merge_sort(items);
}

fn merge_sort<T>(mut items: Vec<(&str, T)>) -> Vec<(&str, T)> {
    if items.len() <= 1 {
        return items;
    }
    let right = items.split_off(items.len() / 2);
    let (left, right) = (merge_sort(items), merge_sort(right));
    let mut merged = Vec::with_capacity(left.len() + right.len());
    let (mut left, mut right) = (left.into_iter().peekable(), right.into_iter().peekable());
    while let (Some(l), Some(r)) = (left.peek(), right.peek()) {
        let next = if key_less(r.0, l.0) {
            right.next()
        } else {
            left.next()
        };
        merged.extend(next);
    }
    merged.extend(left);
    merged.extend(right);
    merged
}

/// `key_less` as an `Ordering`, for callers that need one.
pub fn compare_keys(a: &str, b: &str) -> Ordering {
    if key_less(a, b) {
        Ordering::Less
    } else if key_less(b, a) {
        Ordering::Greater
    } else {
        Ordering::Equal
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(keys: &[&'static str]) -> Vec<&'static str> {
        let mut items: Vec<(&str, ())> = keys.iter().map(|k| (*k, ())).collect();
        sort_keys(&mut items);
        items.into_iter().map(|(k, _)| k).collect()
    }

    #[test]
    fn plain_identifiers_sort_by_code_point() {
        assert_eq!(
            sorted(&[
                "type",
                "description",
                "apiVersion",
                "kind",
                "Zeta",
                "x-kubernetes-list-type",
                "items"
            ]),
            [
                "Zeta",
                "apiVersion",
                "description",
                "items",
                "kind",
                "type",
                "x-kubernetes-list-type"
            ]
        );
    }

    #[test]
    fn non_letters_sort_before_letters() {
        assert_eq!(
            sorted(&["ab", "a-", "a_", "a.", "a1"]),
            ["a-", "a.", "a_", "a1", "ab"]
        );
        assert_eq!(
            sorted(&["x-kubernetes-int-or-string", "xb"]),
            ["x-kubernetes-int-or-string", "xb"]
        );
    }

    #[test]
    fn embedded_numbers_compare_numerically() {
        assert_eq!(sorted(&["v10", "v2", "v1"]), ["v1", "v2", "v10"]);
        assert_eq!(
            sorted(&["v1beta1", "v1alpha2", "v1alpha10", "v1"]),
            ["v1", "v1alpha2", "v1alpha10", "v1beta1"]
        );
        // A digit sorts before a letter at the first difference.
        assert!(key_less("v10", "v1beta1"));
        // Equal numbers: the shorter digit run first.
        assert_eq!(sorted(&["a10b", "a9z", "a010"]), ["a9z", "a10b", "a010"]);
        assert_eq!(sorted(&["a1", "a01", "a001"]), ["a1", "a01", "a001"]);
        // After a non-zero digit, a zero continues the number: 10 > 9.
        assert_eq!(sorted(&["x10", "x19"]), ["x10", "x19"]);
        assert_eq!(sorted(&["x1-0", "x1-"]), ["x1-", "x1-0"]);
    }

    #[test]
    fn non_ascii_keys() {
        assert!(key_less("é1", "é2"));
        assert!(key_less("a-", "aé"));
        assert!(key_less("aé", "aü"));
        assert!(key_less("x٣", "xa"));
    }

    #[test]
    fn prefixes_sort_first() {
        assert_eq!(sorted(&["abc", "ab", "a", ""]), ["", "a", "ab", "abc"]);
    }

    #[test]
    fn long_lists_sort_like_short_ones() {
        let keys: Vec<String> = (0..40).rev().map(|n| format!("field{n}")).collect();
        let mut items: Vec<(&str, ())> = keys.iter().map(|k| (k.as_str(), ())).collect();
        sort_keys(&mut items);
        let expected: Vec<String> = (0..40).map(|n| format!("field{n}")).collect();
        assert_eq!(
            items
                .into_iter()
                .map(|(k, _)| k.to_string())
                .collect::<Vec<_>>(),
            expected
        );
        assert_eq!(compare_keys("b", "a"), Ordering::Greater);
        assert_eq!(compare_keys("a", "a"), Ordering::Equal);
    }
}

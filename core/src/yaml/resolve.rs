//! Would a string, written unquoted, read back as something else (bool, int, float, null,
//! timestamp)? go-yaml v2's `resolve` plus `isBase60Float`: the encoder double-quotes exactly the
//! strings for which this says yes.

use super::timestamp::is_go_yaml_timestamp;

/// True when `s` may be written as a plain scalar without changing its type on the way back in.
pub(super) fn plain_keeps_string_type(s: &str) -> bool {
    !resolves_to_non_string(s) && !is_base60_float(s)
}

/// The YAML 1.1 words go-yaml v2 maps to bool, null, or special floats.
const RESERVED_WORDS: &[&str] = &[
    "y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON", //
    "n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF", //
    "", "~", "null", "Null", "NULL", //
    ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf",
    "-.INF",
];

fn resolves_to_non_string(s: &str) -> bool {
    let Some(&first) = s.as_bytes().first() else {
        return true; // "" is null
    };
    // go-yaml only tries to resolve strings whose first byte hints at a non-string.
    match first {
        b'+' | b'-' | b'0'..=b'9' => {
            RESERVED_WORDS.contains(&s) || is_go_yaml_timestamp(s) || is_go_yaml_number(s)
        }
        b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~' => {
            RESERVED_WORDS.contains(&s)
        }
        b'.' => RESERVED_WORDS.contains(&s) || go_parse_float(s).is_some(),
        _ => false,
    }
}

/// The int / uint / float / binary attempts of `resolve` for strings starting with a sign or digit.
fn is_go_yaml_number(s: &str) -> bool {
    let plain: String = s.chars().filter(|&c| c != '_').collect();
    if go_parse_int(&plain, 0).is_some() || go_parse_uint(&plain, 0).is_some() {
        return true;
    }
    if is_yaml_style_float(&plain) && go_parse_float(&plain).is_some() {
        return true;
    }
    if let Some(digits) = plain.strip_prefix("0b") {
        return go_parse_int(digits, 2).is_some() || go_parse_uint(digits, 2).is_some();
    }
    if let Some(digits) = plain.strip_prefix("-0b") {
        return go_parse_int(&format!("-{digits}"), 2).is_some();
    }
    false
}

/// Go's `strconv.ParseUint(s, base, 64)` (base 0 detects `0b`, `0o`, `0x` and leading-zero octal).
pub(super) fn go_parse_uint(s: &str, base: u32) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let base_zero = base == 0;
    let (base, digits) = if base_zero {
        let b = s.as_bytes();
        if b[0] == b'0' {
            match b.get(1).map(|c| c | 0x20) {
                Some(b'b') if b.len() >= 3 => (2, &s[2..]),
                Some(b'o') if b.len() >= 3 => (8, &s[2..]),
                Some(b'x') if b.len() >= 3 => (16, &s[2..]),
                _ => (8, &s[1..]),
            }
        } else {
            (10, s)
        }
    } else {
        (base, s)
    };
    let mut n: u64 = 0;
    let mut underscores = false;
    for c in digits.bytes() {
        let d = match c {
            b'_' if base_zero => {
                underscores = true;
                continue;
            }
            b'0'..=b'9' => u32::from(c - b'0'),
            _ if c.is_ascii_alphabetic() => u32::from((c | 0x20) - b'a') + 10,
            _ => return None,
        };
        if d >= base {
            return None;
        }
        n = n.checked_mul(u64::from(base))?.checked_add(u64::from(d))?;
    }
    if underscores && !underscore_ok(s) {
        return None;
    }
    Some(n)
}

/// Go's `strconv.ParseInt(s, base, 64)`.
pub(super) fn go_parse_int(s: &str, base: u32) -> Option<i64> {
    let (negative, magnitude) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        Some(_) => (false, s),
        None => return None,
    };
    let un = go_parse_uint(magnitude, base)?;
    if negative {
        0i64.checked_sub_unsigned(un)
    } else {
        i64::try_from(un).ok()
    }
}

/// Go's `strconv.ParseFloat(s, 64)` for the decimal forms yaml can hand it (a sign, digits with
/// `_` separators and one `.`, an optional exponent); `None` for syntax errors and overflow.
fn go_parse_float(s: &str) -> Option<f64> {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let mut saw_digits = false;
    let mut saw_dot = false;
    let mut underscores = false;
    while i < b.len() {
        match b[i] {
            b'_' => underscores = true,
            b'.' if !saw_dot => saw_dot = true,
            b'0'..=b'9' => saw_digits = true,
            _ => break,
        }
        i += 1;
    }
    if !saw_digits {
        return None;
    }
    if i < b.len() && b[i] | 0x20 == b'e' {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            underscores |= b[i] == b'_';
            i += 1;
        }
    }
    if i != b.len() || (underscores && !underscore_ok(s)) {
        return None;
    }
    let cleaned: String = s.chars().filter(|&c| c != '_').collect();
    let value: f64 = cleaned.parse().ok()?;
    value.is_finite().then_some(value)
}

/// Go's `underscoreOK`: underscores only between digits (or after a base prefix).
fn underscore_ok(s: &str) -> bool {
    let mut b = s.as_bytes();
    if matches!(b.first(), Some(b'+' | b'-')) {
        b = &b[1..];
    }
    let mut saw = b'^';
    let mut hex = false;
    let mut i = 0;
    if b.len() >= 2 && b[0] == b'0' && matches!(b[1] | 0x20, b'b' | b'o' | b'x') {
        i = 2;
        saw = b'0';
        hex = b[1] | 0x20 == b'x';
    }
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_digit() || (hex && (c | 0x20).is_ascii_hexdigit()) {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
        i += 1;
    }
    saw != b'_'
}

/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
fn is_yaml_style_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    let digits_from = |i: usize| b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if b.get(i) == Some(&b'.') {
        let n = digits_from(i + 1);
        if n == 0 {
            return false;
        }
        i += 1 + n;
    } else {
        let n = digits_from(i);
        if n == 0 {
            return false;
        }
        i += n;
        if b.get(i) == Some(&b'.') {
            i += 1 + digits_from(i + 1);
        }
    }
    if matches!(b.get(i), Some(b'e' | b'E')) {
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let n = digits_from(i);
        if n == 0 {
            return false;
        }
        i += n;
    }
    i == b.len()
}

/// YAML 1.1 sexagesimal numbers (`1:30`), which go-yaml quotes for other parsers' sake:
/// `^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$`
fn is_base60_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = usize::from(matches!(b.first(), Some(b'+' | b'-')));
    if !b.get(i).is_some_and(u8::is_ascii_digit) {
        return false;
    }
    i += 1;
    while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
        i += 1;
    }
    let mut groups = 0;
    while b.get(i) == Some(&b':') {
        let first = b.get(i + 1).copied();
        let second = b.get(i + 2).copied();
        match (first, second) {
            (Some(b'0'..=b'5'), Some(b'0'..=b'9')) => i += 3,
            (Some(b'0'..=b'9'), _) => i += 2,
            _ => return false,
        }
        groups += 1;
    }
    if groups == 0 {
        return false;
    }
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(|c| c.is_ascii_digit() || *c == b'_') {
            i += 1;
        }
    }
    i == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserved_words_need_quotes() {
        for s in [
            "", "~", "null", "Null", "NULL", "y", "Y", "yes", "n", "NO", "on", "Off", "true",
            "False",
        ] {
            assert!(!plain_keeps_string_type(s), "{s:?}");
        }
        for s in [".inf", "-.Inf", "+.INF", ".nan", ".NaN"] {
            assert!(!plain_keeps_string_type(s), "{s:?}");
        }
        for s in [
            "nil", "none", "yES", "tRue", "nulls", "<<", "-.nan", "onion", "x",
        ] {
            assert!(plain_keeps_string_type(s), "{s:?}");
        }
    }

    #[test]
    fn numbers_need_quotes() {
        for s in [
            "0",
            "1",
            "-1",
            "+1",
            "007",
            "0x1F",
            "0o17",
            "0b101",
            "1_000",
            "1.5",
            ".5",
            "-.5",
            "+.5",
            "1e3",
            "1E-3",
            "1.",
            "08",
            "09.5",
            "18446744073709551615",
            "99999999999999999999",
            "0b-101",
            "-0b11",
            ".5_0",
            "1__0",
        ] {
            assert!(!plain_keeps_string_type(s), "{s:?}");
        }
        for s in [
            "0x", "0xG", "1e", "1e999", ".", "..5", "._5", ".5_", "1.2.3", "v1", "1a", "-", "+",
            "1-2", "1 2", "0b2", "-0b", ".e5",
        ] {
            assert!(plain_keeps_string_type(s), "{s:?}");
        }
    }

    #[test]
    fn sexagesimal_needs_quotes() {
        for s in ["1:30", "-1:30", "190:20:30", "1:5", "1_0:59.5", "1:30."] {
            assert!(!plain_keeps_string_type(s), "{s:?}");
        }
        for s in ["1:60", "1:", ":30", "1:30:", "a1:30", "1:305", "10:30am"] {
            assert!(plain_keeps_string_type(s), "{s:?}");
        }
    }

    #[test]
    fn go_strconv_edges() {
        assert_eq!(go_parse_uint("0", 0), Some(0));
        assert_eq!(go_parse_uint("0x", 0), None);
        assert_eq!(go_parse_uint("0x1f", 0), Some(31));
        assert_eq!(go_parse_uint("010", 0), Some(8));
        assert_eq!(go_parse_uint("18446744073709551616", 0), None);
        assert_eq!(go_parse_int("-9223372036854775808", 0), Some(i64::MIN));
        assert_eq!(go_parse_int("9223372036854775808", 0), None);
        assert_eq!(go_parse_int("+0b11", 0), Some(3));
        assert_eq!(go_parse_int("1_0", 10), None);
        assert_eq!(go_parse_float("1_000.5"), Some(1000.5));
        assert_eq!(go_parse_float("1e-400"), Some(0.0));
        assert_eq!(go_parse_float("1e400"), None);
    }
}

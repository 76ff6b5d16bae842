//! go-yaml v2's `parseTimestamp`: does Go's `time.Parse` accept the string with one of
//! the four layouts go-yaml tries? Such strings are quoted on output.
//!
//! Each layout is spelled out as the sequence of Go layout elements it consists of, and each
//! element consumes input with `time.Parse`'s rules (one- or two-digit fields, range checks,
//! runs of spaces, optional fractional seconds, `Z` or `±hh:mm` zones, day-of-month validation).

#[derive(Clone, Copy)]
enum Element {
    /// `2006`
    Year,
    /// `1`
    Month,
    /// `2`
    Day,
    /// `15`
    Hour,
    /// `4`
    Minute,
    /// `5`
    Second,
    /// `.999999999`
    OptionalFraction,
    /// `Z07:00`
    ZoneWithColon,
    /// A literal byte of the layout; a space matches a run of spaces.
    Literal(u8),
}

use Element::*;

const LAYOUTS: [&[Element]; 4] = [
    // "2006-1-2T15:4:5.999999999Z07:00"
    &[
        Year,
        Literal(b'-'),
        Month,
        Literal(b'-'),
        Day,
        Literal(b'T'),
        Hour,
        Literal(b':'),
        Minute,
        Literal(b':'),
        Second,
        OptionalFraction,
        ZoneWithColon,
    ],
    // "2006-1-2t15:4:5.999999999Z07:00"
    &[
        Year,
        Literal(b'-'),
        Month,
        Literal(b'-'),
        Day,
        Literal(b't'),
        Hour,
        Literal(b':'),
        Minute,
        Literal(b':'),
        Second,
        OptionalFraction,
        ZoneWithColon,
    ],
    // "2006-1-2 15:4:5.999999999"
    &[
        Year,
        Literal(b'-'),
        Month,
        Literal(b'-'),
        Day,
        Literal(b' '),
        Hour,
        Literal(b':'),
        Minute,
        Literal(b':'),
        Second,
        OptionalFraction,
    ],
    // "2006-1-2"
    &[Year, Literal(b'-'), Month, Literal(b'-'), Day],
];

/// True when go-yaml would resolve the plain scalar `s` to `!!timestamp`.
pub(super) fn is_go_yaml_timestamp(s: &str) -> bool {
    // go-yaml's quick check: all accepted forms start with exactly four digits and a dash.
    let b = s.as_bytes();
    let leading_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if leading_digits != 4 || b.get(4) != Some(&b'-') {
        return false;
    }
    LAYOUTS.iter().any(|layout| parses(layout, b))
}

fn parses(layout: &[Element], mut value: &[u8]) -> bool {
    let (mut year, mut month, mut day) = (0u32, 0u32, 0u32);
    for element in layout {
        let rest = match *element {
            Year => {
                if value.len() < 4 || !value[..4].iter().all(u8::is_ascii_digit) {
                    return false;
                }
                year = value[..4]
                    .iter()
                    .fold(0, |n, d| n * 10 + u32::from(d - b'0'));
                Some(&value[4..])
            }
            Month => number(value)
                .filter(|(m, _)| (1..=12).contains(m))
                .map(|(m, rest)| {
                    month = m;
                    rest
                }),
            Day => number(value).map(|(d, rest)| {
                day = d;
                rest
            }),
            Hour => number(value).filter(|(h, _)| *h < 24).map(|(_, rest)| rest),
            Minute | Second => number(value).filter(|(n, _)| *n < 60).map(|(_, rest)| rest),
            OptionalFraction => Some(fraction(value)),
            ZoneWithColon => zone(value),
            Literal(b' ') => match value.first() {
                Some(b' ') => Some(trim_spaces(value)),
                Some(_) => None,
                None => Some(value),
            },
            Literal(c) => value.strip_prefix(&[c]),
        };
        match rest {
            Some(rest) => value = rest,
            None => return false,
        }
    }
    value.is_empty() && day >= 1 && day <= days_in_month(month, year)
}

/// Go's `getnum(s, false)`: one digit, or two if the second is a digit too.
fn number(value: &[u8]) -> Option<(u32, &[u8])> {
    let digit = |i: usize| {
        value
            .get(i)
            .filter(|c| c.is_ascii_digit())
            .map(|c| u32::from(c - b'0'))
    };
    let first = digit(0)?;
    match digit(1) {
        Some(second) => Some((first * 10 + second, &value[2..])),
        None => Some((first, &value[1..])),
    }
}

/// `.999999999`: a `.` or `,` and digits, or nothing when no digit follows the separator.
fn fraction(value: &[u8]) -> &[u8] {
    let has_fraction =
        value.len() >= 2 && matches!(value[0], b'.' | b',') && value[1].is_ascii_digit();
    if !has_fraction {
        return value;
    }
    let digits = value[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    &value[1 + digits..]
}

/// `Z07:00`: `Z`, or a sign, two-digit hours (at most 24), `:`, two-digit minutes (at most 60).
fn zone(value: &[u8]) -> Option<&[u8]> {
    if let Some(rest) = value.strip_prefix(b"Z") {
        return Some(rest);
    }
    if value.len() < 6 || value[3] != b':' || !matches!(value[0], b'+' | b'-') {
        return None;
    }
    let two_digits = |s: &[u8]| {
        (s[0].is_ascii_digit() && s[1].is_ascii_digit())
            .then(|| u32::from(s[0] - b'0') * 10 + u32::from(s[1] - b'0'))
    };
    let hours = two_digits(&value[1..3])?;
    let minutes = two_digits(&value[4..6])?;
    (hours <= 24 && minutes <= 60).then_some(&value[6..])
}

fn trim_spaces(value: &[u8]) -> &[u8] {
    let n = value.iter().take_while(|&&c| c == b' ').count();
    &value[n..]
}

fn days_in_month(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
mod tests {
    use super::is_go_yaml_timestamp;

    #[test]
    fn accepted_forms() {
        for s in [
            "2006-01-02",
            "2006-1-2",
            "2024-02-29",
            "2006-01-02T15:04:05Z",
            "2006-01-02t15:04:05Z",
            "2006-01-02T15:04:05.123Z",
            "2006-01-02T15:04:05,5+01:00",
            "2006-01-02T15:04:05-24:00",
            "2006-01-02 15:04:05",
            "2006-01-02   1:2:3.000000000001",
        ] {
            assert!(is_go_yaml_timestamp(s), "{s:?}");
        }
    }

    #[test]
    fn rejected_forms() {
        for s in [
            "2006-13-02",
            "2006-00-02",
            "2023-02-29",
            "2006-04-31",
            "2006-01-00",
            "2006-01-02T",
            "2006-01-02T15:04:05",
            "2006-01-02T24:00:00Z",
            "2006-01-02T15:60:00Z",
            "2006-01-02T15:04:05+25:00",
            "2006-01-02T15:04:05+0100",
            "2006-01-02T15:04:05z",
            "2006-01-02 15:04:05Z",
            "2006-01-02x",
            "2006-001-02",
            "206-01-02",
            "20060-01-02",
            "2006-01-02 ",
        ] {
            assert!(!is_go_yaml_timestamp(s), "{s:?}");
        }
    }
}

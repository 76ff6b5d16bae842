//! Durations on the command line, written as Go writes them (`15s`, `1m30s`, `500ms`, `10h`),
//! so that the flags of a controller-runtime manager keep their values. A bare number is
//! seconds, as the first versions of webop's flags took it.

use std::time::Duration;

/// The units Go's `time.ParseDuration` knows, longest suffix first where one is a prefix of
/// another (`ms` before `m`).
const UNITS: [(&str, f64); 8] = [
    ("ns", 1e-9),
    ("us", 1e-6),
    ("µs", 1e-6),
    ("μs", 1e-6),
    ("ms", 1e-3),
    ("s", 1.0),
    ("m", 60.0),
    ("h", 3600.0),
];

/// Go's longest duration (`math.MaxInt64` nanoseconds, `2562047h47m16.854775807s`): the
/// longest a controller-runtime flag holds, and far within what timers can add to a clock.
pub const MAX_DURATION: Duration = Duration::new(9_223_372_036, 854_775_807);

/// Parses `text` as a non-negative Go duration (`1h30m`, `2.5s`, `0`) or a number of seconds,
/// at most [`MAX_DURATION`].
pub fn parse_duration(text: &str) -> Result<Duration, String> {
    let text = text.trim();
    let seconds = parse_seconds(text)?;
    let too_long =
        || format!("{text:?} is longer than the longest duration, 2562047h47m16.854775807s (Go's)");
    if seconds > MAX_DURATION.as_secs_f64() {
        return Err(too_long());
    }
    let duration = Duration::try_from_secs_f64(seconds).map_err(|_| invalid(text))?;
    if duration > MAX_DURATION {
        return Err(too_long());
    }
    Ok(duration)
}

fn invalid(text: &str) -> String {
    format!("{text:?} is not a duration such as 15s, 1m30s or 500ms")
}

fn parse_seconds(text: &str) -> Result<f64, String> {
    let invalid = || invalid(text);
    if text.is_empty() {
        return Err(invalid());
    }
    if let Ok(seconds) = text.parse::<f64>() {
        return match seconds {
            s if s.is_nan() || s < 0.0 => Err(invalid()),
            s => Ok(s),
        };
    }
    let mut rest = text;
    let mut seconds = 0.0;
    while !rest.is_empty() {
        let digits = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .ok_or_else(invalid)?;
        let number: f64 = rest[..digits].parse().map_err(|_| invalid())?;
        rest = &rest[digits..];
        let (unit, scale) = UNITS
            .iter()
            .filter(|(unit, _)| rest.starts_with(unit))
            .max_by_key(|(unit, _)| unit.len())
            .ok_or_else(invalid)?;
        seconds += number * scale;
        rest = &rest[unit.len()..];
    }
    Ok(seconds)
}

/// Writes `duration` as Go prints one (`15s`, `1m30s`, `500ms`), for help texts and logs.
pub fn format_duration(duration: Duration) -> String {
    let millis = duration.as_millis();
    if !millis.is_multiple_of(1000) || millis == 0 {
        return format!("{millis}ms");
    }
    let seconds = millis / 1000;
    let (hours, minutes, seconds) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut text = String::new();
    if hours > 0 {
        text.push_str(&format!("{hours}h"));
    }
    if hours > 0 || minutes > 0 {
        text.push_str(&format!("{minutes}m"));
    }
    text.push_str(&format!("{seconds}s"));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations_and_bare_seconds_parse() {
        let cases = [
            ("15s", 15_000),
            ("1m30s", 90_000),
            ("500ms", 500),
            ("1.5s", 1_500),
            ("10h", 36_000_000),
            ("2h45m", 9_900_000),
            ("0", 0),
            ("15", 15_000),
            ("0.25", 250),
        ];
        for (text, millis) in cases {
            assert_eq!(
                parse_duration(text),
                Ok(Duration::from_millis(millis)),
                "{text}"
            );
        }
        assert_eq!(parse_duration("300us"), Ok(Duration::from_micros(300)));
    }

    #[test]
    fn anything_else_is_refused_by_value() {
        for text in ["", "s", "15x", "-1s", "1s-", "fast", "1..5s"] {
            let error = parse_duration(text).unwrap_err();
            assert!(error.starts_with(&format!("{text:?}")), "{error}");
        }
    }

    #[test]
    fn durations_beyond_gos_longest_are_refused_by_value() {
        assert_eq!(
            parse_duration("2562047h"),
            Ok(Duration::from_secs(2_562_047 * 3600))
        );
        for text in ["2562048h", "1e18", "1e300", "inf", "99999999999999999999h"] {
            let error = parse_duration(text).unwrap_err();
            assert!(error.starts_with(&format!("{text:?}")), "{error}");
            assert!(
                error.contains("longer than the longest duration"),
                "{error}"
            );
        }
    }

    #[test]
    fn formatting_reads_back() {
        for text in ["15s", "1m30s", "500ms", "10h0m0s", "0ms"] {
            assert_eq!(format_duration(parse_duration(text).unwrap()), text);
        }
    }
}

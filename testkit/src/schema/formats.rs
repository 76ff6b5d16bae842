//! Value formats and helpers of OpenAPI validation: the string formats Kubernetes checks in
//! CRDs, patterns (compiled once per pattern), and Go's rendering of numeric bounds.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use regex::Regex;

/// Formats a float64 as Go's `%v` does: the shortest decimal that reads back, with an exponent
/// below 1e-4 and from 1e6 on (`1.25`, `100000`, `1e+06`, `1e+30`, `5e-05`).
pub fn go_float(f: f64) -> String {
    if !f.is_finite() {
        return if f.is_nan() {
            "NaN".into()
        } else if f > 0.0 {
            "+Inf".into()
        } else {
            "-Inf".into()
        };
    }
    let scientific = format!("{f:e}");
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("Rust's {:e} has an exponent");
    let exponent: i32 = exponent.parse().expect("an integer exponent");
    if (-4..6).contains(&exponent) {
        format!("{f}")
    } else {
        let sign = if exponent < 0 { '-' } else { '+' };
        format!("{mantissa}e{sign}{:02}", exponent.abs())
    }
}

/// A compiled pattern, cached per pattern text (`None` if it does not compile).
pub fn cached_regex(pattern: &str) -> Option<Regex> {
    static CACHE: OnceLock<Mutex<HashMap<String, Option<Regex>>>> = OnceLock::new();
    let cache = CACHE.get_or_init(Default::default);
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    cache
        .entry(pattern.to_string())
        .or_insert_with(|| Regex::new(pattern).ok())
        .clone()
}

/// Whether a string satisfies a format Kubernetes validates (`date-time`, `date`, `uuid`,
/// `ipv4`, `ipv6`); other formats pass, as in the API server.
pub fn format_ok(format: &str, s: &str) -> bool {
    match format {
        "date-time" => s.parse::<jiff::Timestamp>().is_ok(),
        "date" => s.len() == 10 && s.parse::<jiff::civil::Date>().is_ok(),
        "uuid" => {
            let parts: Vec<&str> = s.split('-').collect();
            parts.len() == 5
                && [8, 4, 4, 4, 12]
                    .iter()
                    .zip(&parts)
                    .all(|(n, p)| p.len() == *n && p.chars().all(|c| c.is_ascii_hexdigit()))
        }
        "ipv4" => s.parse::<std::net::Ipv4Addr>().is_ok(),
        "ipv6" => s.parse::<std::net::Ipv6Addr>().is_ok(),
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::go_float;

    #[test]
    fn floats_print_as_go_prints_them() {
        for (f, text) in [
            (1.25, "1.25"),
            (100000.0, "100000"),
            (1e6, "1e+06"),
            (1e30, "1e+30"),
            (123456789.0, "1.23456789e+08"),
            (0.0001, "0.0001"),
            (0.00005, "5e-05"),
            (-2.5, "-2.5"),
            (0.0, "0"),
        ] {
            assert_eq!(go_float(f), text);
        }
    }
}

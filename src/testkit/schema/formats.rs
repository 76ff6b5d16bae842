//! Value formats and helpers of OpenAPI validation: the string formats Kubernetes checks in
//! CRDs, patterns (compiled once per pattern), and Go's rendering of numeric bounds.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use regex::Regex;

/// Formats a bound as Go's `%v` does for a float64: `10`, not `10.0`.
pub fn go_number(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e21 {
        format!("{}", n as i64)
    } else {
        n.to_string()
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

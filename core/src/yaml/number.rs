//! Numbers as they come out of controller-gen's JSON → yaml.v2 round trip.
//!
//! Go's `encoding/json` writes a float64 in `%f` style below 1e21 (so an integral 10.0 becomes
//! `10`, and 2^63 becomes `9223372036854776000`: the shortest digits that read back as the same
//! float, padded with zeros) and in `%e` style otherwise; yaml.v2 then reads digits-only text as
//! `int` (or `uint64` above `i64::MAX`) and everything else as `float64`, which it writes back with
//! `strconv.FormatFloat(f, 'g', -1, 64)`: shortest digits, exponent form when the decimal
//! exponent is below -4 or at least 6 (with at least two exponent digits: `1e-07`, `1e+21`).

use serde_json::Number;

/// The plain scalar controller-gen writes for a JSON number.
pub(super) fn format_number(n: &Number) -> String {
    if let Some(u) = n.as_u64() {
        return u.to_string();
    }
    if let Some(i) = n.as_i64() {
        return i.to_string();
    }
    match n.as_f64() {
        Some(f) => format_float(f),
        // Only reachable with serde_json's arbitrary_precision: keep the text as it is.
        None => n.to_string(),
    }
}

/// A float64 through Go's json (`%f` below 1e21) and yaml.v2's int/uint/float resolution.
fn format_float(f: f64) -> String {
    if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e21 {
        // json wrote `strconv.FormatFloat(f, 'f', -1, 64)`, which Rust's `Display` writes alike
        // (shortest round-trip digits, then zeros); yaml.v2 parses that text as int64, else
        // uint64, else float64.
        let json = f.to_string();
        if let Ok(i) = json.parse::<i64>() {
            return i.to_string();
        }
        if let Ok(u) = json.parse::<u64>() {
            return u.to_string();
        }
    }
    format_go_g(f)
}

/// Go's `strconv.FormatFloat(f, 'g', -1, 64)`.
pub(super) fn format_go_g(f: f64) -> String {
    if f.is_nan() {
        return ".nan".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { ".inf" } else { "-.inf" }.into();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.into();
    }
    // Rust's `{:e}` gives the same shortest round-trip digits as Go: "d.ddde±x".
    let scientific = format!("{:e}", f.abs());
    let (mantissa, exponent) = scientific
        .split_once('e')
        .expect("`{:e}` always has an exponent");
    let exponent: i32 = exponent.parse().expect("`{:e}` exponent is an integer");
    let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
    let sign = if f < 0.0 { "-" } else { "" };

    if !(-4..6).contains(&exponent) {
        let (first, rest) = digits.split_at(1);
        let fraction = if rest.is_empty() {
            String::new()
        } else {
            format!(".{rest}")
        };
        let exp_sign = if exponent < 0 { '-' } else { '+' };
        return format!("{sign}{first}{fraction}e{exp_sign}{:02}", exponent.abs());
    }
    // Decimal point after `point` digits (may be <= 0 for 0.000ddd).
    let point = exponent + 1;
    let body = if point <= 0 {
        format!("0.{}{digits}", "0".repeat(point.unsigned_abs() as usize))
    } else {
        let point = point as usize;
        if digits.len() <= point {
            format!("{digits}{}", "0".repeat(point - digits.len()))
        } else {
            format!("{}.{}", &digits[..point], &digits[point..])
        }
    };
    format!("{sign}{body}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fmt(v: serde_json::Value) -> String {
        format_number(v.as_number().unwrap())
    }

    #[test]
    fn integers_print_in_decimal() {
        assert_eq!(fmt(json!(0)), "0");
        assert_eq!(fmt(json!(-42)), "-42");
        assert_eq!(fmt(json!(u64::MAX)), "18446744073709551615");
        assert_eq!(fmt(json!(i64::MIN)), "-9223372036854775808");
    }

    #[test]
    fn integral_floats_print_as_integers() {
        assert_eq!(fmt(json!(10.0)), "10");
        assert_eq!(fmt(json!(-0.0)), "0");
        assert_eq!(fmt(json!(65535.0)), "65535");
        assert_eq!(fmt(json!(1e15)), "1000000000000000");
        assert_eq!(fmt(json!(9007199254740993.0)), "9007199254740992");
        // json writes 2^63 with its shortest digits, `9223372036854776000`: above i64::MAX, so
        // yaml.v2 reads a uint64; its negative is below i64::MIN, so a float64 (what
        // controller-gen writes for a minimum of i64::MIN and i64::MAX).
        assert_eq!(fmt(json!(2f64.powi(63))), "9223372036854776000");
        assert_eq!(fmt(json!(-(2f64.powi(63)))), "-9.223372036854776e+18");
        // Within i64 too: the shortest digits, not the float's exact value.
        assert_eq!(fmt(json!(-(2f64.powi(62)))), "-4611686018427388000");
        // Past u64 json still writes digits, but yaml.v2 can only read them as a float.
        assert_eq!(fmt(json!(1e20)), "1e+20");
        assert_eq!(fmt(json!(18446744073709551616.0)), "1.8446744073709552e+19");
        assert_eq!(fmt(json!(1e21)), "1e+21");
        assert_eq!(fmt(json!(-1.5e300)), "-1.5e+300");
    }

    #[test]
    fn fractional_floats_use_go_g_format() {
        assert_eq!(fmt(json!(0.5)), "0.5");
        assert_eq!(fmt(json!(-2.25)), "-2.25");
        assert_eq!(fmt(json!(0.1)), "0.1");
        assert_eq!(fmt(json!(0.0001)), "0.0001");
        assert_eq!(fmt(json!(0.00001)), "1e-05");
        assert_eq!(fmt(json!(1e-7)), "1e-07");
        assert_eq!(fmt(json!(1.5e-10)), "1.5e-10");
        assert_eq!(fmt(json!(123456.5)), "123456.5");
        assert_eq!(fmt(json!(1234567.5)), "1.2345675e+06");
        assert_eq!(fmt(json!(5e-324)), "5e-324");
        assert_eq!(
            fmt(json!(1.7976931348623157e308)),
            "1.7976931348623157e+308"
        );
        assert_eq!(fmt(json!(0.30000000000000004)), "0.30000000000000004");
    }

    #[test]
    fn go_g_special_values() {
        assert_eq!(format_go_g(f64::NAN), ".nan");
        assert_eq!(format_go_g(f64::INFINITY), ".inf");
        assert_eq!(format_go_g(f64::NEG_INFINITY), "-.inf");
        assert_eq!(format_go_g(100.0), "100");
        assert_eq!(format_go_g(123456.0), "123456");
        assert_eq!(format_go_g(1234567.0), "1.234567e+06");
    }
}

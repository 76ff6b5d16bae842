//! Markers of numbers and strings with random legal arguments, and values that satisfy them (for
//! defaults, examples and enums): the API server validates a default against its schema.

use super::super::model::{Marker, Number, Value};
use super::super::rng::Rng;
use super::super::words;

/// Markers for a number or string, and values that satisfy them all.
pub struct Constrained {
    pub markers: Vec<Marker>,
    pub samples: Vec<Value>,
    /// Set when the strings have a format whose CEL type is not `string` (date-time, duration).
    pub cel_format: bool,
}

/// Integers at the edges of what JSON, f64 and Go's number formatting hold exactly.
const EXTREME_INTEGERS: [i64; 8] = [
    i64::MIN,
    -9_007_199_254_740_993,
    -2_147_483_649,
    0,
    2_147_483_648,
    4_294_967_296,
    9_007_199_254_740_993,
    i64::MAX,
];

/// Numbers whose text Go and Rust format differently unless they follow the same rules
/// (exponents, tiny and huge magnitudes, many digits), in increasing order.
const EXTREME_FLOATS: [f64; 10] = [
    -1.5e300,
    -123_456_789.123,
    5e-324,
    1e-7,
    0.000_001,
    0.1,
    0.333_333_333_333_333_3,
    1e20,
    1e21,
    1.5e300,
];

/// A minimum at an edge, and the values above it.
fn extreme(rng: &mut Rng, float: bool) -> Constrained {
    let samples: Vec<Value> = if float {
        EXTREME_FLOATS.iter().map(|v| Value::Float(*v)).collect()
    } else {
        EXTREME_INTEGERS.iter().map(|v| Value::Int(*v)).collect()
    };
    let at = rng.below(samples.len());
    let minimum = match samples[at] {
        Value::Float(v) => Number::Float(v),
        Value::Int(v) => Number::Int(v),
        _ => unreachable!(),
    };
    Constrained {
        markers: vec![Marker::Minimum(minimum)],
        samples: samples[at..].to_vec(),
        cel_format: false,
    }
}

/// An integer (`int32`, `int64`, or a named integer) or, with `float`, a number.
pub fn numeric(rng: &mut Rng, float: bool) -> Constrained {
    if rng.chance(10) {
        let mut constrained = extreme(rng, float);
        enumerate(rng, &mut constrained);
        return constrained;
    }
    let mut markers = Vec::new();
    let step = if float {
        *rng.pick(&[0.25, 0.5, 1.0])
    } else {
        1.0
    };
    let low = rng.range(-20, 20) as f64 * step;
    let high = low + rng.range(0, 40) as f64 * step;
    // A whole bound may be written either way (`2` or `2.0`), on integers too.
    let bound = |v: f64, rng: &mut Rng| {
        if v.fract() != 0.0 || rng.chance(if float { 60 } else { 10 }) {
            Number::Float(v)
        } else {
            Number::Int(v as i64)
        }
    };
    let (mut min, mut max) = (f64::MIN, f64::MAX);
    let (mut exclusive_min, mut exclusive_max) = (false, false);
    if rng.chance(50) {
        markers.push(Marker::Minimum(bound(low, rng)));
        min = low;
        if rng.chance(20) {
            markers.push(Marker::ExclusiveMinimum);
            exclusive_min = true;
        }
    }
    if rng.chance(50) {
        markers.push(Marker::Maximum(bound(high, rng)));
        max = high;
        if rng.chance(20) {
            markers.push(Marker::ExclusiveMaximum);
            exclusive_max = true;
        }
    }
    let mut multiple = None;
    if rng.chance(20) {
        let m = if float {
            *rng.pick(&[0.25, 0.5, 2.0])
        } else {
            *rng.pick(&[2.0, 3.0, 5.0, 10.0])
        };
        markers.push(Marker::MultipleOf(if float && m != 2.0 {
            Number::Float(m)
        } else {
            Number::Int(m as i64)
        }));
        multiple = Some(m);
    }
    if rng.chance(8) {
        markers.push(Marker::Format(if float {
            rng.choose(&FLOAT_FORMATS)
        } else {
            rng.choose(&INTEGER_FORMATS)
        }));
    }
    let candidates = (-100..=100).map(|k| k as f64 * if float { 0.25 } else { 1.0 });
    let samples: Vec<Value> = candidates
        .filter(|v| {
            (if exclusive_min { *v > min } else { *v >= min })
                && (if exclusive_max { *v < max } else { *v <= max })
                && multiple.is_none_or(|m| (v / m).fract() == 0.0)
                && (low - 30.0..=high + 30.0).contains(v)
        })
        .map(|v| {
            if float {
                Value::Float(v)
            } else {
                Value::Int(v as i64)
            }
        })
        .collect();
    let mut constrained = Constrained {
        markers,
        samples,
        cel_format: false,
    };
    enumerate(rng, &mut constrained);
    constrained
}

const FLOAT_FORMATS: [&str; 2] = ["double", "float"];
const INTEGER_FORMATS: [&str; 2] = ["int32", "int64"];

/// A pattern and strings it matches. Backslashes, `#`, `|` and `{}` test the YAML quoting of
/// patterns.
const PATTERNS: [(&str, [&str; 2]); 8] = [
    ("^[a-z]+$", ["abc", "web"]),
    ("^[a-z0-9]([-a-z0-9]*[a-z0-9])?$", ["a-1", "web"]),
    (r"^v[0-9]+$", ["v1", "v22"]),
    (r"^\d{1,3}$", ["7", "42"]),
    ("^#[0-9a-f]{6}$", ["#00ff00", "#abcdef"]),
    ("^(foo|bar)$", ["foo", "bar"]),
    (r"^\S+$", ["x", "a-b"]),
    ("^[A-Z][a-zA-Z]*: .*$", ["Key: value", "A: b"]),
];

/// A format and a string of that format. Formats CEL reads as other types come last.
const FORMATS: [(&str, &str); 12] = [
    ("email", "ops@example.com"),
    ("hostname", "example.com"),
    ("ipv4", "10.0.0.1"),
    ("ipv6", "::1"),
    ("uri", "https://example.com/a"),
    ("uuid", "0b4e7f4e-2d1c-4b1f-9c1a-8f5e2a1b3c4d"),
    ("cidr", "10.0.0.0/8"),
    ("mac", "00:1a:2b:3c:4d:5e"),
    ("password", "s3cret"),
    ("byte", "aGVsbG8="),
    ("date-time", "2024-01-02T03:04:05Z"),
    ("duration", "1h"),
];

/// A string.
pub fn string(rng: &mut Rng) -> Constrained {
    let mut markers = Vec::new();
    let mut cel_format = false;
    let mut samples: Vec<String> = match rng.below(10) {
        0 | 1 => {
            let (pattern, matches) = rng.pick(&PATTERNS);
            markers.push(Marker::Pattern(pattern));
            matches.iter().map(|s| (*s).to_owned()).collect()
        }
        2 => {
            let (format, sample) = *rng.pick(&FORMATS);
            markers.push(Marker::Format(format));
            cel_format = matches!(format, "date-time" | "duration");
            vec![sample.to_owned()]
        }
        _ => (0..4).map(|_| words::string_value(rng)).collect(),
    };
    let longest = samples.iter().map(|s| s.chars().count()).max().unwrap_or(0) as u32;
    let shortest = samples.iter().map(|s| s.chars().count()).min().unwrap_or(0) as u32;
    if rng.chance(30) {
        let min = rng.range(0, i64::from(shortest.min(3))) as u32;
        markers.push(Marker::MinLength(min));
    }
    if rng.chance(40) {
        let max = longest + rng.range(0, 60) as u32;
        markers.push(Marker::MaxLength(max));
    }
    samples.dedup();
    let mut constrained = Constrained {
        markers,
        samples: samples.into_iter().map(Value::String).collect(),
        cel_format,
    };
    enumerate(rng, &mut constrained);
    constrained
}

/// Sometimes limits the values to an enum of some samples.
fn enumerate(rng: &mut Rng, constrained: &mut Constrained) {
    if constrained.samples.len() >= 2 && rng.chance(15) {
        let count = rng.range(1, constrained.samples.len().min(4) as i64) as usize;
        let values = rng.subset(&constrained.samples, count);
        constrained.markers.push(Marker::Enum(values.clone()));
        constrained.samples = values;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn number(value: &Value) -> f64 {
        match value {
            Value::Int(v) => *v as f64,
            Value::Float(v) => *v,
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn numeric_samples_satisfy_the_bounds() {
        let mut rng = Rng::new(3);
        for _ in 0..500 {
            let float = rng.chance(50);
            let c = numeric(&mut rng, float);
            for sample in &c.samples {
                let v = number(sample);
                for marker in &c.markers {
                    match marker {
                        Marker::Minimum(n) => assert!(v >= number(&n_value(*n))),
                        Marker::Maximum(n) => assert!(v <= number(&n_value(*n))),
                        Marker::MultipleOf(n) => {
                            assert_eq!((v / number(&n_value(*n))).fract(), 0.0)
                        }
                        _ => {}
                    }
                }
                if !float {
                    assert!(matches!(sample, Value::Int(_)));
                }
            }
        }
    }

    fn n_value(n: Number) -> Value {
        match n {
            Number::Int(v) => Value::Int(v),
            Number::Float(v) => Value::Float(v),
        }
    }

    #[test]
    fn string_samples_fit_their_lengths() {
        let mut rng = Rng::new(4);
        for _ in 0..500 {
            let c = string(&mut rng);
            for sample in &c.samples {
                let Value::String(s) = sample else { panic!() };
                let len = s.chars().count() as u32;
                for marker in &c.markers {
                    match marker {
                        Marker::MinLength(n) => assert!(len >= *n, "{s:?} {n}"),
                        Marker::MaxLength(n) => assert!(len <= *n, "{s:?} {n}"),
                        _ => {}
                    }
                }
            }
        }
    }
}

//! The sources of the two API crates: one table of fields, spelled by each flavour.

// How each flavour spells a crate from the table below; a child module, so it reads the
// table's private fields without widening them.
mod crate_source;

/// How many kinds each crate has.
pub const KINDS: usize = 50;

/// A validation, which each flavour spells its own way.
#[derive(Clone, Copy)]
enum Check {
    /// A string's length (a minimum of 0 is left out).
    StrLen(u32, u32),
    /// A string's regular expression.
    Pattern(&'static str),
    /// A number's inclusive bounds.
    Range(i64, i64),
    /// A list's length (a minimum of 0 is left out).
    ItemCount(u32, u32),
    /// The maximum length of each string of a list.
    EachStrLen(u32),
    /// The inclusive bounds of each number of a list.
    EachRange(i64, i64),
    /// A map's maximum number of entries.
    MaxEntries(u32),
}

/// One field of a generated struct; `{K}` in its type stands for the kind's name.
struct Field {
    name: &'static str,
    ty: &'static str,
    doc: &'static str,
    checks: &'static [Check],
    /// The value an absent field gets: a literal that is both JSON and Rust.
    default: Option<&'static str>,
    /// `#[serde(default)]`: absent means empty.
    serde_default: bool,
}

const fn field(name: &'static str, ty: &'static str, doc: &'static str) -> Field {
    Field {
        name,
        ty,
        doc,
        checks: &[],
        default: None,
        serde_default: false,
    }
}

impl Field {
    const fn checks(self, checks: &'static [Check]) -> Self {
        Field { checks, ..self }
    }
    const fn default(self, literal: &'static str) -> Self {
        Field {
            default: Some(literal),
            ..self
        }
    }
    const fn serde_default(self) -> Self {
        Field {
            serde_default: true,
            ..self
        }
    }
}

use Check::*;

const DNS_LABEL: &str = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?$";

/// How many fields each kind's spec has.
pub const SPEC_FIELDS: usize = SPEC.len();

const SPEC: [Field; 20] = [
    field("image", "String", "The container image.").checks(&[StrLen(1, 253)]),
    field("host", "String", "The host name.").checks(&[StrLen(0, 63), Pattern(DNS_LABEL)]),
    field("replicas", "i32", "Pods to run.")
        .checks(&[Range(1, 10)])
        .default("1"),
    field("port", "i32", "The port served.")
        .checks(&[Range(1, 65535)])
        .default("80"),
    field("timeout_seconds", "i64", "The request timeout.")
        .checks(&[Range(0, 3600)])
        .default("30"),
    field("max_surge", "Option<u32>", "Extra pods during a rollout.").checks(&[Range(0, 100)]),
    field("description", "Option<String>", "What this is for.").checks(&[StrLen(0, 1024)]),
    field("suspend", "Option<bool>", "Stops reconciling."),
    field("args", "Vec<String>", "Container arguments.")
        .checks(&[ItemCount(0, 32), EachStrLen(256)])
        .serde_default(),
    field("target_ports", "Vec<i32>", "Ports to expose.")
        .checks(&[ItemCount(1, 16), EachRange(1, 65535)]),
    field("labels", "BTreeMap<String, String>", "Labels of the pods.")
        .checks(&[MaxEntries(64)])
        .serde_default(),
    field(
        "annotations",
        "Option<BTreeMap<String, String>>",
        "Annotations of the pods.",
    ),
    field("resources", "{K}Resources", "What each pod gets."),
    field("sidecars", "Vec<{K}Resources>", "Helper containers.")
        .checks(&[ItemCount(0, 8)])
        .serde_default(),
    field("schedule", "Option<String>", "A cron schedule.").checks(&[Pattern(r"^(\S+\s+){4}\S+$")]),
    field("not_before", "Option<Time>", "No rollout before this time."),
    field("priority", "i32", "Scheduling priority.").checks(&[Range(-100, 100)]),
    field("ratio", "Option<f64>", "The share of canary traffic.").checks(&[Range(0, 1)]),
    field("tags", "Vec<String>", "Free-form tags.")
        .checks(&[ItemCount(0, 16), EachStrLen(63)])
        .serde_default(),
    field("min_ready_seconds", "Option<i32>", "Readiness delay.").checks(&[Range(0, 600)]),
];

const RESOURCES: [Field; 4] = [
    field("cpu", "String", "CPU, in cores or millicores.").checks(&[Pattern("^[0-9]+m?$")]),
    field("memory", "String", "Memory.").checks(&[Pattern("^[0-9]+(Ki|Mi|Gi)?$")]),
    field("gpus", "Option<i32>", "GPUs.").checks(&[Range(0, 8)]),
    field("class_name", "Option<String>", "The runtime class.").checks(&[StrLen(0, 63)]),
];

const STATUS: [Field; 5] = [
    field(
        "observed_generation",
        "Option<i64>",
        "The generation last reconciled.",
    ),
    field("phase", "Option<{K}Phase>", "Where the rollout is."),
    field("ready_replicas", "i32", "Pods ready.").serde_default(),
    field(
        "last_update_time",
        "Option<Time>",
        "When the status last changed.",
    ),
    field("message", "Option<String>", "A human-readable summary."),
];

/// (name, type, JSON path) of each printer column.
const COLUMNS: [(&str, &str, &str); 4] = [
    ("Image", "string", ".spec.image"),
    ("Replicas", "integer", ".spec.replicas"),
    ("Phase", "string", ".status.phase"),
    ("Age", "date", ".metadata.creationTimestamp"),
];

/// How an API crate is written.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Flavour {
    Webop,
    Kube,
}

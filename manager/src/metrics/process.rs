//! The `process_*` metrics of Prometheus' client libraries (CPU time, memory, file descriptors,
//! start time), read from `/proc/self` at scrape time, as Go's process collector reads them.
//! Elsewhere than on Linux there is no `/proc` and nothing is written.

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Unit;

/// The clock ticks per second of `/proc/<pid>/stat` times: `USER_HZ`, 100 on every Linux ABI.
const TICKS_PER_SECOND: f64 = 100.0;

/// What `/proc/self` says of this process.
#[derive(Debug, Default, PartialEq)]
struct Sample {
    cpu_seconds: f64,
    virtual_bytes: f64,
    resident_bytes: Option<f64>,
    start_time_seconds: Option<f64>,
    open_fds: Option<f64>,
    max_fds: Option<f64>,
    max_virtual_bytes: Option<f64>,
}

/// `/proc/<pid>/stat`: fields after the command name (which may hold spaces and parentheses).
fn stat_fields(stat: &str) -> Option<Vec<&str>> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    Some(after_name.split_whitespace().collect())
}

/// A soft limit of `/proc/<pid>/limits`; `unlimited` is `u64::MAX`, as Go's procfs reads it.
fn soft_limit(limits: &str, name: &str) -> Option<f64> {
    let line = limits.lines().find(|l| l.starts_with(name))?;
    let value = line[name.len()..].split_whitespace().next()?;
    match value {
        "unlimited" => Some(u64::MAX as f64),
        number => number.parse().ok(),
    }
}

/// The value of a `kB` line of `/proc/<pid>/status`, in bytes.
fn status_bytes(status: &str, name: &str) -> Option<f64> {
    let line = status.lines().find(|l| l.starts_with(name))?;
    let kib: f64 = line[name.len()..].split_whitespace().next()?.parse().ok()?;
    Some(kib * 1024.0)
}

fn sample(stat: &str, status: &str, limits: &str, boot_time: Option<f64>) -> Option<Sample> {
    // Fields from `state` (field 3) on: utime is field 14, stime 15, starttime 22, vsize 23.
    let fields = stat_fields(stat)?;
    let field = |number: usize| -> Option<f64> { fields.get(number - 3)?.parse().ok() };
    let ticks = field(14)? + field(15)?;
    Some(Sample {
        cpu_seconds: ticks / TICKS_PER_SECOND,
        virtual_bytes: field(23)?,
        resident_bytes: status_bytes(status, "VmRSS:"),
        start_time_seconds: boot_time
            .zip(field(22))
            .map(|(boot, start)| boot + start / TICKS_PER_SECOND),
        open_fds: None,
        max_fds: soft_limit(limits, "Max open files"),
        max_virtual_bytes: soft_limit(limits, "Max address space"),
    })
}

fn read_sample() -> Option<Sample> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let boot_time = read("/proc/stat").and_then(|stat| {
        let line = stat.lines().find(|l| l.starts_with("btime "))?;
        line["btime ".len()..].trim().parse().ok()
    });
    let mut sample = sample(
        &read("/proc/self/stat")?,
        &read("/proc/self/status").unwrap_or_default(),
        &read("/proc/self/limits").unwrap_or_default(),
        boot_time,
    )?;
    sample.open_fds = std::fs::read_dir("/proc/self/fd")
        .ok()
        .map(|entries| entries.count() as f64);
    Some(sample)
}

/// The process collector.
#[derive(Debug, Default)]
pub(super) struct ProcessCollector;

impl Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), std::fmt::Error> {
        let Some(sample) = read_sample() else {
            return Ok(());
        };
        let cpu = ConstCounter::new(sample.cpu_seconds);
        cpu.encode(encoder.encode_descriptor(
            "process_cpu",
            "Total user and system CPU time spent in seconds.",
            Some(&Unit::Seconds),
            MetricType::Counter,
        )?)?;
        let gauges = [
            (
                "process_open_fds",
                "Number of open file descriptors.",
                None,
                sample.open_fds,
            ),
            (
                "process_max_fds",
                "Maximum number of open file descriptors.",
                None,
                sample.max_fds,
            ),
            (
                "process_virtual_memory",
                "Virtual memory size in bytes.",
                Some(Unit::Bytes),
                Some(sample.virtual_bytes),
            ),
            (
                "process_virtual_memory_max",
                "Maximum amount of virtual memory available in bytes.",
                Some(Unit::Bytes),
                sample.max_virtual_bytes,
            ),
            (
                "process_resident_memory",
                "Resident memory size in bytes.",
                Some(Unit::Bytes),
                sample.resident_bytes,
            ),
            (
                "process_start_time",
                "Start time of the process since unix epoch in seconds.",
                Some(Unit::Seconds),
                sample.start_time_seconds,
            ),
        ];
        for (name, help, unit, value) in gauges {
            if let Some(value) = value {
                let metric =
                    encoder.encode_descriptor(name, help, unit.as_ref(), MetricType::Gauge)?;
                ConstGauge::new(value).encode(metric)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_files_are_read_as_go_reads_them() {
        let stat = "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 1500 0 0 0 \
                    250 50 0 0 20 0 8 0 12345 104857600 2048 18446744073709551615";
        let status = "Name:\tmanager\nVmRSS:\t    8192 kB\nThreads:\t8\n";
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max open files            1024                 1048576              files\n\
                      Max address space         unlimited            unlimited            bytes\n";
        let sample = sample(stat, status, limits, Some(1_700_000_000.0)).unwrap();
        assert_eq!(sample.cpu_seconds, 3.0);
        assert_eq!(sample.virtual_bytes, 104_857_600.0);
        assert_eq!(sample.resident_bytes, Some(8_388_608.0));
        assert!((sample.start_time_seconds.unwrap() - 1_700_000_123.45).abs() < 1e-3);
        assert_eq!(sample.max_fds, Some(1024.0));
        assert_eq!(sample.max_virtual_bytes, Some(u64::MAX as f64));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn this_process_is_described() {
        let sample = read_sample().unwrap();
        assert!(sample.resident_bytes.unwrap() > 0.0);
        assert!(sample.open_fds.unwrap() >= 3.0);
        assert!(sample.start_time_seconds.unwrap() > 1.0e9);
    }
}

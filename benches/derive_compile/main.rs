//! Compile time of an API crate: webop's derives against kube-derive + schemars.
//!
//! Generates two crates describing the same 50 kinds of 20 spec fields each (a realistic mix:
//! strings with length and pattern checks, bounded integers with defaults, `Option`s, `Vec`s,
//! maps, a nested struct, a unit enum, `Time`, printer columns and a status), once with webop's
//! derives and once with kube-derive 5 + schemars 1, then times the compile of each API crate
//! alone, its dependencies built beforehand and not measured.
//!
//! ```text
//! cargo bench --bench derive_compile
//! DERIVE_COMPILE_ROUNDS=9 cargo bench --bench derive_compile    # more rounds (default 5)
//! DERIVE_COMPILE_COMMAND=check cargo bench --bench derive_compile   # `cargo check` instead
//! DERIVE_COMPILE_INSTRUCTIONS=1 cargo bench --bench derive_compile   # also count instructions
//! ```
//!
//! The crates are written to `<target dir>/derive-compile-bench/{webop,kube}` and share that
//! target directory, starting from this workspace's `Cargo.lock`, so both resolve the same
//! dependency versions and common dependencies compile once (the first run builds them: kube's
//! flavour needs k8s-openapi with its `schemars` feature, a second build of that crate). Each
//! round touches an API crate's `src/lib.rs` and runs `cargo build --lib` with incremental
//! compilation off, so a round is one full compile of that crate; the rounds alternate between
//! the flavours (ABBA order) so that machine drift hits both alike. The output:
//!
//! ```text
//! check webop crds=50 spec_properties=1000 ...   (each crate's binary summarises its CRDs)
//! noop_build_seconds webop=... (cargo's own start-up, included in every figure)
//! round 1 webop=<wall s> kube=<wall s> cpu webop=<cpu s> kube=<cpu s>
//! derive_build_seconds webop=<median> kube=<median> ratio=<webop/kube>
//! derive_build_cpu_seconds webop=<median> kube=<median> ratio=<webop/kube>
//! ```
//!
//! The wall-clock figures are what a developer waits; the CPU figures (Linux only) are steadier
//! when other processes share the machine. Neither settles a difference of a few percent on a
//! shared machine: with `DERIVE_COMPILE_INSTRUCTIONS=1` (and valgrind installed) one more compile
//! of each crate runs under cachegrind, which counts the instructions rustc and the proc-macros
//! execute, a figure that does not depend on the load and repeats to within a few millionths:
//!
//! ```text
//! derive_build_instructions webop=<count> kube=<count> ratio=<webop/kube>
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Instant, SystemTime};
use std::{env, fs};

use generate::{Flavour, KINDS, SPEC_FIELDS};

mod generate;

const DEFAULT_ROUNDS: usize = 5;

fn write_if_changed(path: &Path, contents: &str) {
    if fs::read_to_string(path).is_ok_and(|old| old == contents) {
        return;
    }
    fs::create_dir_all(path.parent().expect("a file in a folder")).expect("create folder");
    fs::write(path, contents).unwrap_or_else(|err| panic!("write {}: {err}", path.display()));
}

/// The target directory: `CARGO_TARGET_DIR`, or the one this bench was built into.
fn target_dir() -> PathBuf {
    if let Some(dir) = env::var_os("CARGO_TARGET_DIR") {
        return dir.into();
    }
    let exe = env::current_exe().expect("the bench's path");
    // <target>/<profile>/deps/<bench>
    exe.ancestors().nth(3).expect("the target dir").to_owned()
}

struct Bench {
    target: PathBuf,
    root: PathBuf,
}

impl Bench {
    fn crate_dir(&self, flavour: Flavour) -> PathBuf {
        self.root.join(flavour.name())
    }

    /// `cargo <args>` in the flavour's crate, building into the bench's target directory.
    fn cargo_command(&self, flavour: Flavour, args: &[&str]) -> Command {
        let mut cargo = webop_cli::cli::cargo::command();
        cargo
            .args(args)
            .current_dir(self.crate_dir(flavour))
            .env("CARGO_TARGET_DIR", &self.target)
            .env("CARGO_INCREMENTAL", "0");
        cargo
    }

    /// `cargo <args>` in the flavour's crate; its stdout, or a panic with cargo's stderr.
    fn cargo(&self, flavour: Flavour, args: &[&str]) -> String {
        let output = self
            .cargo_command(flavour, args)
            .output()
            .expect("run cargo");
        if !output.status.success() {
            panic!(
                "cargo {} failed for the {} crate:\n{}",
                args.join(" "),
                flavour.name(),
                String::from_utf8_lossy(&output.stderr)
            );
        }
        String::from_utf8(output.stdout).expect("UTF-8 output")
    }

    fn generate(&self, flavour: Flavour) {
        let dir = self.crate_dir(flavour);
        for (path, contents) in flavour.crate_files() {
            write_if_changed(&dir.join(path), &contents);
        }
        let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock");
        if !dir.join("Cargo.lock").exists() {
            fs::copy(lock, dir.join("Cargo.lock")).expect("copy Cargo.lock");
        }
    }

    /// Marks the flavour's `src/lib.rs` as changed, so that the next build compiles the crate.
    fn touch_lib(&self, flavour: Flavour) {
        let lib = self.crate_dir(flavour).join("src/lib.rs");
        fs::File::options()
            .append(true)
            .open(&lib)
            .and_then(|file| file.set_modified(SystemTime::now()))
            .expect("touch src/lib.rs");
    }

    /// One `cargo <command> --lib`, after touching `src/lib.rs` when `touch` says so.
    fn time(&self, flavour: Flavour, command: &str, touch: bool) -> Timing {
        if touch {
            self.touch_lib(flavour);
        }
        let cpu_before = children_cpu_seconds();
        let start = Instant::now();
        self.cargo(flavour, &[command, "--lib", "--offline", "--quiet"]);
        Timing {
            wall: start.elapsed().as_secs_f64(),
            cpu: children_cpu_seconds()
                .zip(cpu_before)
                .map(|(after, before)| after - before),
        }
    }

    /// The instructions of one compile of the flavour's crate (rustc with the proc-macros it
    /// loads), counted by valgrind's cachegrind. A script that cargo runs as the workspace's rustc
    /// wrapper starts it, so that only the API crate is counted, and not cargo's probes of rustc.
    fn instructions(&self, flavour: Flavour, command: &str) -> u64 {
        let wrapper = self.root.join("count-instructions.sh");
        write_if_changed(
            &wrapper,
            "#!/bin/sh\n\
             case \" $* \" in\n\
             *\" --crate-name \"*) exec valgrind --tool=cachegrind --cache-sim=no \
             --log-file=\"$DERIVE_COMPILE_COUNTS.log\" \
             --cachegrind-out-file=\"$DERIVE_COMPILE_COUNTS\" \"$@\" ;;\n\
             esac\n\
             exec \"$@\"\n",
        );
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&wrapper, fs::Permissions::from_mode(0o755))
            .expect("make the wrapper executable");
        let counts = self.root.join(format!("{}.cachegrind", flavour.name()));
        let _ = fs::remove_file(&counts);
        self.touch_lib(flavour);
        let status = self
            .cargo_command(flavour, &[command, "--lib", "--offline", "--quiet"])
            .env("RUSTC_WORKSPACE_WRAPPER", &wrapper)
            .env("DERIVE_COMPILE_COUNTS", &counts)
            .status()
            .expect("run cargo");
        assert!(
            status.success(),
            "the counted compile of the {} crate (is valgrind installed? its log: {}.log)",
            flavour.name(),
            counts.display()
        );
        let counts = fs::read_to_string(&counts).expect("cachegrind's output file");
        counts
            .lines()
            .find_map(|line| line.strip_prefix("summary: "))
            .and_then(|total| total.trim().parse().ok())
            .expect("a `summary: <instructions>` line in cachegrind's output")
    }
}

/// The wall-clock time of a build, and the CPU time of its processes: steadier than the wall
/// clock on a machine that others share, but summed over rustc's threads.
#[derive(Clone, Copy)]
struct Timing {
    wall: f64,
    cpu: Option<f64>,
}

/// User + system CPU seconds of this process's waited-for descendants (cargo, and the rustc it
/// waits for), from Linux's `/proc/self/stat`, where they count in ticks of 1/100 s; `None`
/// elsewhere.
fn children_cpu_seconds() -> Option<f64> {
    let stat = fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name, which is in parentheses and may contain spaces;
    // cutime and cstime are fields 16 and 17 of the whole line.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(13)?.parse::<u64>().ok()? + fields.get(14)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

fn main() {
    let rounds: usize = env::var("DERIVE_COMPILE_ROUNDS")
        .ok()
        .map(|r| r.parse().expect("DERIVE_COMPILE_ROUNDS is a number"))
        .unwrap_or(DEFAULT_ROUNDS);
    let command = env::var("DERIVE_COMPILE_COMMAND").unwrap_or_else(|_| "build".to_owned());
    assert!(
        matches!(command.as_str(), "build" | "check"),
        "DERIVE_COMPILE_COMMAND is build or check, not {command:?}"
    );
    let target = target_dir();
    let bench = Bench {
        root: target.join("derive-compile-bench"),
        target,
    };
    let flavours = [Flavour::Webop, Flavour::Kube];
    for flavour in flavours {
        bench.generate(flavour);
        // Dependencies, the crate and its summary binary: built once, not measured.
        bench.cargo(flavour, &["build", "--quiet"]);
        let summary = bench.cargo(flavour, &["run", "--offline", "--quiet"]);
        let summary = summary.trim();
        println!("check {} {summary}", flavour.name());
        let expected = format!("crds={KINDS} spec_properties={}", KINDS * SPEC_FIELDS);
        assert!(summary.starts_with(&expected), "expected {expected}");
        // What `cargo check` needs of the dependencies (their metadata), also not measured.
        bench.cargo(flavour, &[&command, "--lib", "--offline", "--quiet"]);
    }
    for flavour in flavours {
        let noop = bench.time(flavour, &command, false);
        println!("noop_{command}_seconds {}={:.3}", flavour.name(), noop.wall);
    }
    let mut timings: [Vec<Timing>; 2] = [Vec::new(), Vec::new()];
    for round in 0..rounds {
        // ABBA: each flavour goes first in every other round.
        let order = if round % 2 == 0 { [0, 1] } else { [1, 0] };
        for index in order {
            timings[index].push(bench.time(flavours[index], &command, true));
        }
        let [webop, kube] = [timings[0][round], timings[1][round]];
        let cpu = match (webop.cpu, kube.cpu) {
            (Some(w), Some(k)) => format!(" cpu webop={w:.2} kube={k:.2}"),
            _ => String::new(),
        };
        println!(
            "round {} webop={:.2} kube={:.2}{cpu}",
            round + 1,
            webop.wall,
            kube.wall
        );
    }
    let wall = timings
        .each_ref()
        .map(|t| median(&t.iter().map(|t| t.wall).collect::<Vec<_>>()));
    println!(
        "derive_{command}_seconds webop={:.2} kube={:.2} ratio={:.2}",
        wall[0],
        wall[1],
        wall[0] / wall[1]
    );
    let cpu = timings
        .each_ref()
        .map(|t| t.iter().map(|t| t.cpu).collect::<Option<Vec<_>>>());
    if let [Some(webop), Some(kube)] = cpu {
        let (webop, kube) = (median(&webop), median(&kube));
        println!(
            "derive_{command}_cpu_seconds webop={webop:.2} kube={kube:.2} ratio={:.2}",
            webop / kube
        );
    }
    if env::var_os("DERIVE_COMPILE_INSTRUCTIONS").is_some_and(|v| v != "0") {
        let [webop, kube] = flavours.map(|flavour| bench.instructions(flavour, &command));
        println!(
            "derive_{command}_instructions webop={webop} kube={kube} ratio={:.4}",
            webop as f64 / kube as f64
        );
    }
}

#!/usr/bin/env bash
# Time to first green: README command one, phase by phase, beside the cold build of a minimal
# kube-rs controller (the anchor) in the same run.
#
#   benches/first_green.sh [--sizes] [--keep]
#
# From a clean clone of this repository's HEAD (commit first: uncommitted changes are not
# measured), with empty target directories and a warm crate registry (`cargo fetch` runs before
# each timed build and is not timed, so no phase pays for downloads):
#
#   anchor    cold `cargo build` of a tiny kube-rs controller this script writes: a Controller
#             over ConfigMaps with kube 5 (runtime, unstable-runtime, default client features),
#             k8s-openapi 0.29 `latest` and tokio, as the generated project uses them, and the
#             generated project's dev profile;
#   install   `cargo install --locked --path <clone> --root <tmp>` (its own fresh target dir);
#   scaffold  `webop init` + `webop create api --image`;
#   manifests, build, test: `make manifests`, `make build`, `make test` of the generated project,
#             sharing its target dir, as `make manifests build test` does;
#   edit_build, edit_test: `make build` and `make test` after a change to the controller;
#   edit_manifests_N: `webop manifests` after a real API type edit, 10 samples: a new field in
#             WebAppSpec, then that field removed again, and so on (each sample recompiles the
#             API crate and its crdgen, and the CRD is checked to hold the field or not);
#   anchor_again: the anchor's cold build once more, at the end, so that a drift of the machine's
#             speed during the run weighs on both sides of the ratio alike.
#
# It prints one line per phase, the total of README command one, the ratio of the generated
# project's cold `make manifests build test` to the anchor's cold build (the mean of its two
# builds), and the median and range of the `webop manifests` samples with how many took at most
# 1 s. Each phase's output is kept in <tmp>/logs/<phase>.log; `units=` counts the crates the
# phase compiled and `again=` how many of them an earlier phase of the same target dir had
# compiled already (a second feature set or profile of the same crate).
#
# --sizes also builds both release binaries (`make build-release`, `cargo build --release`),
# strips them and prints their sizes and ratio. --keep leaves <tmp> in place.
set -euo pipefail

sizes=false
keep=false
for arg in "$@"; do
    case "$arg" in
        --sizes) sizes=true ;;
        --keep) keep=true ;;
        --bench) ;; # what `cargo bench` would pass
        *) echo "usage: benches/first_green.sh [--sizes] [--keep]" >&2; exit 2 ;;
    esac
done

# The repository this script is in, or (for a copy run from elsewhere, so that editing the script
# cannot disturb a run) the one of the current directory.
repo="$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel 2>/dev/null ||
    git rev-parse --show-toplevel)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/first-green.XXXXXX")"
logs="$tmp/logs"
mkdir -p "$logs"
cleanup() {
    if $keep; then echo "kept $tmp" >&2; else rm -rf "$tmp"; fi
}
trap cleanup EXIT
# Every build gets its own target dir: the installing clone's default, the projects' own target/.
unset CARGO_TARGET_DIR CARGO_BUILD_TARGET_DIR KUBEBUILDER_ASSETS

declare -A seconds=() units=()
phases=()
# The crates compiled so far in the current target dir: `new_target [DIR]` starts another. With
# DIR (a profile's directory, target/debug), a phase's units are the entries of DIR/.fingerprint
# that it wrote (so quiet builds count too); without, its `Compiling` lines.
declare -A compiled_before=() fingerprints_before=()
target_dir=""
new_target() {
    compiled_before=()
    fingerprints_before=()
    target_dir="${1:-}"
}
# phase NAME DIR COMMAND...: runs COMMAND in DIR, logs its output, records its wall seconds and
# the units it compiled: `units=` how many, `again=` how many of them are another build (feature
# set) of a crate that an earlier phase in the same target dir had compiled already.
phase() {
    local name="$1" dir="$2"
    shift 2
    local start end
    touch "$logs/$name.start"
    start=$(date +%s.%N)
    if ! (cd "$dir" && "$@") >"$logs/$name.log" 2>&1; then
        echo "first_green: phase $name failed: $* (in $dir); the end of $logs/$name.log:" >&2
        tail -n 40 "$logs/$name.log" >&2
        keep=true
        exit 1
    fi
    end=$(date +%s.%N)
    seconds[$name]=$(echo "$end - $start" | bc)
    phases+=("$name")
    local n=0 again=0 unit crate
    local -A now=()
    while read -r unit; do
        [[ -n "$unit" ]] || continue
        crate="${unit%-*}"
        n=$((n + 1))
        if [[ -n "${compiled_before[$crate]:-}" && -z "${fingerprints_before[$unit]:-}" ]]; then
            again=$((again + 1))
        fi
        fingerprints_before[$unit]=1
        now[$crate]=1
    done < <(
        if [[ -n "$target_dir" ]]; then
            find "$target_dir/.fingerprint" -mindepth 2 -newer "$logs/$name.start" -printf '%h\n' \
                2>/dev/null | sed 's|.*/||' | sort -u
        else
            sed -n 's/^ *Compiling \([^ ]*\) \(v[^ ]*\).*/\1@\2-x/p' "$logs/$name.log"
        fi
    )
    for crate in "${!now[@]}"; do compiled_before[$crate]=1; done
    units[$name]="units=$n again=$again"
    printf '%-15s %7.1f s  %s\n' "$name" "${seconds[$name]}" "${units[$name]}" >&2
}

git clone --quiet --no-hardlinks "$repo" "$tmp/webop"
head="$(git -C "$tmp/webop" rev-parse --short HEAD)"
echo "first_green: HEAD $head in $tmp, $(nproc) cores" >&2

# The anchor: what a kube-rs user writes first.
anchor="$tmp/anchor"
mkdir -p "$anchor/src"
cat >"$anchor/Cargo.toml" <<'EOF'
[package]
name = "anchor"
version = "0.1.0"
edition = "2024"

[dependencies]
futures = "0.3"
k8s-openapi = { version = "0.29", default-features = false, features = ["latest"] }
kube = { version = "5", features = ["runtime", "unstable-runtime"] }
serde_json = "1"
tokio = { version = "1", features = ["macros", "rt-multi-thread"] }

# The generated project's dev profile, so both sides build alike.
[profile.dev]
debug = "line-tables-only"

[profile.dev.package."*"]
debug = false
EOF
cat >"$anchor/src/main.rs" <<'EOF'
//! A minimal kube-rs controller: labels every ConfigMap it sees with its own name.
use std::{sync::Arc, time::Duration};

use futures::StreamExt;
use k8s_openapi::api::core::v1::ConfigMap;
use kube::{
    Api, Client, ResourceExt,
    api::{Patch, PatchParams},
    runtime::{Controller, controller::Action, watcher},
};

#[derive(Debug)]
struct Error(kube::Error);

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Error {}

async fn reconcile(cm: Arc<ConfigMap>, client: Arc<Client>) -> Result<Action, Error> {
    let api: Api<ConfigMap> = Api::namespaced((*client).clone(), &cm.namespace().unwrap_or_default());
    let patch = serde_json::json!({"metadata": {"labels": {"anchor/name": cm.name_any()}}});
    api.patch(&cm.name_any(), &PatchParams::apply("anchor"), &Patch::Apply(&patch))
        .await
        .map_err(Error)?;
    Ok(Action::requeue(Duration::from_secs(300)))
}

fn error_policy(_: Arc<ConfigMap>, _: &Error, _: Arc<Client>) -> Action {
    Action::requeue(Duration::from_secs(5))
}

#[tokio::main]
async fn main() -> Result<(), kube::Error> {
    let client = Client::try_default().await?;
    Controller::new(Api::<ConfigMap>::all(client.clone()), watcher::Config::default())
        .run(reconcile, error_policy, Arc::new(client))
        .for_each(|result| async move {
            if let Err(e) = result {
                eprintln!("reconcile failed: {e}");
            }
        })
        .await;
    Ok(())
}
EOF
(cd "$anchor" && cargo fetch --quiet)
new_target "$anchor/target/debug"
phase anchor "$anchor" cargo build --bin anchor

# README command one.
(cd "$tmp/webop" && cargo fetch --quiet --locked)
new_target
phase install "$tmp/webop" cargo install --locked --path . --root "$tmp/root"
export PATH="$tmp/root/bin:$PATH"
project="$tmp/webapp-operator"
mkdir -p "$project"
new_target "$project/target/debug"
phase scaffold "$project" sh -c 'webop init --domain example.com --repo github.com/example/webapp-operator &&
    webop create api --group app --version v1 --kind WebApp --image nginxinc/nginx-unprivileged:1.27 --port 8080'
(cd "$project" && cargo fetch --quiet)
phase manifests "$project" make manifests
phase build "$project" make build
phase test "$project" make test

# The incremental loop: a controller edit, then rebuild and test; a new API field, then manifests.
controller="$project/src/controller/webapp_controller.rs"
printf '\n/// The benchmark'"'"'s edit.\npub const FIRST_GREEN_EDIT: u32 = 1;\n' >>"$controller"
phase edit_build "$project" make build
phase edit_test "$project" make test
types="$project/api/src/v1/webapp_types.rs"
grep -q '^pub struct WebAppSpec {$' "$types" || { echo "first_green: no WebAppSpec in $types" >&2; exit 1; }
crd="$(ls "$project"/config/crd/bases/*webapps.yaml)"
edit_samples=10
for ((i = 1; i <= edit_samples; i++)); do
    if ((i % 2 == 1)); then
        sed -i 's|^pub struct WebAppSpec {$|pub struct WebAppSpec {\n    /// A note for the benchmark'"'"'s edit.\n    pub note: Option<String>,|' "$types"
    else
        sed -i '/^    \/\/\/ A note for the benchmark.s edit\.$/,/^    pub note: Option<String>,$/d' "$types"
    fi
    phase "edit_manifests_$i" "$project" webop manifests
    expected=$((i % 2)) found=0
    if grep -q '^ *note:$' "$crd"; then found=1; fi
    if ((found != expected)); then
        echo "first_green: after edit $i the CRD does not follow the type (field note)" >&2
        exit 1
    fi
done

rm -rf "$anchor/target"
new_target "$anchor/target/debug"
phase anchor_again "$anchor" cargo build --bin anchor

if $sizes; then
    new_target "$anchor/target/release"
    phase anchor_release "$anchor" cargo build --release --bin anchor
    new_target "$project/target/release"
    phase build_release "$project" make build-release
    strip -o "$tmp/anchor.stripped" "$anchor/target/release/anchor"
    strip -o "$tmp/operator.stripped" "$project/target/release/webapp-operator"
fi

sum() {
    local total=0 name
    for name in "$@"; do total=$(echo "$total + ${seconds[$name]}" | bc); done
    echo "$total"
}
generated=$(sum manifests build test)
readme=$(sum install scaffold manifests build test)
echo "first_green HEAD $head, $(nproc) cores, wall seconds:"
for name in "${phases[@]}"; do
    printf '  %-15s %7.1f  %s\n' "$name" "${seconds[$name]}" "${units[$name]}"
done
printf 'readme_command_one_seconds %.1f (install + scaffold + manifests + build + test)\n' "$readme"
printf 'generated_cold_seconds %.1f (make manifests, build, test)\n' "$generated"
anchor_mean=$(echo "(${seconds[anchor]} + ${seconds[anchor_again]}) / 2" | bc -l)
printf 'anchor_cold_seconds %.1f (first %.1f, again %.1f)\n' "$anchor_mean" "${seconds[anchor]}" "${seconds[anchor_again]}"
printf 'ratio_generated_to_anchor %.2f\n' "$(echo "$generated / $anchor_mean" | bc -l)"
mapfile -t edits < <(for ((i = 1; i <= edit_samples; i++)); do echo "${seconds[edit_manifests_$i]}"; done | sort -g)
within_1s=0
for s in "${edits[@]}"; do
    if (($(echo "$s <= 1" | bc))); then within_1s=$((within_1s + 1)); fi
done
printf 'edit_manifests_seconds median=%.2f min=%.2f max=%.2f within_1s=%d/%d (webop manifests after a real API type edit)\n' \
    "$(printf '%s\n' "${edits[@]}" | awk '{ v[NR] = $1 } END { print (v[int((NR + 1) / 2)] + v[int(NR / 2) + 1]) / 2 }')" \
    "${edits[0]}" "${edits[$((edit_samples - 1))]}" "$within_1s" "$edit_samples"
printf 'edit_build_test_seconds %.1f (make build + make test after a controller edit)\n' "$(sum edit_build edit_test)"
if $sizes; then
    a=$(stat -c %s "$tmp/anchor.stripped")
    o=$(stat -c %s "$tmp/operator.stripped")
    printf 'stripped_release_mib operator=%.2f anchor=%.2f ratio=%.2f\n' \
        "$(echo "$o / 1048576" | bc -l)" "$(echo "$a / 1048576" | bc -l)" "$(echo "$o / $a" | bc -l)"
fi

#!/usr/bin/env bash
# Regenerates src/schema/k8s/generated/ from k8s-openapi's schemas of every Kubernetes version
# webop supports. Needs only crates.io; takes a few minutes (k8s-openapi builds once per version).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dumps="$(mktemp -d)"
trap 'rm -rf "$dumps"' EXIT
versions=(33 34 35 36 37)
for v in "${versions[@]}"; do
    cargo run -q --manifest-path "$here/Cargo.toml" --features "v1_$v" -- dump >"$dumps/v1_$v.json"
done
cargo run -q --manifest-path "$here/Cargo.toml" --features "v1_${versions[-1]}" -- \
    emit "$root/src/schema/k8s" $(printf "$dumps/v1_%s.json " "${versions[@]}")
rustfmt --edition 2024 "$root"/src/schema/k8s/generated/*.rs

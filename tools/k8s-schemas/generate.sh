#!/usr/bin/env bash
# Regenerates core/src/schema/k8s/generated/ from the schemas controller-gen writes for the Go types of
# k8s.io/api, for every Kubernetes version webop supports (k8s-openapi's features v1_33..v1_37,
# the Go modules in go/v1_*). Needs Go (and its module proxy, or a filled module cache) and
# controller-gen ($CONTROLLER_GEN, else bin/controller-gen: tools/k8s-assets builds it). Takes a
# few minutes: the tool builds once per version to dump, and once more to verify.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
controller_gen="${CONTROLLER_GEN:-$root/bin/controller-gen}"
if [[ ! -x "$controller_gen" ]]; then
    echo "k8s-schemas: controller-gen not found at $controller_gen; run tools/k8s-assets or set CONTROLLER_GEN" >&2
    exit 1
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tool() { cargo run -q --manifest-path "$here/Cargo.toml" --features "$1" -- "${@:2}"; }
crd() { echo "$work/crd_v1_$1/schemas.webop.dev_schemas.yaml"; }

versions=(33 34 35 36 37)
for v in "${versions[@]}"; do
    module="$here/go/v1_$v"
    tool "v1_$v" go-source "$module"
    (cd "$module" && GOFLAGS=-mod=mod "$controller_gen" crd paths=./... output:dir="$work/crd_v1_$v")
    tool "v1_$v" dump "$(crd "$v")" >"$work/v1_$v.json"
done
tool "v1_${versions[-1]}" emit "$root/core/src/schema/k8s" $(printf "$work/v1_%s.json " "${versions[@]}")
rustfmt --edition 2024 "$root"/core/src/schema/k8s/generated/*.rs
for v in "${versions[@]}"; do
    tool "v1_$v,verify" verify "$(crd "$v")"
done

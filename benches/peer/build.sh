#!/bin/sh
# Builds the Go peer (the WebApp operator on controller-runtime) into the directory given as the
# first argument, or $CARGO_TARGET_DIR/peer/ (target/peer/ without it), as
# <dir>/webapp-operator-go. Go modules come through the module proxy, as tools/k8s-assets's do.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-${CARGO_TARGET_DIR:-$here/../../target}/peer}
mkdir -p "$out"
out=$(cd "$out" && pwd)
cd "$here"
# No debug information (-dwarf=false, -w), as tools/k8s-assets builds: the bench measures the
# operator, which runs the same without it, and the build takes less CPU.
GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -gcflags=all=-dwarf=false -ldflags "-w" \
  -o "$out/webapp-operator-go" .
echo "$out/webapp-operator-go"

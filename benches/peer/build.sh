#!/usr/bin/env bash
# Builds the Go peer (the WebApp operator on controller-runtime) into the directory given as the
# first argument, or $CARGO_TARGET_DIR/peer/ (target/peer/ without it), as
# <dir>/webapp-operator-go. Go modules come through the module proxy, as tools/k8s-assets's do.
#
# It builds in the reference tools' Go module (tools/go-tools.sh, under $WEBOP_ASSETS_BIN or
# <repo>/bin), which requires this module: so it compiles with the dependency versions
# kube-apiserver and the other tools compiled with, and Go's build cache holds most of its
# packages once they are built. The go.mod here stays the peer's own, for `go build` in this
# directory.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${WEBOP_ASSETS_BIN:-$root/bin}"
out="${1:-${CARGO_TARGET_DIR:-$root/target}/peer}"
mkdir -p "$out" "$bin"
out="$(cd "$out" && pwd)"
source "$root/tools/go-tools.sh"
module="$(go_tools_module)"
# No debug information (-dwarf=false, -w), as the tools build: the bench measures the operator,
# which runs the same without it, and the build takes less CPU. The symbol table stays.
(cd "$module" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -gcflags=all=-dwarf=false \
  -ldflags "-w" -o "$out/webapp-operator-go" github.com/webop-dev/webop/benches/peer)
echo "$out/webapp-operator-go"

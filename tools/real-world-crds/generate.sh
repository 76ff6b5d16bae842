#!/usr/bin/env bash
# Writes real-world CRDs for `tests/import/import_round_trip.rs` the way their projects do:
# controller-gen (bin/controller-gen, built by tools/k8s-assets; under $WEBOP_ASSETS_BIN if set, as
# there) on the API packages of each project's Go module at a pinned version, fetched into the Go
# module cache through the Go module proxy. Nothing fetched is committed: the CRDs go to
# tools/real-world-crds/out/ (git-ignored).
#
#   tools/real-world-crds/generate.sh && cargo test --test import import_round_trip::
#
# One CRD per project: Gateway API's HTTPRoute, prometheus-operator's ServiceMonitor,
# cert-manager's Certificate, external-dns's DNSEndpoint and Cluster API's Cluster. A project
# whose module cannot be fetched or generated is reported and skipped.
set -uo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bin="${WEBOP_ASSETS_BIN:-$root/bin}"
controller_gen="${CONTROLLER_GEN:-$bin/controller-gen}"
out="$here/out"
work="$bin/.build/real-world-crds"

say() { echo "real-world-crds: $*" >&2; }

[[ -x "$controller_gen" ]] || { say "error: no controller-gen at $controller_gen (run tools/k8s-assets)"; exit 1; }
command -v go >/dev/null || { say "error: go is not installed"; exit 1; }

# name | module | version | API package | CRD file controller-gen writes (<group>_<plural>.yaml)
projects=(
  "gateway-api|sigs.k8s.io/gateway-api|1.2.1|sigs.k8s.io/gateway-api/apis/v1|gateway.networking.k8s.io_httproutes.yaml"
  "prometheus-operator|github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring|0.79.2|github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1|monitoring.coreos.com_servicemonitors.yaml"
  "cert-manager|github.com/cert-manager/cert-manager|1.16.2|github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1|cert-manager.io_certificates.yaml"
  "external-dns|sigs.k8s.io/external-dns|0.15.1|sigs.k8s.io/external-dns/endpoint|externaldns.k8s.io_dnsendpoints.yaml"
  "cluster-api|sigs.k8s.io/cluster-api|1.9.4|sigs.k8s.io/cluster-api/api/v1beta1|cluster.x-k8s.io_clusters.yaml"
)

mkdir -p "$out"
status=0
for project in "${projects[@]}"; do
  IFS='|' read -r name module version package file <<<"$project"
  dir="$work/$name"
  rm -rf "$dir" && mkdir -p "$dir/crds"
  # A throwaway module that imports the API package, so that `go mod tidy` resolves just its
  # dependencies and controller-gen can load it.
  printf 'module webop.dev/real-world-crds/%s\n\ngo 1.26\n\nrequire %s v%s\n' "$name" "$module" "$version" >"$dir/go.mod"
  printf 'package tools\n\nimport _ "%s"\n' "$package" >"$dir/tools.go"
  if ! (cd "$dir" && GOFLAGS=-mod=mod go mod tidy >"$dir/tidy.log" 2>&1); then
    say "$name: cannot fetch $module@v$version (see $dir/tidy.log)"; status=1; continue
  fi
  if ! (cd "$dir" && "$controller_gen" crd paths="$package" output:crd:dir=crds >"$dir/gen.log" 2>&1); then
    say "$name: controller-gen failed (see $dir/gen.log)"; status=1; continue
  fi
  if [[ ! -f "$dir/crds/$file" ]]; then
    say "$name: controller-gen wrote no $file (it wrote: $(ls "$dir/crds" | tr '\n' ' '))"; status=1; continue
  fi
  cp "$dir/crds/$file" "$out/$file"
  say "$name: $out/$file"
done
exit $status

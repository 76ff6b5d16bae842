# Sourced by tools/k8s-assets, tools/helm and benches/peer/build.sh: the Go tools webop's tests
# run, built from one throwaway Go module.
#
# One module, so one set of dependency versions: kube-apiserver, kube-controller-manager,
# kube-scheduler, etcd, kwok, helm and the Go peer share client-go, apimachinery, grpc, otel and
# the rest, and a package one of them compiled is in Go's build cache for the others (Go keys a
# compiled package by its sources, flags and dependencies, so a single differing version of
# golang.org/x/net beneath them would compile everything above it again). Two cold CI runs on one
# machine: the Go builds took 1,033 CPU seconds with a module per tool, 677 with this one
# (controller-gen and the real-world CRDs' builds in both).
# Minimal version selection takes the newest version any of them asks for, so each builds on
# dependencies a patch or minor release newer than its own go.mod names (for example
# golang.org/x/net v0.62.0 where Kubernetes names v0.57.0); the Kubernetes, etcd, kwok and helm
# code is each one's release. controller-gen is not in it: it is the oracle of webop's CRD output
# and builds with exactly its own dependencies (tools/k8s-assets).
#
# Needs: $root (the repository) and $bin (the install root) set by the caller.

KUBERNETES_VERSION=1.37.2
# The etcd release whose client Kubernetes 1.37.2 requires, so both build from one etcd API.
ETCD_VERSION=3.7.0
KWOK_VERSION=0.8.0
# Helm 4, the maintained line (helm 3 gets no more releases).
HELM_VERSION=4.3.2

# go build, reproducible and stripped; GOFLAGS=-mod=mod lets go.sum be filled in as it resolves.
# The linker's -w drops the debug information, so the compiler need not write it: -dwarf=false
# takes about 8% off the CPU time of these builds (kwok: 237 against 218 CPU seconds, cold).
go_build() {
  local dir=$1 out=$2 ldflags=$3
  shift 3
  (cd "$dir" && GOFLAGS=-mod=mod CGO_ENABLED=0 go build -trimpath -gcflags=all=-dwarf=false \
    -ldflags "-s -w $ldflags" -o "$out" "$@")
}

# The go.mod lines that pin each staging module k8s.io/kubernetes replaces with a local directory
# (k8s.io/api, k8s.io/client-go, ...) to the matching v0.x.y release.
kubernetes_replaces() {
  local gomod
  local module="k8s.io/kubernetes@v$KUBERNETES_VERSION"
  gomod="$(cd "$bin" && GOFLAGS=-mod=mod go mod download -json "$module" |
    sed -n 's/^[[:space:]]*"GoMod": "\(.*\)",$/\1/p')"
  [[ -f "$gomod" ]] || { echo "go-tools: could not read the go.mod of $module" >&2; return 1; }
  local staging_version="0.${KUBERNETES_VERSION#1.}"
  sed -n 's#^[[:space:]]*\(replace \)\{0,1\}\(k8s\.io/[a-z0-9-]*\) => \./staging/src/.*#\2#p' "$gomod" |
    sort -u | while read -r module; do
      echo "replace $module => $module v$staging_version"
    done
}

# Prints the directory of the tools' module, writing it first unless it already says the same:
# builds that run side by side read it, and must not see it rewritten.
go_tools_module() {
  local dir="$bin/.build/tools" replaces sibling
  replaces="$(kubernetes_replaces)" || return 1
  if (($(wc -l <<<"$replaces") <= 10)); then
    echo "go-tools: found no staging modules in k8s.io/kubernetes's go.mod" >&2
    return 1
  fi
  local wanted
  wanted="$(
    echo "module webop.dev/tools"
    echo
    echo "go 1.26"
    echo
    echo "require ("
    echo "	k8s.io/kubernetes v$KUBERNETES_VERSION"
    echo "	go.etcd.io/etcd/server/v3 v$ETCD_VERSION"
    echo "	sigs.k8s.io/kwok v$KWOK_VERSION"
    echo "	helm.sh/helm/v4 v$HELM_VERSION"
    echo "	github.com/webop-dev/webop/benches/peer v0.0.0"
    echo ")"
    echo
    echo "replace github.com/webop-dev/webop/benches/peer => $root/benches/peer"
    # etcd's server module replaces its sibling modules with local paths; pin them to the release.
    for sibling in api/v3 client/pkg/v3 client/v3 pkg/v3; do
      echo "replace go.etcd.io/etcd/$sibling => go.etcd.io/etcd/$sibling v$ETCD_VERSION"
    done
    echo "$replaces"
  )"
  mkdir -p "$dir"
  if [[ ! -f "$dir/go.mod" || "$(cat "$dir/go.mod")" != "$wanted" ]]; then
    echo "$wanted" >"$dir/go.mod.new"
    mv "$dir/go.mod.new" "$dir/go.mod"
    rm -f "$dir/go.sum"
  fi
  # Blank imports keep the required modules in the graph when `go mod tidy` is not run.
  [[ -f "$dir/tools.go" ]] || echo "package tools" >"$dir/tools.go"
  echo "$dir"
}

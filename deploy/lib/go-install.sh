# Sourced by deploy/install-compose-check.sh and deploy/install-compose.sh: a Go program built
# once per machine from the Go module proxy, kept in ~/.cache/paperlist/ under a key of its
# sources and copied into <repo>/.cache/bin (instant on later runs).
#
#   go_install NAME KEY BUILD_FUNCTION
# BUILD_FUNCTION OUT builds the binary at OUT with the machine's Go (>= 1.24), in Go caches of
# its own that are deleted after it; the binary must answer `version --short`. On success
# GO_INSTALLED says where it is and how it got there; the status is non-zero when it could not.

go_install() {
  local name=$1 key=$2 build=$3
  local bin_dir=${PAPERLIST_BIN_DIR:-$ROOT/.cache/bin}
  local store_dir=${XDG_CACHE_HOME:-$HOME/.cache}/paperlist
  local target=$bin_dir/$name store=$store_dir/$name-$key how
  if [ -x "$target" ] && cmp -s "$target" "$store" 2>/dev/null; then
    GO_INSTALLED="$target (already there)"
    return 0
  fi
  mkdir -p "$bin_dir" "$store_dir"
  exec 9>"$store.lock"
  command -v flock >/dev/null 2>&1 && flock 9   # one build at a time per machine
  how="cached in $store_dir"
  if [ ! -x "$store" ]; then
    if ! command -v go >/dev/null 2>&1; then
      echo "$name: Go >= 1.24 is needed to build it (not found)" >&2
      return 1
    fi
    local start=$SECONDS log=$store_dir/build-$name.log
    GO_WORK=$(mktemp -d "$store_dir/build.XXXXXX")
    trap 'chmod -R u+w "$GO_WORK" 2>/dev/null || true; rm -rf "$GO_WORK"' EXIT
    if ! (
        export GOMODCACHE="$GO_WORK/mod" GOCACHE="$GO_WORK/cache" GOPATH="$GO_WORK/gopath" \
               GOTOOLCHAIN=local GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0
        "$build" "$GO_WORK/$name"
        "$GO_WORK/$name" version --short
      ) >"$log" 2>&1; then
      echo "$name: building it failed; see $log:" >&2
      tail -n 5 "$log" >&2
      return 1
    fi
    mv -f "$GO_WORK/$name" "$store"
    how="built from source in $((SECONDS - start))s"
  fi
  cp -f "$store" "$target.tmp" && mv -f "$target.tmp" "$target"
  GO_INSTALLED="$target ($how)"
}

#!/usr/bin/env bash
# Make Docker Compose's own loader available as <repo>/.cache/bin/compose-check, so that
# tests/unit/test_compose.py can run `config` over docker-compose.yml on machines that have
# neither a Docker engine nor Compose.
#
# `docker compose config` is Compose v2 handing the file to compose-go (schema validation,
# interpolation, merges, normalisation) and printing the project. deploy/compose-check is that
# call and nothing else, on the compose-go version Docker Compose v2.40.3 pins (v2.9.1; its
# go.mod/go.sum pin every module). Built with the machine's Go (>= 1.24) from the Go module
# proxy: ~16 s and ~25 CPU-seconds on 2 cores, where building all of Compose took ~250 s
# idle and ~1,000 s beside the tests (Debian bookworm has no Compose v2: its `docker-compose`
# is the end-of-life Python v1, which rejects the current Compose Specification). The binary
# is kept in ~/.cache/paperlist/ under the digest of its sources and copied into .cache/bin on
# later runs (instant); the Go caches of the build are deleted after it.
#
# Idempotent and quiet: prints one line; exit status non-zero when it could not install.
#   bash deploy/install-compose-check.sh
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SRC=$ROOT/deploy/compose-check
BIN_DIR=${PAPERLIST_BIN_DIR:-$ROOT/.cache/bin}
TARGET=$BIN_DIR/compose-check
STORE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/paperlist
DIGEST=$(cat "$SRC/go.mod" "$SRC/go.sum" "$SRC/main.go" | sha256sum | cut -c1-12)
STORE=$STORE_DIR/compose-check-$DIGEST

if [ -x "$TARGET" ] && cmp -s "$TARGET" "$STORE" 2>/dev/null; then
  echo "compose-check $DIGEST already at $TARGET"
  exit 0
fi

mkdir -p "$BIN_DIR" "$STORE_DIR"
exec 9>"$STORE.lock"
command -v flock >/dev/null 2>&1 && flock 9   # one build at a time per machine

how="cached in $STORE_DIR"
if [ ! -x "$STORE" ]; then
  if ! command -v go >/dev/null 2>&1; then
    echo "install-compose-check: Go >= 1.24 is needed to build deploy/compose-check (not found)" >&2
    exit 1
  fi
  start=$SECONDS
  work=$(mktemp -d "$STORE_DIR/build.XXXXXX")
  log=$STORE_DIR/build-compose-check.log
  cleanup() { chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; }
  trap cleanup EXIT
  if ! (
      export GOMODCACHE="$work/mod" GOCACHE="$work/cache" GOPATH="$work/gopath" \
             GOTOOLCHAIN=local GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0
      cd "$SRC"
      go build -trimpath -ldflags "-s -w" -o "$work/compose-check" .
      "$work/compose-check" version --short
    ) >"$log" 2>&1; then
    echo "install-compose-check: building deploy/compose-check failed; see $log:" >&2
    tail -n 5 "$log" >&2
    exit 1
  fi
  mv -f "$work/compose-check" "$STORE"
  how="built from source in $((SECONDS - start))s"
fi

cp -f "$STORE" "$TARGET.tmp" && mv -f "$TARGET.tmp" "$TARGET"
echo "compose-check $DIGEST (compose-go $("$TARGET" version --short)) installed at $TARGET ($how)"

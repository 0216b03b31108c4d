#!/usr/bin/env bash
# Make Docker Compose v2 available as <repo>/.cache/bin/docker-compose, so that
# tests/unit/test_compose.py can run `docker-compose config -q` on machines that
# have only the docker CLI (no engine, no compose plugin).
#
# `config` needs no engine. There is no compose v2 in Debian bookworm (its
# `docker-compose` package is the end-of-life Python v1, which rejects the current
# Compose Specification, e.g. the top-level `name:`), so the official source is built
# from the Go module proxy with the machine's Go (>= 1.24.9): about 2.5 minutes and
# ~1.5 GB of temporary Go caches on 2 cores, once per machine. The binary is kept in
# ~/.cache/paperlist/ and copied into .cache/bin on later runs (instant), and the Go
# caches are deleted after the build.
#
# Idempotent and quiet: prints one line; exit status non-zero when it could not install.
#   bash deploy/install-compose.sh
set -euo pipefail

COMPOSE_VERSION=v2.40.3          # last v2 tag; v5.x needs Go >= 1.26.10
MODULE=github.com/docker/compose/v2

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN_DIR=${PAPERLIST_BIN_DIR:-$ROOT/.cache/bin}
TARGET=$BIN_DIR/docker-compose
STORE_DIR=${XDG_CACHE_HOME:-$HOME/.cache}/paperlist
STORE=$STORE_DIR/docker-compose-$COMPOSE_VERSION

is_wanted() { [ -x "$1" ] && [ "$("$1" version --short 2>/dev/null)" = "${COMPOSE_VERSION#v}" ]; }

# A compose v2 plugin of the docker CLI is just as good: nothing to do.
if command -v docker >/dev/null 2>&1 && plugin=$(docker compose version --short 2>/dev/null); then
  major=${plugin#v}; major=${major%%.*}
  if [ "$major" -ge 2 ] 2>/dev/null; then
    echo "docker compose plugin $plugin present; nothing to install"
    exit 0
  fi
fi

if is_wanted "$TARGET"; then
  echo "docker-compose $COMPOSE_VERSION already at $TARGET"
  exit 0
fi

mkdir -p "$BIN_DIR" "$STORE_DIR"
exec 9>"$STORE.lock"
command -v flock >/dev/null 2>&1 && flock 9   # one build at a time per machine

how="cached in $STORE_DIR"
if ! is_wanted "$STORE"; then
  if ! command -v go >/dev/null 2>&1; then
    echo "install-compose: Go >= 1.24.9 is needed to build docker compose $COMPOSE_VERSION (not found)" >&2
    exit 1
  fi
  start=$SECONDS
  work=$(mktemp -d "$STORE_DIR/build.XXXXXX")
  log=$STORE_DIR/build-$COMPOSE_VERSION.log
  cleanup() { chmod -R u+w "$work" 2>/dev/null || true; rm -rf "$work"; }
  trap cleanup EXIT
  if ! (
      export GOMODCACHE="$work/mod" GOCACHE="$work/cache" GOPATH="$work/gopath" \
             GOTOOLCHAIN=local GOFLAGS="-buildvcs=false -mod=readonly" CGO_ENABLED=0
      cd "$work"
      go mod download "$MODULE@$COMPOSE_VERSION"
      cp -r "$GOMODCACHE/$MODULE@$COMPOSE_VERSION" src
      chmod -R u+w src
      cd src
      go build -trimpath -ldflags "-s -w -X $MODULE/internal.Version=$COMPOSE_VERSION" \
        -o "$work/docker-compose" ./cmd
      "$work/docker-compose" version --short
    ) >"$log" 2>&1; then
    echo "install-compose: building docker compose $COMPOSE_VERSION failed; see $log:" >&2
    tail -n 5 "$log" >&2
    exit 1
  fi
  mv -f "$work/docker-compose" "$STORE"
  how="built from source in $((SECONDS - start))s"
fi

cp -f "$STORE" "$TARGET.tmp" && mv -f "$TARGET.tmp" "$TARGET"
echo "docker-compose $COMPOSE_VERSION installed at $TARGET ($how)"

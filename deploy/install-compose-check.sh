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
DIGEST=$(cat "$SRC/go.mod" "$SRC/go.sum" "$SRC/main.go" | sha256sum | cut -c1-12)
# shellcheck source=lib/go-install.sh
. "$ROOT/deploy/lib/go-install.sh"

build_compose_check() {
  cd "$SRC"
  go build -trimpath -ldflags "-s -w" -o "$1" .
}

go_install compose-check "$DIGEST" build_compose_check
echo "compose-check $DIGEST (compose-go $("${PAPERLIST_BIN_DIR:-$ROOT/.cache/bin}/compose-check" version --short)) at $GO_INSTALLED"

#!/usr/bin/env bash
# Make Docker Compose v2 available as <repo>/.cache/bin/docker-compose, for deploy/compose-smoke on
# machines whose docker CLI has no compose plugin (Debian bookworm's docker.io has none, and its
# `docker-compose` package is the end-of-life Python v1).
#
# Built with the machine's Go (>= 1.24) from the Go module proxy: the module
# github.com/docker/compose/v2 at the version below, `go build ./cmd` as its Makefile does (its
# go.mod and go.sum pin every dependency; nothing is changed). Several minutes on 2 cores, once per
# machine (deploy/lib/go-install.sh keeps the binary in ~/.cache/paperlist/).
#
# Idempotent; prints one line; exit status non-zero when it could not install.
#   bash deploy/install-compose.sh
set -euo pipefail

COMPOSE_VERSION=v2.40.3
MODULE=github.com/docker/compose/v2
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=lib/go-install.sh
. "$ROOT/deploy/lib/go-install.sh"

build_compose() {
  local src
  src=$(go mod download -json "$MODULE@$COMPOSE_VERSION" \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["Dir"])')
  cd "$src"
  go build -trimpath -ldflags "-s -w -X $MODULE/internal.Version=$COMPOSE_VERSION" -o "$1" ./cmd
}

go_install docker-compose "$COMPOSE_VERSION" build_compose
echo "docker compose $("$ROOT/.cache/bin/docker-compose" version --short) at $GO_INSTALLED"

#!/bin/bash
# What the official Elasticsearch image's entrypoint does for docker-compose.yml: every
# environment variable whose name has a dot (discovery.type, xpack.security.enabled, ...) becomes
# an -E setting, and ELASTIC_PASSWORD becomes the keystore's bootstrap.password (the `elastic`
# user's password when security starts on an empty cluster).
set -euo pipefail
cd /usr/share/elasticsearch
settings=()
while IFS= read -r -d '' pair; do
  name=${pair%%=*}
  case "$name" in
    *.*) [ -n "${pair#*=}" ] && settings+=("-E" "$pair") ;;
  esac
done < <(env -0)
if [ -n "${ELASTIC_PASSWORD:-}" ]; then
  [ -f config/elasticsearch.keystore ] || bin/elasticsearch-keystore create >/dev/null
  printf '%s' "$ELASTIC_PASSWORD" | bin/elasticsearch-keystore add -x -f bootstrap.password
fi
exec bin/elasticsearch "${settings[@]}" "$@"

#!/bin/sh
# What the official nginx image's entrypoint does for docker-compose.yml: render every
# /etc/nginx/templates/*.template into /etc/nginx/conf.d with envsubst, replacing only the
# variables set in the environment, then exec the command.
set -eu
if [ "${1:-}" = "nginx" ] && [ -d /etc/nginx/templates ]; then
  if [ ! -w /etc/nginx/conf.d ]; then
    echo "$0: ERROR: /etc/nginx/templates exists, but /etc/nginx/conf.d is not writable" >&2
    exit 1
  fi
  defined=$(printf '${%s} ' $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p'))
  for template in /etc/nginx/templates/*.template; do
    [ -f "$template" ] || continue
    output=/etc/nginx/conf.d/$(basename "$template" .template)
    echo "$0: Running envsubst on $template to $output"
    envsubst "$defined" <"$template" >"$output"
  done
fi
exec "$@"

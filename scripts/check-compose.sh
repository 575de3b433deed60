#!/usr/bin/env bash
# Validates compose/docker-compose.yml (no Docker engine is needed for `config`).
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v docker-compose >/dev/null; then
  docker-compose -f compose/docker-compose.yml config --quiet
  echo "compose: docker-compose.yml is valid"
elif docker compose version >/dev/null 2>&1; then
  docker compose -f compose/docker-compose.yml config --quiet
  echo "compose: docker-compose.yml is valid"
else
  echo "compose: docker-compose not found (scripts/install-deps.sh installs it)" >&2
  exit 1
fi

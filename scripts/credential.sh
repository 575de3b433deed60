#!/usr/bin/env bash
# Prints the development password of a user from broker-config/credentials.txt.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
user="${1:?usage: scripts/credential.sh USER}"
line="$(grep -E "^${user}:" "$here/broker-config/credentials.txt" || true)"
[ -n "$line" ] || { echo "no credentials for '$user' in broker-config/credentials.txt" >&2; exit 1; }
echo "${line#*:}"

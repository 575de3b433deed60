#!/usr/bin/env bash
# Prints the generated password of an account made by the first `make run` (.run/secrets/USER),
# or of GUARDIAN_SECRETS_DIR/USER.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
user="${1:?usage: scripts/credential.sh USER}"
dir="${GUARDIAN_SECRETS_DIR:-$here/.run/secrets}"
[[ "$user" =~ ^[A-Za-z0-9_-]{1,64}$ ]] || { echo "'$user' is not an account id" >&2; exit 1; }
[ -r "$dir/$user" ] || { echo "no password for '$user' in $dir (run 'make run' once; devices enrolled later print theirs once)" >&2; exit 1; }
cat "$dir/$user"

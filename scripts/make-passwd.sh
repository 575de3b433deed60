#!/usr/bin/env bash
# Regenerate a mosquitto password file from a plaintext credentials file.
#
# usage: scripts/make-passwd.sh [CREDENTIALS [OUT]]
#   CREDENTIALS  "username:password" per line; '#' comments and blank lines are
#                skipped (default: broker-config/credentials.txt)
#   OUT          hashed password file to write (default: broker-config/passwd)
#
# mosquitto_passwd -U hashes a file *in place*, so the work is done on a private
# temp copy and OUT is replaced only when everything succeeded. The input is
# never modified. Tests call this with a temp OUT path.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
creds="${1:-$here/broker-config/credentials.txt}"
out="${2:-$here/broker-config/passwd}"

if [[ $# -gt 2 || "${1:-}" == "-h" || "${1:-}" == "--help" ]]; then
  sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
command -v mosquitto_passwd >/dev/null || { echo "make-passwd: mosquitto_passwd not found (apt-get install mosquitto)" >&2; exit 1; }
[[ -r "$creds" ]] || { echo "make-passwd: cannot read $creds" >&2; exit 1; }

tmpdir="$(mktemp -d)"
trap 'rm -rf "$tmpdir"' EXIT
plain="$tmpdir/passwd"
( umask 077; : > "$plain" )

declare -A seen=()
n=0; lineno=0
while IFS= read -r line || [[ -n "$line" ]]; do
  lineno=$((lineno + 1))
  line="${line%$'\r'}"                                  # tolerate CRLF files
  [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue       # comment / blank
  user="${line%%:*}"
  pass="${line#*:}"
  if [[ "$line" != *:* || -z "$pass" ]]; then
    echo "make-passwd: $creds:$lineno: expected username:password" >&2; exit 1
  fi
  if [[ ! "$user" =~ ^[A-Za-z0-9_-]{1,64}$ ]]; then
    echo "make-passwd: $creds:$lineno: username '$user' must match [A-Za-z0-9_-]{1,64}" >&2; exit 1
  fi
  if [[ -n "${seen[$user]:-}" ]]; then
    echo "make-passwd: $creds:$lineno: duplicate username '$user'" >&2; exit 1
  fi
  seen[$user]=1
  printf '%s:%s\n' "$user" "$pass" >> "$plain"
  n=$((n + 1))
done < "$creds"

[[ $n -gt 0 ]] || { echo "make-passwd: no credentials in $creds" >&2; exit 1; }

mosquitto_passwd -U "$plain"          # hash in place (the temp copy only)

mkdir -p "$(dirname "$out")"
# Readable by the broker inside the compose container (runs as uid 1883), not world-writable.
chmod 644 "$plain"
cp "$plain" "$out.tmp.$$"                 # same directory as OUT, so the rename is atomic
mv -f "$out.tmp.$$" "$out"
echo "make-passwd: wrote $n users to $out" >&2

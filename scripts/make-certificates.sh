#!/usr/bin/env bash
# Makes the broker's TLS certificate on first start: a private CA for this installation (ca.crt,
# ca.key) and a server certificate signed by it (server.crt, server.key). Does nothing when
# DIR/server.crt exists already, so your own certificate (put there, or named by the GUARDIAN_TLS_*
# variables) is never overwritten.
#
# usage: scripts/make-certificates.sh DIR [NAME...]
#   DIR   where to write the files (created, mode 700)
#   NAME  host names or IP addresses the broker is reached by, besides localhost, 127.0.0.1, ::1,
#         broker (its compose name) and this machine's host name; also GUARDIAN_TLS_HOSTNAMES
#         (space- or comma-separated)
set -euo pipefail
dir="${1:?usage: scripts/make-certificates.sh DIR [NAME...]}"
shift
[ -f "$dir/server.crt" ] && exit 0
command -v openssl >/dev/null || { echo "make-certificates: openssl not found (apt-get install openssl)" >&2; exit 1; }
mkdir -p "$dir"
chmod 700 "$dir"

names=(localhost 127.0.0.1 ::1 broker "$(hostname)" "$@")
IFS=', ' read -r -a extra <<< "${GUARDIAN_TLS_HOSTNAMES:-}"
names+=("${extra[@]}")
san=""
declare -A seen=()
for name in "${names[@]}"; do
  [ -n "$name" ] && [ -z "${seen[$name]:-}" ] || continue
  seen[$name]=1
  if [[ "$name" =~ ^[0-9.]+$ || "$name" == *:* ]]; then san+="IP:$name,"; else san+="DNS:$name,"; fi
done
san="${san%,}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
( umask 077
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 3650 \
    -subj "/CN=Guardian local CA" -keyout "$work/ca.key" -out "$work/ca.crt" 2>/dev/null
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes \
    -subj "/CN=${names[4]:-localhost}" -keyout "$work/server.key" -out "$work/server.csr" 2>/dev/null
  printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' "$san" > "$work/ext"
  openssl x509 -req -in "$work/server.csr" -CA "$work/ca.crt" -CAkey "$work/ca.key" -CAcreateserial \
    -days 825 -extfile "$work/ext" -out "$work/server.crt" 2>/dev/null )
# The CA certificate is public (phones need it); the keys are not.
chmod 644 "$work/ca.crt" "$work/server.crt"
mv "$work/ca.key" "$work/ca.crt" "$work/server.key" "$dir/"
mv "$work/server.crt" "$dir/server.crt"
echo "make-certificates: wrote $dir/ca.crt (give it to phones) and a server certificate for ${san//,/ }" >&2

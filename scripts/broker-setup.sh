#!/usr/bin/env bash
# Prepares a native mosquitto for Guardian in STATE (what `make run` and the demo share):
#   - on first start, a generated password for admin and every service (and, with --samples, the
#     README's sample accounts) in STATE/secrets/, and the dynamic-security plugin's account file
#     STATE/security/dynamic-security.json (hashes only); later starts reuse them;
#   - a TLS certificate in GUARDIAN_TLS_DIR (default STATE/tls/), made on first start unless yours is there;
#   - STATE/mosquitto.conf: broker-config/mosquitto.conf with this machine's ports and paths, plain
#     MQTT on loopback only, TLS on every interface.
#
# usage: scripts/broker-setup.sh STATE PLAIN_PORT TLS_PORT [--samples]
#   GUARDIAN_BIN: the folder of the built executables (the `guardian` CLI writes the accounts)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
state="${1:?usage: broker-setup.sh STATE PLAIN_PORT TLS_PORT [--samples]}"
plain="${2:?plain port}"
tls="${3:?TLS port}"
samples=()
[ "${4:-}" = "--samples" ] && samples=(--samples)
bin="${GUARDIAN_BIN:-$root/.build/debug}"
tls_dir="${GUARDIAN_TLS_DIR:-$state/tls}"

plugin=""
for candidate in /usr/lib/x86_64-linux-gnu/mosquitto_dynamic_security.so /usr/lib/aarch64-linux-gnu/mosquitto_dynamic_security.so \
                 /usr/lib/mosquitto_dynamic_security.so /usr/local/lib/mosquitto_dynamic_security.so; do
  [ -f "$candidate" ] && { plugin="$candidate"; break; }
done
[ -n "$plugin" ] || { echo "broker-setup: mosquitto's dynamic-security plugin is not installed (apt-get install mosquitto)" >&2; exit 1; }

mkdir -p "$state/broker" "$state/security"
chmod 700 "$state/security"
"$bin/guardian" broker init --security-file "$state/security/dynamic-security.json" --secrets "$state/secrets" "${samples[@]}"
"$root/scripts/make-certificates.sh" "$tls_dir"

sed -e "s|^listener 1883.*|listener $plain 127.0.0.1|" \
    -e "s|^listener 8883.*|listener $tls|" \
    -e "s|^plugin .*|plugin $plugin|" \
    -e "s|^plugin_opt_config_file .*|plugin_opt_config_file $state/security/dynamic-security.json|" \
    -e "s|^cafile .*|cafile $tls_dir/ca.crt|" \
    -e "s|^certfile .*|certfile $tls_dir/server.crt|" \
    -e "s|^keyfile .*|keyfile $tls_dir/server.key|" \
    -e "s|^persistence_location .*|persistence_location $state/broker/|" \
    -e "s|^log_dest .*|log_dest file ${GUARDIAN_BROKER_LOG:-$state/mosquitto.log}|" \
    "$root/broker-config/mosquitto.conf" > "$state/mosquitto.conf"
# The broker runs as whoever runs Guardian, except root: then, as in the compose image, as the
# unprivileged `mosquitto` user. mosquitto 2.0 opens its log and loads its certificate after it
# switches, so that user gets what the broker writes (its persistence, the account file it rewrites
# on every change, its log) and its own copy of the certificate and key (STATE/broker-tls, renewed on
# every start; the originals stay as they are). Where that user cannot reach STATE (a private folder
# above it), the broker stays root and says so. See broker-config/README.md.
log="${GUARDIAN_BROKER_LOG:-$state/mosquitto.log}"
if [ "$(id -u)" -eq 0 ] && id mosquitto >/dev/null 2>&1; then
  broker_tls="$state/broker-tls"
  touch "$log"
  chown -R mosquitto: "$state/broker" "$state/security"
  chown mosquitto: "$log"
  install -d -m 700 -o mosquitto -g mosquitto "$broker_tls"
  install -m 600 -o mosquitto -g mosquitto "$tls_dir/ca.crt" "$tls_dir/server.crt" "$tls_dir/server.key" "$broker_tls/"
  if runuser -u mosquitto -- sh -c 'test -w "$1" && test -w "$2" && test -w "$3" && test -r "$4/server.key"' - \
      "$state/broker" "$state/security" "$log" "$broker_tls" 2>/dev/null; then
    sed -i -e "s|^cafile .*|cafile $broker_tls/ca.crt|" -e "s|^certfile .*|certfile $broker_tls/server.crt|" \
        -e "s|^keyfile .*|keyfile $broker_tls/server.key|" "$state/mosquitto.conf"
    echo "user mosquitto" >> "$state/mosquitto.conf"
  else
    echo "broker-setup: the mosquitto user cannot reach $state (a private folder above it), so the broker runs as root" >&2
    echo "user root" >> "$state/mosquitto.conf"
  fi
else
  echo "user $(id -un)" >> "$state/mosquitto.conf"
fi

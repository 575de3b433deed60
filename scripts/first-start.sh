#!/usr/bin/env bash
# docker compose's `init` service (installed in the image as guardian-first-start): on the first
# `up`, generates every password, the broker's account file and the TLS certificate, and hands each
# file to the user that reads it (the broker runs as uid 1883, the services as uid 10001). Later
# `up`s find them and change nothing.
set -euo pipefail
secrets=/run/guardian/secrets
security=/mosquitto/security
tls=/mosquitto/tls
first=0
[ -f "$security/dynamic-security.json" ] || first=1
guardian broker init --security-file "$security/dynamic-security.json" --secrets "$secrets"
make-certificates "$tls"
chown -R 1883:1883 "$security"
# mosquitto drops to uid 1883 before it opens the certificate and key, and cannot chown the
# read-only TLS mount itself: a folder make-certificates made (it holds the CA's key) and its server
# key are handed to 1883. A folder of your own (GUARDIAN_TLS_DIR) is left as it is: make it and
# server.key readable by uid 1883.
if [ -f "$tls/ca.key" ]; then chown 1883:1883 "$tls" "$tls/server.key"; fi
chown -R 10001 "$secrets"
if [ "$first" = 1 ]; then
  echo "Guardian: passwords generated for admin and every service. Read the admin's once with:"
  echo "  docker compose -f compose/docker-compose.yml exec broker cat /run/guardian/secrets/admin"
  echo "Phones connect with TLS on port ${GUARDIAN_MQTT_TLS_PORT:-8883}; give them $tls/ca.crt:"
  echo "  docker compose -f compose/docker-compose.yml exec broker cat $tls/ca.crt > ca.crt"
fi

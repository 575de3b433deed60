#!/usr/bin/env bash
# Runs Guardian natively: mosquitto with broker-config/ plus every service binary that exists,
# logs under .run/logs, state under .run/. Ctrl-C (or `make stop`) stops everything cleanly: the
# services first, the broker last.
#
# Environment: GUARDIAN_BIN (folder of the built executables), GUARDIAN_PORT (plain MQTT on
# loopback, default 1883), GUARDIAN_TLS_PORT (TLS on every interface, default 8883), GUARDIAN_TLS_DIR,
# GUARDIAN_CONSOLE_PORT (the family console on loopback, default 8080), GUARDIAN_RUN_DIR (the state
# folder, default .run in the checkout).
#
# While it runs, .run/connection holds the broker's URL: the guardian CLI run anywhere in the
# checkout reads it (and the generated passwords in .run/secrets/) when GUARDIAN_MQTT_URL is unset.
# Whichever signal stops it (INT, TERM, HUP), it stops everything it started before it exits.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
run="${GUARDIAN_RUN_DIR:-$root/.run}"
lock="$run/run.pid"
services=(ingest geofence timeline predictor command-router notifier)

if [ "${1:-}" = "--stop" ]; then
  if [ -f "$lock" ] && pid="$(cat "$lock")" && kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" && echo "stopping Guardian (pid $pid)"
    # It exits once every process it started has ended (SIGKILL after GUARDIAN_STOP_SECONDS).
    deadline=$((SECONDS + ${GUARDIAN_STOP_SECONDS:-60} + 10))
    while kill -0 "$pid" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "Guardian (pid $pid) has not stopped yet"
      exit 1
    fi
    echo "stopped."
  else
    echo "Guardian is not running from this checkout"
  fi
  exit 0
fi

mkdir -p "$run/logs" "$run/data"
if [ -f "$lock" ] && kill -0 "$(cat "$lock")" 2>/dev/null; then
  echo "Guardian is already running from this checkout (pid $(cat "$lock"), port $(cat "$run/port" 2>/dev/null || echo '?'))."
  echo "Use it as it is, or stop it with Ctrl-C in its terminal or 'make stop'."
  exit 1
fi
echo $$ > "$lock"

pids=()
# Whether a process started here still runs (one that ended is a zombie until waited for).
running() { local stat; stat="$(cat "/proc/$1/stat" 2>/dev/null)" && [ "$(echo "${stat##*) }" | cut -d' ' -f1)" != Z ]; }
# Sends SIGTERM to the given processes and waits for them; any still running after
# GUARDIAN_STOP_SECONDS (default 60) gets SIGKILL.
stop_pids() {
  local pid deadline=$((SECONDS + ${GUARDIAN_STOP_SECONDS:-60}))
  [ $# -gt 0 ] && kill -TERM "$@" 2>/dev/null
  for pid in "$@"; do
    while running "$pid" && [ "$SECONDS" -lt "$deadline" ]; do sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null
  done
}
stop_all() {
  local status="$1"
  # Whatever happens meanwhile, the stop goes to its end: a closed terminal (writing fails), a
  # second Ctrl-C. What was started runs in sessions of its own, so nothing else stops it.
  set +e
  trap '' INT TERM HUP
  trap - EXIT
  { echo; echo "stopping Guardian…"; } 2>/dev/null
  # The services (and the log tail) first, each leaving the broker cleanly; the broker (the first
  # started) once they are gone.
  stop_pids "${pids[@]:1}"
  stop_pids "${pids[@]:0:1}"
  rm -f "$lock" "$run/connection"
  echo "stopped." 2>/dev/null
  exit "$status"
}
# A signal is the normal way to stop (status 0); otherwise the script's own exit status stands.
trap 'stop_all 0' INT TERM HUP
trap 'stop_all $?' EXIT

bin="${GUARDIAN_BIN:-$root/.build/debug}"
free_port() { local p="$1"; while (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; do p=$((p + 1)); done; echo "$p"; }
# Another broker (a system mosquitto, another checkout) on a port: take the next free one.
port="$(free_port "${GUARDIAN_PORT:-1883}")"
tls_port="$(free_port "${GUARDIAN_TLS_PORT:-8883}")"
[ "$tls_port" = "$port" ] && tls_port="$(free_port $((port + 1)))"
console_port="$(free_port "${GUARDIAN_CONSOLE_PORT:-8080}")"
echo "$port" > "$run/port"

# The broker: first start generates every password (.run/secrets/) and the TLS certificate.
first_start=0
[ -f "$run/security/dynamic-security.json" ] || first_start=1
GUARDIAN_BIN="$bin" GUARDIAN_BROKER_LOG="$run/logs/mosquitto.log" "$root/scripts/broker-setup.sh" "$run" "$port" "$tls_port" --samples
conf="$run/mosquitto.conf"
tls_dir="${GUARDIAN_TLS_DIR:-$run/tls}"

# Everything runs in a session of its own (setsid), out of the terminal's process group: Ctrl-C
# reaches only this script, whose trap stops the services first and the broker last (a broker
# stopped together with them would leave them stopping without it).
setsid mosquitto -c "$conf" &
pids+=($!)
for _ in $(seq 1 100); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.05; done

started=()
for service in "${services[@]}"; do
  [ -x "$bin/$service" ] || continue
  GUARDIAN_MQTT_URL="mqtt://127.0.0.1:$port" \
  GUARDIAN_MQTT_USERNAME="$service" \
  GUARDIAN_MQTT_PASSWORD_FILE="$run/secrets/$service" \
  GUARDIAN_DATA_DIR="$run/data" \
  GUARDIAN_INSTANCE_ID="${GUARDIAN_INSTANCE_ID:-local}" \
    setsid "$bin/$service" >>"$run/logs/$service.log" 2>&1 &
  pids+=($!)
  started+=("$service")
done

# The family console: no credentials of its own; parents sign in with theirs.
if [ -x "$bin/console" ]; then
  GUARDIAN_MQTT_URL="mqtt://127.0.0.1:$port" \
  GUARDIAN_CONSOLE_HOST=127.0.0.1 \
  GUARDIAN_CONSOLE_PORT="$console_port" \
    setsid "$bin/console" >>"$run/logs/console.log" 2>&1 &
  pids+=($!)
  started+=(console)
fi

cat > "$run/connection" <<TXT
# Written by scripts/run-local.sh (make run) while it runs, removed when it stops: the guardian CLI run
# in this checkout connects to this broker, with a password from secrets/, when GUARDIAN_MQTT_URL is unset.
url=mqtt://127.0.0.1:$port
instance=${GUARDIAN_INSTANCE_ID:-local}
TXT

if [ "$first_start" = 1 ]; then
  # The sample family, so that parent-alex sees tablet-sam in the console (as admin: also the family role).
  GUARDIAN_MQTT_URL="mqtt://127.0.0.1:$port" GUARDIAN_MQTT_USERNAME=admin GUARDIAN_MQTT_PASSWORD="$(cat "$run/secrets/admin")" \
    "$bin/guardian" family set fam-sam --parent parent-alex --child tablet-sam=Sam >/dev/null 2>&1 \
    || echo "(could not set the sample family: run guardian family set as admin)"
  cat <<TXT

First start: every password was generated into $run/secrets/ (one file each, readable by you only).
Read the admin's once with:   scripts/credential.sh admin
TXT
fi
cat <<TXT

Guardian is running: mosquitto on 127.0.0.1:$port (plain, this machine only) and :$tls_port (TLS, for phones),
services: ${started[*]:-none built}
Logs: $run/logs/ (mosquitto.log, one per service)   State: $run/data/   Certificate: $tls_dir/ca.crt

Watch events, errors and notifications (another terminal):
  mosquitto_sub -p $port -u admin -P "\$(scripts/credential.sh admin)" -v -t 'guardian/events/#' -t 'guardian/errors/#' -t 'guardian/notifications/#'

Publish a sample location as phone-alice (over TLS, as a phone would):
  mosquitto_pub -p $tls_port --cafile $tls_dir/ca.crt -h localhost -u phone-alice -P "\$(scripts/credential.sh phone-alice)" -q 1 \\
    -t guardian/devices/phone-alice/location -f samples/location.json

Family console: http://127.0.0.1:$console_port/  (sign in as parent-alex, password: scripts/credential.sh parent-alex)

The guardian CLI run in this checkout finds this broker and its passwords by itself (user guardian-cli):
  $bin/guardian status
Enrol a phone (as admin):  GUARDIAN_MQTT_USERNAME=admin $bin/guardian devices add phone-bo --role device
More samples: samples/README.md. Ctrl-C stops everything.
TXT

# Show the services' logs here until stopped (the broker's is in $run/logs/mosquitto.log). `tail`
# itself is the background job (not a subshell around it), so that stopping it stops the tail.
service_logs=()
for service in "${started[@]}"; do service_logs+=("$run/logs/$service.log"); done
if [ ${#service_logs[@]} -gt 0 ]; then
  setsid tail -n 0 -F "${service_logs[@]}" &
  pids+=($!)
fi
while true; do
  for pid in "${pids[@]}"; do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "a Guardian process (pid $pid) exited; see $run/logs/" >&2
      exit 1
    fi
  done
  sleep 1
done

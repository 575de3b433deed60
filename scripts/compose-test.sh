#!/usr/bin/env bash
# make compose-test: the real compose/docker-compose.yml on a real container engine (podman, driven by
# Docker's compose CLI through podman's Docker API), tested from outside with real clients on the
# published ports. Installs and configures what is missing, makes stand-ins of the upstream images
# that cannot be pulled (scripts/compose-stand-ins.sh), builds the Guardian image from host-built
# executables (compose/docker-compose.compose-test.yml, the one override), then runs scenarios a-h
# (README: Docker). Everything it starts is stopped at the end, whatever happens. Prints
# "compose-test: N passed, N failed" and exits non-zero on any failure.
#
# GUARDIAN_BIN: the folder of host-built executables (default: `swift build --show-bin-path`).
# The whole script is one block, read before it runs: editing the file meanwhile cannot derail a run.
{
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
started_at=$(date +%s)
project=guardiantest
sock_dir="$(mktemp -d /tmp/guardian-compose.XXXXXX)"
work="$sock_dir"
export DOCKER_HOST="unix://$sock_dir/podman.sock"
export COMPOSE_PROJECT_NAME=$project COMPOSE_HTTP_TIMEOUT=600
passed=0 failed=0 failures=()
service_pid="" health_pid="" helper_pids=()
declare -A collectors=()

say() { echo "compose-test: $*"; }
dc() { docker-compose -f compose/docker-compose.yml -f compose/docker-compose.compose-test.yml "$@"; }
containers() { podman ps -a --filter "label=com.docker.compose.project=$project" --format '{{.Names}}' "$@"; }

cleanup() {
  set +e
  for pid in "${helper_pids[@]}"; do kill "$pid" 2>/dev/null; done
  if [ -S "$sock_dir/podman.sock" ]; then
    dc down -v --remove-orphans --timeout 10 >/dev/null 2>&1
  fi
  for c in $(containers); do podman rm -f -t 5 "$c" >/dev/null 2>&1; done
  for v in $(podman volume ls -q --filter "label=com.docker.compose.project=$project"); do podman volume rm -f "$v" >/dev/null 2>&1; done
  # The anonymous volumes of replicas removed by a scale-down (compose leaves them): unnamed, made
  # during this run, and used by no container.
  for v in $(podman volume ls -q); do
    [[ "$v" =~ ^[0-9a-f]{64}$ ]] && ! grep -qx "$v" "$work/volumes-before" 2>/dev/null && podman volume rm "$v" >/dev/null 2>&1
  done
  [ -n "$health_pid" ] && kill "$health_pid" 2>/dev/null && wait "$health_pid" 2>/dev/null
  [ -n "$service_pid" ] && kill "$service_pid" 2>/dev/null && wait "$service_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# --- the engine -----------------------------------------------------------------------------------
need=()
# dnsname: compose services find each other by name (podman 4.3 with CNI networks).
for p in podman runc golang-github-containernetworking-plugin-dnsname mmdebstrap docker-compose mosquitto-clients openssl curl; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
  say "installing ${need[*]}"
  sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
  DEBIAN_FRONTEND=noninteractive $sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null \
    || { say "could not install ${need[*]}"; exit 1; }
fi
python3 -c "import paho.mqtt" 2>/dev/null || python3 -m pip install -q -r Tests/ComposeTests/requirements.txt 2>/dev/null \
  || python3 -m pip install -q --break-system-packages -r Tests/ComposeTests/requirements.txt || { say "could not install paho-mqtt"; exit 1; }
# podman here: runc (crun refuses hybrid cgroups), no default nproc limit (refused), cgroupfs (no
# systemd). A drop-in of its own, so every other setting of containers.conf stays as it is.
conf=/etc/containers/containers.conf.d/50-guardian-compose-test.conf
if ! [ -f "$conf" ]; then
  mkdir -p "$(dirname "$conf")"
  printf '%s\n' "# Written by Guardian's scripts/compose-test.sh: what podman needs on a machine without systemd." \
    '[containers]' 'default_ulimits = []' '[engine]' 'runtime = "runc"' 'cgroup_manager = "cgroupfs"' > "$conf"
fi
podman volume ls -q > "$work/volumes-before"
podman system service --time=0 "$DOCKER_HOST" > "$work/podman-service.log" 2>&1 &
service_pid=$!
for _ in $(seq 600); do curl -fs --unix-socket "$sock_dir/podman.sock" http://d/_ping >/dev/null 2>&1 && break; sleep 0.1; done
curl -fs --unix-socket "$sock_dir/podman.sock" http://d/_ping >/dev/null || { say "podman's API did not start: $(tail -3 "$work/podman-service.log")"; exit 1; }

scripts/compose-stand-ins.sh || { say "could not make the stand-in images"; exit 1; }
if ! out="$(podman run --rm docker.io/library/debian:bookworm-slim true 2>&1)"; then
  if grep -qiE 'namespace|unshare|cgroup|operation not permitted|permission denied' <<<"$out"; then
    say "SKIPPED: this kernel cannot run containers ($(tail -1 <<<"$out" | cut -c1-160))"
    exit 0
  fi
  say "podman cannot run a container: $out"; exit 1
fi

# --- the Guardian image: host-built guardian-all in the Dockerfile's runtime stage --------------
bin="${GUARDIAN_BIN:-$(swift build --show-bin-path)}"
if ! [ -x "$bin/guardian-all" ]; then swift build --product guardian-all 2>&1 | tail -3; fi
scripts/stage-binaries.sh "$bin" .build/compose-binaries || exit 1
t=$(date +%s)
dc build -q init >"$work/build.log" 2>&1 || { cat "$work/build.log"; say "the Guardian image did not build"; exit 1; }
image_size=$(podman image inspect --format '{{.Size}}' guardian:latest)
base_size=$(podman image inspect --format '{{.Size}}' docker.io/library/debian:bookworm-slim)
say "Guardian image built in $(( $(date +%s) - t )) s: $(numfmt --to=si "$image_size")B ($(numfmt --to=si $((image_size - base_size)))B over its base), guardian-all (debug) from $bin"

# Healthchecks: podman runs them from systemd timers, and there is no systemd here.
( while true; do
    for c in $(podman ps --filter "label=com.docker.compose.project=$project" --filter health=starting --filter health=healthy --filter health=unhealthy --format '{{.Names}}' 2>/dev/null); do
      podman healthcheck run "$c" >/dev/null 2>&1 &
    done
    wait; sleep 2
  done ) &
health_pid=$!

# --- helpers --------------------------------------------------------------------------------------
check() { # check NAME COMMAND...: a scenario's verdict
  local name="$1"; shift
  local t0=$(date +%s)
  say "== $name"
  if "$@"; then passed=$((passed + 1)); say "PASS $name ($(( $(date +%s) - t0 )) s)"
  else failed=$((failed + 1)); failures+=("$name"); say "FAIL $name ($(( $(date +%s) - t0 )) s)"; fi
}
fail() { say "  failed: $*"; return 1; }
services=(broker ingest geofence timeline predictor notifier command-router console console-tls)
container_of() { podman ps -a --filter "label=com.docker.compose.project=$project" --filter "label=com.docker.compose.service=$1" --format '{{.Names}}'; }
health_of() { podman inspect --format '{{if .State.Health}}{{.State.Health.Status}}{{else}}none{{end}}' "$1" 2>/dev/null; }
# Waits (ceiling: $2 s, default 300) until init has exited 0 and every container of every service is healthy.
wait_healthy() {
  local ceiling="${1:-300}" deadline=$(( $(date +%s) + ${1:-300} )) pending
  while [ "$(date +%s)" -lt "$deadline" ]; do
    pending=""
    [ "$(podman inspect --format '{{.State.Status}} {{.State.ExitCode}}' "$(container_of init)" 2>/dev/null)" = "exited 0" ] || pending+=" init"
    for s in "${services[@]}"; do
      local cs; cs="$(container_of "$s")"
      [ -n "$cs" ] || { pending+=" $s"; continue; }
      for c in $cs; do [ "$(health_of "$c")" = healthy ] || pending+=" $c($(health_of "$c"))"; done
    done
    [ -z "$pending" ] && return 0
    sleep 1
  done
  say "  not healthy within $ceiling s:$pending"
  for c in $pending; do c="${c%%(*}"; podman logs --tail 5 "$c" 2>&1 | sed "s/^/  $c: /"; done
  return 1
}
secret() { dc exec -T broker cat "/run/guardian/secrets/$1"; }
as_admin() { dc exec -T -e GUARDIAN_MQTT_USERNAME=admin -e GUARDIAN_MQTT_PASSWORD_FILE=/run/guardian/secrets/admin ingest guardian "$@"; }
tls_pub() { mosquitto_pub -h 127.0.0.1 -p 8883 --cafile "$work/ca.crt" -V mqttv5 -q 1 "$@"; }
tls_sub() { mosquitto_sub -h 127.0.0.1 -p 8883 --cafile "$work/ca.crt" -V mqttv5 "$@"; }
copy_ca() { dc exec -T broker cat /mosquitto/tls/ca.crt > "$work/ca.crt" && [ -s "$work/ca.crt" ]; }
# A subscriber over TLS in the background, ready once it has subscribed: collect NAME USER PASSWORD TOPIC...
collect() {
  local name="$1" user="$2" password="$3"; shift 3
  local topics=(); for t in "$@"; do topics+=(--topic "$t"); done
  rm -f "$work/$name.out" "$work/$name.out.ready"
  MQTT_PASSWORD="$password" python3 Tests/ComposeTests/compose_mqtt.py collect --cafile "$work/ca.crt" --user "$user" --name "$name" "${topics[@]}" --out "$work/$name.out" &
  helper_pids+=($!); collectors[$name]=$!
  for _ in $(seq 1200); do [ -f "$work/$name.out.ready" ] && return 0; sleep 0.1; done
  fail "subscriber $name never subscribed"
}
stop_collect() { kill "${collectors[$1]}" 2>/dev/null; wait "${collectors[$1]}" 2>/dev/null; true; }
# Waits until FILE has a line matching PATTERN (ceiling $3 s).
wait_line() { local deadline=$(( $(date +%s) + ${3:-180} )); while [ "$(date +%s)" -lt "$deadline" ]; do grep -q "$2" "$1" 2>/dev/null && return 0; sleep 0.5; done; fail "nothing matching '$2' in $(basename "$1") within ${3:-180} s"; }
retained() { mosquitto_sub -h 127.0.0.1 -p 8883 --cafile "$work/ca.crt" -u admin -P "$admin_pw" -t "$1" --retained-only -W "${2:-5}" -v 2>/dev/null; true; }

# A phone at 10 fixes/s (steady_start DEVICE PASSWORD), its events collected by admin; steady_stop
# waits for every acknowledged fix to become an event and counts lost and doubled ones.
steady_start() {
  steady_device="$1"
  collect "events-$1" admin "$admin_pw" "guardian/events/$1/location" || return 1
  rm -f "$work/stop-$1" "$work/acked-$1"
  MQTT_PASSWORD="$2" python3 Tests/ComposeTests/compose_mqtt.py steady --cafile "$work/ca.crt" --user "$1" --rate 10 \
    --stop-file "$work/stop-$1" --out "$work/acked-$1" > "$work/phone-$1.log" 2>&1 &
  steady_pid=$!; helper_pids+=($!)
}
steady_stop() {
  local d="$steady_device" minimum="${1:-1}"
  touch "$work/stop-$d"; wait "$steady_pid"; cat "$work/phone-$d.log" | sed 's/^/  /'
  local acked; acked=$(wc -l < "$work/acked-$d")
  # Every acknowledged fix's event and then the sentinel's, or no new event for 60 s (what is
  # lost never comes), within a ceiling.
  local deadline=$(( $(date +%s) + 300 )) seen=-1 quiet_since; quiet_since=$(date +%s)
  local sentinel; sentinel="$(cat "$work/acked-$d.sentinel" 2>/dev/null)"
  while [ "$(date +%s)" -lt "$deadline" ]; do
    if [ -n "$sentinel" ] && grep -qF "\"ts\":\"$sentinel\"" "$work/events-$d.out"; then
      [ "$(python3 -c 'import json,sys; print(len({json.loads(l)["ts"] for l in open(sys.argv[1]) if l.strip()}))' "$work/events-$d.out")" -gt "$acked" ] && break
    fi
    local n; n=$(wc -l < "$work/events-$d.out")
    if [ "$n" != "$seen" ]; then seen=$n; quiet_since=$(date +%s); fi
    [ $(( $(date +%s) - quiet_since )) -ge 60 ] && break
    sleep 1
  done
  stop_collect "events-$d"
  python3 - "$work/acked-$d" "$work/events-$d.out" "$minimum" "$sentinel" <<'PY'
import collections, json, sys
acked = [l.strip() for l in open(sys.argv[1]) if l.strip()]
events = collections.Counter(json.loads(l)["ts"] for l in open(sys.argv[2]) if l.strip())
events.pop(sys.argv[4], None)
lost = [ts for ts in acked if events[ts] == 0]
doubled = sum(n - 1 for n in events.values() if n > 1)
print(f"compose-test:   {len(acked)} fixes acknowledged, {len(events)} became events: {len(lost)} lost, {doubled} doubled")
sys.exit(0 if len(acked) >= int(sys.argv[3]) and not lost and not doubled else 1)
PY
}

# --- scenarios ------------------------------------------------------------------------------------
dc down -v --remove-orphans --timeout 10 >/dev/null 2>&1

scenario_a() {
  local t0; t0=$(date +%s.%N)
  dc up -d >"$work/up.log" 2>&1 || { cat "$work/up.log"; return 1; }
  wait_healthy 300 || return 1
  healthy_after=$(python3 -c "import sys,time; print(f'{time.time() - float(sys.argv[1]):.0f}')" "$t0")
  say "  first up to every service healthy: $healthy_after s"
  [ "$(dc logs --no-color init | grep -c 'passwords generated')" = 1 ] || fail "init did not generate the passwords exactly once" || return 1
  admin_pw="$(secret admin)"
  [ "${#admin_pw}" -ge 20 ] || fail "the admin's password is not readable as the README says" || return 1
  copy_ca || fail "ca.crt could not be copied out" || return 1
  tls_pub -u admin -P "$admin_pw" -t guardian/compose-test/hello -m hi || fail "admin cannot publish over TLS on 8883"
}

scenario_b() {
  local enrolled
  enrolled="$(as_admin devices add phone-kid --role child)" || fail "guardian devices add (in a container) failed" || return 1
  kid_pw="$(sed -n 's/^password: //p' <<<"$enrolled")"
  enrolled="$(as_admin devices add parent-pat --role parent)" || fail "could not enrol the parent" || return 1
  pat_pw="$(sed -n 's/^password: //p' <<<"$enrolled")"
  [ -n "$kid_pw" ] && [ -n "$pat_pw" ] || fail "no password printed by devices add" || return 1
  as_admin family set pat --parent parent-pat --child phone-kid=Kid >/dev/null || fail "family set failed" || return 1
  dc exec -T ingest sh -c 'cat > /tmp/zones.json && GUARDIAN_MQTT_USERNAME=admin GUARDIAN_MQTT_PASSWORD_FILE=/run/guardian/secrets/admin guardian zones import /tmp/zones.json' \
    < samples/zones.json >/dev/null || fail "zones import failed" || return 1
  # The parent watches the child over TLS; the phone listens for its own nudges.
  collect parent parent-pat "$pat_pw" guardian/geofence/phone-kid guardian/children/phone-kid/policy guardian/parents/parent-pat/replies || return 1
  collect phone phone-kid "$kid_pw" guardian/notifications/phone-kid || return 1
  local p=(-u phone-kid -P "$kid_pw")
  now() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
  tls_pub "${p[@]}" -r -t guardian/devices/phone-kid/profile -m '{"timezone":"America/New_York","role":"child"}' || fail "the phone cannot publish over TLS" || return 1
  tls_pub "${p[@]}" -r -t guardian/users/phone-kid/preferences -m '{"nudgeThreshold": 0}'
  tls_pub "${p[@]}" -t guardian/devices/phone-kid/budget -m "{\"ts\":\"$(now)\",\"utilization\":0.95}"
  tls_pub "${p[@]}" -t guardian/devices/phone-kid/motion -m "{\"ts\":\"$(now)\",\"activity\":\"walking\"}"
  # A walk from 1 km north into Tech Store, then a linger there (one fix each second).
  local i lat
  for i in $(seq 0 10); do
    lat=$(python3 -c "print(round(40.4496 - 0.0009 * $i, 6))")
    tls_pub "${p[@]}" -t guardian/devices/phone-kid/location -m "{\"ts\":\"$(now)\",\"lat\":$lat,\"lon\":-79.9959,\"acc\":10}"
  done
  tls_pub "${p[@]}" -t guardian/devices/phone-kid/motion -m "{\"ts\":\"$(now)\",\"activity\":\"stationary\"}"
  for i in $(seq 1 8); do
    tls_pub "${p[@]}" -t guardian/devices/phone-kid/location -m "{\"ts\":\"$(now)\",\"lat\":40.4406,\"lon\":-79.9959,\"acc\":10}"
    sleep 1
  done
  wait_line "$work/parent.out" '"type":"enter"' 180 || return 1
  say "  the parent saw the walk into the zone over TLS: $(grep -m1 '"type":"enter"' "$work/parent.out" | cut -c1-120)"
  wait_line "$work/phone.out" 'spending_nudge' 180 || return 1
  say "  the phone got its nudge over TLS: $(grep -m1 spending_nudge "$work/phone.out" | cut -c1-120)"
  tls_pub -u parent-pat -P "$pat_pw" -t guardian/parents/parent-pat/commands -m '{"id":"compose-1","text":"Block all games for 2 hours","child":"phone-kid"}' \
    || fail "the parent cannot send a command over TLS" || return 1
  wait_line "$work/parent.out" '"games"' 180 || return 1
  stop_collect parent; stop_collect phone
  retained guardian/children/phone-kid/policy | grep -q '"games"' || fail "the child's policy is not retained" || return 1
  say "  the child's retained policy: $(retained guardian/children/phone-kid/policy | cut -c1-140)"
}

scenario_c() {
  curl -fsS --cacert "$work/ca.crt" -o /dev/null https://localhost:8443/signin || fail "HTTPS on 8443 is not served with the installation's certificate" || return 1
  local chromium chromedriver
  chromium="$(command -v chromium || true)"; chromedriver="$(command -v chromedriver || true)"
  [ -n "$chromium" ] && [ -n "$chromedriver" ] && python3 -c "import selenium" 2>/dev/null || fail "Chromium or Selenium is missing (scripts/install-deps.sh)" || return 1
  CONSOLE_URL=https://localhost:8443 PARENT=parent-pat PARENT_PASSWORD="$pat_pw" CHILD_NAME=Kid CHROMIUM="$chromium" CHROMEDRIVER="$chromedriver" \
    timeout 300 python3 Tests/ComposeTests/console_compose_check.py 2>&1 | sed 's/^/  /'
  return "${PIPESTATUS[0]}"
}

enrol_phone() { as_admin devices add "$1" --role device | sed -n 's/^password: //p'; }

scenario_d() {
  local pw; pw="$(enrol_phone phone-scale)"; [ -n "$pw" ] || fail "could not enrol phone-scale" || return 1
  steady_start phone-scale "$pw" || return 1
  wait_line "$work/events-phone-scale.out" ts 120 || return 1
  dc up -d --no-recreate --no-build --scale ingest=3 >>"$work/up.log" 2>&1 || fail "--scale ingest=3 failed" || return 1
  wait_healthy 300 || return 1
  say "  ingest runs as $(container_of ingest | wc -l) replicas, all healthy"
  dc up -d --no-recreate --no-build --scale ingest=1 >>"$work/up.log" 2>&1 || fail "--scale ingest=1 failed" || return 1
  wait_healthy 300 || return 1
  # Fixes go on after the scale-down (20 at least), and for at least the 100 the check asks for
  # however fast the scaling went.
  local n; n=$(wc -l < "$work/events-phone-scale.out")
  local until=$(( n + 20 > 110 ? n + 20 : 110 ))
  for _ in $(seq 1200); do [ "$(wc -l < "$work/events-phone-scale.out")" -gt "$until" ] && break; sleep 0.1; done
  steady_stop 100
}

store_of() { podman inspect --format '{{range .Mounts}}{{if eq .Destination "/var/lib/guardian"}}{{.Name}}{{end}}{{end}}' "$(container_of "$1")"; }

snapshot_retained() { # the retained state Guardian keeps: families, zones, policies, commands, days, preferences
  # (not presence, a model's status with its load time, or the devices' own republished uploads)
  mosquitto_sub -h 127.0.0.1 -p 8883 --cafile "$work/ca.crt" -u admin -P "$admin_pw" -t 'guardian/#' --retained-only -W 5 -v 2>/dev/null \
    | grep -v -e '^guardian/services/' -e '^guardian/models/[^ ]*/status ' -e '^guardian/events/' | sort > "$1"; true
}

scenario_e() {
  local pw; pw="$(enrol_phone phone-upgrade)"; [ -n "$pw" ] || fail "could not enrol phone-upgrade" || return 1
  snapshot_retained "$work/retained-before"
  grep -q '^guardian/children/phone-kid/policy ' "$work/retained-before" || fail "no retained policy before the upgrade" || return 1
  say "  $(wc -l < "$work/retained-before") retained messages before the upgrade ($(grep -c '/days/' "$work/retained-before") days)"
  steady_start phone-upgrade "$pw" || return 1
  # 30 s of fixes before, the recreation, 30 s after: at least 600 at 10/s.
  for _ in $(seq 3000); do [ "$(wc -l < "$work/events-phone-upgrade.out")" -ge 300 ] && break; sleep 0.1; done
  local t0 store_before store_after; t0=$(date +%s)
  store_before="$(store_of ingest)"
  # Every Guardian container new, as after `up --build` (the broker's image does not change; its
  # restart is scenario f: mosquitto 2.0.11 does not restore shared subscriptions from persistence).
  dc up -d --force-recreate --no-build --no-deps ingest geofence timeline predictor notifier command-router console console-tls \
    >>"$work/up.log" 2>&1 || fail "up --force-recreate failed" || return 1
  wait_healthy 300 || return 1
  store_after="$(store_of ingest)"
  [ -n "$store_before" ] && [ "$store_before" = "$store_after" ] || fail "ingest's store (anonymous volume) was not carried over: $store_before -> $store_after" || return 1
  say "  ingest's recreated container kept its store (volume ${store_after:0:12})"
  say "  every container recreated and healthy again in $(( $(date +%s) - t0 )) s"
  local n; n=$(wc -l < "$work/events-phone-upgrade.out")
  for _ in $(seq 3000); do [ "$(wc -l < "$work/events-phone-upgrade.out")" -ge $((n + 300)) ] && break; sleep 0.1; done
  steady_stop 600 || return 1
  snapshot_retained "$work/retained-after"
  local missing; missing="$(comm -23 "$work/retained-before" "$work/retained-after")"
  [ -z "$missing" ] || fail "retained messages lost or changed by the upgrade: $(cut -c1-200 <<<"$missing")" || return 1
  say "  every retained day, policy, zone and family is still there"
}

scenario_f() {
  local window_file="$work/window"
  # A retained marker every 0.2 s, each acknowledged before the next; then the broker is killed.
  ( i=0; while [ ! -f "$work/stop-marker" ]; do
      t=$(date +%s.%N)
      mosquitto_pub -p 8883 -h 127.0.0.1 --cafile "$work/ca.crt" -u admin -P "$admin_pw" -q 1 -r -t guardian/compose-test/marker -m "$t" 2>/dev/null && echo "$t" > "$work/last-acked"
      sleep 0.2
    done ) &
  local marker_pid=$!; helper_pids+=($!)
  for _ in $(seq 600); do [ -s "$work/last-acked" ] && break; sleep 0.1; done
  # Past one autosave interval (10 s), so the window is measured against a save that happened.
  local first; first=$(cat "$work/last-acked")
  while python3 -c "import sys,time; sys.exit(0 if time.time() - float(sys.argv[1]) < 25 else 1)" "$first"; do sleep 1; done
  local broker; broker="$(container_of broker)"
  local kill_at; kill_at=$(date +%s.%N)
  podman kill -s KILL "$broker" >/dev/null || fail "could not kill the broker" || return 1
  local last_acked; last_acked=$(cat "$work/last-acked")
  touch "$work/stop-marker"; wait "$marker_pid" 2>/dev/null
  podman wait "$broker" >/dev/null 2>&1
  dc start broker >>"$work/up.log" 2>&1 || fail "the broker did not start again" || return 1
  wait_healthy 300 || return 1
  local back; back="$(retained guardian/compose-test/marker 10 | awk '{print $2}')"
  [ -n "$back" ] || fail "no marker after the restart" || return 1
  local window; window=$(python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.1f}')" "$last_acked" "$back")
  echo "$window" > "$window_file"
  say "  acknowledged before the kill but lost: the last $window s (persistence promises at most the 10 s autosave interval)"
  python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) <= 11 else 1)" "$window" || fail "more than the autosave interval was lost" || return 1
  retained guardian/children/phone-kid/policy | grep -q games || fail "the child's policy (older than the window) is gone" || return 1
  # Services reconnected by themselves: a new fix becomes an event.
  collect after-kill admin "$admin_pw" guardian/events/phone-kid/location || return 1
  tls_pub -u phone-kid -P "$kid_pw" -t guardian/devices/phone-kid/location -m "{\"ts\":\"$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)\",\"lat\":40.45,\"lon\":-79.99,\"acc\":10}"
  wait_line "$work/after-kill.out" '"deviceId":"phone-kid"' 120 || return 1
  stop_collect after-kill
  tls_pub -u admin -P "$admin_pw" -r -t guardian/compose-test/marker -n
  say "  every service reconnected by itself and ingest serves again"
}

scenario_g() {
  local ca_before; ca_before="$(cat "$work/ca.crt")"
  dc down --timeout 30 >>"$work/up.log" 2>&1 || fail "down failed" || return 1
  dc up -d --no-build >>"$work/up.log" 2>&1 || fail "up after down failed" || return 1
  wait_healthy 300 || return 1
  [ "$(secret admin)" = "$admin_pw" ] || fail "the admin's password changed across down/up" || return 1
  copy_ca && [ "$(cat "$work/ca.crt")" = "$ca_before" ] || fail "the certificate changed across down/up" || return 1
  tls_pub -u phone-kid -P "$kid_pw" -t guardian/devices/phone-kid/status -m "{\"ts\":\"$(date -u +%Y-%m-%dT%H:%M:%S.%3NZ)\"}" || fail "phone-kid's account is gone after down/up" || return 1
  retained guardian/children/phone-kid/policy | grep -q games || fail "the child's policy is gone after down/up" || return 1
  say "  down then up: accounts, data and certificates kept"
  dc down -v --timeout 30 >>"$work/up.log" 2>&1 || fail "down -v failed" || return 1
  dc up -d --no-build >>"$work/up.log" 2>&1 || fail "up after down -v failed" || return 1
  wait_healthy 300 || return 1
  [ "$(dc logs --no-color init | grep -c 'passwords generated')" = 1 ] || fail "init did not make a new first start" || return 1
  local new_pw; new_pw="$(secret admin)"
  [ -n "$new_pw" ] && [ "$new_pw" != "$admin_pw" ] || fail "down -v kept the admin's password" || return 1
  copy_ca && [ "$(cat "$work/ca.crt")" != "$ca_before" ] || fail "down -v kept the certificate" || return 1
  admin_pw="$new_pw"
  ! tls_pub -u phone-kid -P "$kid_pw" -t guardian/devices/phone-kid/status -m '{}' 2>/dev/null || fail "phone-kid still connects after down -v" || return 1
  say "  down -v then up: a new first start (new passwords, certificate, no accounts)"
}

scenario_h() {
  local ok=0 s
  # Every secret of this installation: the generated passwords, and the enrolled ones.
  dc exec -T broker sh -c 'for f in /run/guardian/secrets/*; do cat "$f"; echo; done' > "$work/secrets"
  dc exec -T broker sh -c 'sed -n "2,3p" /mosquitto/tls/server.key' >> "$work/secrets"
  [ "$(grep -c . "$work/secrets")" -ge 8 ] || fail "could not read the secrets to look for" || return 1
  dc config > "$work/seen.config" 2>&1
  podman history --no-trunc guardian:latest > "$work/seen.history" || fail "no history of the Guardian image" || return 1
  podman image inspect guardian:latest > "$work/seen.image" || fail "cannot inspect the Guardian image" || return 1
  for c in $(containers); do podman inspect "$c"; done > "$work/seen.inspect" 2>&1
  dc logs --no-color > "$work/seen.logs" 2>&1
  for f in config history image inspect logs; do
    while read -r s; do
      [ -n "$s" ] || continue
      if grep -qF -- "$s" "$work/seen.$f"; then ok=1; say "  a secret appears in $f"; fi
    done < "$work/secrets"
  done
  [ "$ok" = 0 ] || return 1
  say "  no secret in docker-compose config, the image's history or inspect, the containers' inspect, or any log"
  local svc c users
  for svc in ingest geofence timeline predictor notifier command-router console; do
    for c in $(container_of "$svc"); do
      users="$(podman top "$c" user huser 2>/dev/null | tail -n +2 | sort -u | tr '\n' ' ')"
      [ -n "$users" ] || fail "no process seen in $c" || return 1
      grep -qw root <<<"$users" && { fail "$c runs a process as root: $users"; return 1; }
    done
  done
  say "  every Guardian process runs as guardian (uid 10001), none as root"
}

check "a: first up on empty volumes, every service healthy" scenario_a
if [ -n "${admin_pw:-}" ]; then
  check "b: a phone enrolled in a container publishes over TLS; zone, nudge, parent command, policy" scenario_b
  check "c: the console over HTTPS in headless Chromium" scenario_c
  check "d: --scale ingest=3 then 1 under steady fixes: each fix exactly one event" scenario_d
  check "e: every Guardian container recreated under 10 fixes/s: none lost or doubled, retained state kept" scenario_e
  check "f: broker killed and started: services reconnect, persistence window" scenario_f
  check "h: no secret in config, images or logs; no Guardian process as root" scenario_h
  check "g: down/up keeps everything; down -v/up is a new first start" scenario_g
fi

say "first up to healthy: ${healthy_after:-?} s; Guardian image: $(numfmt --to=si "${image_size:-0}")B; persistence window: $(cat "$work/window" 2>/dev/null || echo ?) s; total $(( $(date +%s) - started_at )) s"
for f in "${failures[@]}"; do say "failed: $f"; done
say "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
exit
}

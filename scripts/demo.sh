#!/usr/bin/env bash
# `make demo`: the whole system end to end over a real mosquitto, every service as its own process.
# Zones are loaded, a phone walks into a danger zone and gets a nudge, a parent blocks games and the
# child's policy changes, a timeline day is generated and drawn. Each step is checked; exit 1 on failure.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin="${GUARDIAN_BIN:-$root/.build/debug}"
work="$(mktemp -d /tmp/guardian-demo.XXXXXX)"
# Reachable by the broker's own user when run as root (the secrets and accounts inside stay private).
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
pw() { GUARDIAN_SECRETS_DIR="$work/secrets" "$root/scripts/credential.sh" "$1"; }
step() { printf '\n== %s\n' "$*"; }
fail() { echo "DEMO FAILED: $*" >&2; echo "logs:" >&2; tail -n 5 "$work"/*.log >&2 || true; exit 1; }

# mosquitto_pub as a user; a publish the broker refuses fails the demo (mosquitto_pub itself exits 0).
pub() {
  local user="$1"; shift
  local said
  said="$(mosquitto_pub -p "$port" -V mqttv5 -u "$user" -P "$(pw "$user")" -q 1 "$@" 2>&1)" || fail "$user could not publish: $said"
  [[ "$said" != *"failed"* ]] || fail "the broker refused $user: $said"
}
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
mkdir -p "$work/data"
# A port found free can be taken by another process before mosquitto binds it: then mosquitto exits,
# and the demo tries new ports (a first start makes the passwords and certificate, later ones keep them).
listening=0
for attempt in 1 2 3 4 5; do
  port="$(free_port)"
  tls_port="$(free_port)"
  [ "$port" != "$tls_port" ] || continue
  # A first start: new passwords for admin, every service and the sample accounts, a new certificate.
  GUARDIAN_BIN="$bin" GUARDIAN_TLS_DIR="$work/tls" "$root/scripts/broker-setup.sh" "$work" "$port" "$tls_port" --samples
  sed -i "s|^listener $tls_port\$|listener $tls_port 127.0.0.1|" "$work/mosquitto.conf"
  mosquitto -c "$work/mosquitto.conf" > "$work/mosquitto-stdout.log" 2>&1 &
  broker=$!
  pids+=("$broker")
  # Every wait below has a generous ceiling (never a measure of speed) and ends as soon as its event happens.
  for _ in $(seq 1 1200); do
    kill -0 "$broker" 2>/dev/null || break
    (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && kill -0 "$broker" 2>/dev/null && { listening=1; break; }
    sleep 0.05
  done
  [ "$listening" = 1 ] && break
  echo "mosquitto did not start on ports $port/$tls_port (attempt $attempt): $(tail -n 2 "$work/mosquitto-stdout.log" 2>/dev/null)" >&2
  kill "$broker" 2>/dev/null || true
done
[ "$listening" = 1 ] || fail "mosquitto does not listen on port $port"

export GUARDIAN_MQTT_URL="mqtt://127.0.0.1:$port"
step "starting every service as its own process (broker on port $port)"
for service in ingest geofence predictor timeline command-router notifier; do
  GUARDIAN_MQTT_USERNAME="$service" GUARDIAN_MQTT_PASSWORD_FILE="$work/secrets/$service" GUARDIAN_DATA_DIR="$work/data/$service" \
  GUARDIAN_INSTANCE_ID=demo GUARDIAN_MODELS_DIR="$root/Models" GUARDIAN_STATS_INTERVAL=1 GUARDIAN_TIMELINE_RETRAIN_DELAY_MS=200 \
    "$bin/$service" > "$work/$service.log" 2>&1 &
  pids+=($!)
done
export GUARDIAN_MQTT_USERNAME=guardian-cli GUARDIAN_MQTT_PASSWORD="$(pw guardian-cli)"
guardian() { "$bin/guardian" "$@"; }
online=0
for _ in $(seq 1 180); do
  [ "$(guardian status --wait 1 2>/dev/null | grep -c ' online ')" -ge 6 ] && { online=1; break; }
  sleep 0.5
done
guardian status --wait 1 || fail "services did not come online"
[ "$online" = 1 ] || fail "not every service is online"

sub() { # sub TOPIC COUNT SECONDS: the first COUNT messages (retained included) within SECONDS
  mosquitto_sub -p "$port" -u admin -P "$(pw admin)" -V mqttv5 -t "$1" -C "$2" -W "$3" 2>/dev/null || true
}
# listen NAME COUNT SECONDS TOPIC...: collects the first COUNT messages on the topics within SECONDS in
# the background, and returns once the subscription is in place (a retained probe came back on it; the
# probe and its removal count as two more); `collected NAME` waits for them and writes their payloads,
# one a line, to $work/NAME.json.
declare -A listeners
listen() {
  local name="$1" count="$2" seconds="$3" probe="guardian/test/demo-ready-$1-$$"
  shift 3
  local topics=()
  for topic in "$@"; do topics+=(-t "$topic"); done
  pub admin -r -t "$probe" -m ready
  : > "$work/$name.raw"
  mosquitto_sub -p "$port" -u admin -P "$(pw admin)" -V mqttv5 -v "${topics[@]}" -t "$probe" -C $((count + 2)) -W "$seconds" \
    >> "$work/$name.raw" 2>/dev/null &
  listeners[$name]=$!
  pids+=($!)
  local ready=0
  for _ in $(seq 1 1200); do
    grep -q "^$probe " "$work/$name.raw" && { ready=1; break; }
    kill -0 "${listeners[$name]}" 2>/dev/null || break
    sleep 0.05
  done
  pub admin -r -t "$probe" -n
  [ "$ready" = 1 ] || fail "could not subscribe to $*"
}
collected() {
  wait "${listeners[$1]}" || true
  grep -v "^guardian/test/demo-ready-" "$work/$1.raw" | cut -d' ' -f2- > "$work/$1.json" || true
}

step "zones loaded, and phone-alice's profile and preferences"
guardian zones import "$root/samples/zones.json"
# A demo user who wants every prediction shown as a nudge (a real user keeps the default 0.70).
pub phone-alice -r -t guardian/users/phone-alice/preferences -m '{"nudgeThreshold": 0}'

step "admin enrols a phone; it publishes over TLS at once; removed, it is refused"
enrolled="$(GUARDIAN_MQTT_USERNAME=admin GUARDIAN_MQTT_PASSWORD="$(pw admin)" guardian devices add phone-demo --role device)" \
  || fail "enrolment failed"
echo "$enrolled" | head -1
demo_pw="$(echo "$enrolled" | sed -n 's/^password: //p')"
tls_pub() { mosquitto_pub -h localhost -p "$tls_port" --cafile "$work/tls/ca.crt" -V mqttv5 -q 1 "$@"; }
tls_pub -u phone-demo -P "$demo_pw" -t guardian/devices/phone-demo/location -f "$root/samples/location.json" \
  || fail "the enrolled phone could not publish over TLS"
GUARDIAN_MQTT_USERNAME=admin GUARDIAN_MQTT_PASSWORD="$(pw admin)" guardian devices remove phone-demo || fail "removal failed"
! tls_pub -u phone-demo -P "$demo_pw" -t guardian/devices/phone-demo/location -f "$root/samples/location.json" 2>/dev/null \
  || fail "the removed phone could still connect"
echo "phone-demo: published over TLS while enrolled, refused once removed"

step "phone-alice walks into Tech Store and lingers"
listen nudge 1 180 guardian/notifications/phone-alice
listen geofence 2 180 guardian/geofence/phone-alice
guardian simulate --device phone-alice --timezone America/New_York --budget 0.95 \
  --via 40.4496,-79.9959 --via 40.4406,-79.9959 --linger 6 --speedup 600
collected nudge
collected geofence
grep -q '"spending_nudge"' "$work/nudge.json" || fail "no nudge for phone-alice"
echo "notification: $(python3 -c 'import json,sys; n=json.load(open(sys.argv[1])); print(n["title"]+" - "+n["body"])' "$work/nudge.json")"
grep -q '"type":"enter"' "$work/geofence.json" || fail "no geofence enter"
echo "geofence: $(grep -o '"type":"[a-z]*"' "$work/geofence.json" | tr '\n' ' ')"

step "a parent blocks games; the child's policy changes"
guardian family set alex --parent parent-alex --child tablet-sam=Sam
# The router reads the family before the command (one connection, in order); a command refused or
# unanswered within the CLI's 10 s is asked again (blocking games twice changes nothing).
accepted=0
for _ in 1 2 3; do guardian command --parent parent-alex --timeout 60 "Block all games for 2 hours" && { accepted=1; break; }; sleep 1; done
[ "$accepted" = 1 ] || fail "the command was not accepted"
sub guardian/children/tablet-sam/policy 1 120 > "$work/policy.json"
grep -q '"games"' "$work/policy.json" || fail "the policy does not block games"
echo "policy: $(cat "$work/policy.json")"

step "a day of tablet-sam's events becomes a timeline, drawn as a picture"
python3 - "$root/samples/day.jsonl" > "$work/day.txt" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    event = json.loads(line)
    kind = "motion" if "activity" in event else "location"
    print(kind + " " + json.dumps(event))
PY
# The day is generated once ingest passed every event on (the timeline reads them before the request).
listen day-events "$(wc -l < "$work/day.txt")" 180 guardian/events/tablet-sam/location guardian/events/tablet-sam/motion
while read -r kind payload; do
  pub tablet-sam -t "guardian/devices/tablet-sam/$kind" -m "$payload"
done < "$work/day.txt"
collected day-events
[ "$(wc -l < "$work/day-events.json")" -eq "$(wc -l < "$work/day.txt")" ] || fail "ingest passed on $(wc -l < "$work/day-events.json") of $(wc -l < "$work/day.txt") events"
pub tablet-sam -t guardian/timeline/tablet-sam/generate -m '{}'
sub guardian/timeline/tablet-sam/days/2026-11-18 1 180 | grep -q '"slots"' || fail "no timeline day published"
guardian timeline show tablet-sam --date 2026-11-18
guardian timeline show tablet-sam --date 2026-11-18 --svg "$work/day.svg"
grep -q "<svg" "$work/day.svg" || fail "no SVG drawn"
[ -n "${GUARDIAN_DEMO_SVG:-}" ] && cp "$work/day.svg" "$GUARDIAN_DEMO_SVG"

step "a parent exports tablet-sam's data; admin erases the family"
GUARDIAN_MQTT_USERNAME=parent-alex GUARDIAN_MQTT_PASSWORD="$(pw parent-alex)" \
  guardian export tablet-sam -o "$work/tablet-sam.json" --timeout 120 || fail "the export was incomplete"
for service in ingest geofence timeline predictor command-router notifier; do
  jq -e --arg s "$service" '.answers | map(.service) | index($s) != null' "$work/tablet-sam.json" > /dev/null \
    || fail "the export has no answer from $service"
done
jq -e '[.answers[] | select(.service == "timeline") | .data.days[]] | length > 0' "$work/tablet-sam.json" > /dev/null \
  || fail "the export has no timeline day"
GUARDIAN_MQTT_USERNAME=admin GUARDIAN_MQTT_PASSWORD="$(pw admin)" guardian forget --family alex --timeout 120 || fail "the family was not erased"
for service in ingest geofence timeline predictor command-router notifier; do
  ! grep -rqa tablet-sam "$work/data/$service" || fail "$service still holds tablet-sam"
done

step "every service still up"
guardian status --wait 1
echo
echo "DEMO PASSED"

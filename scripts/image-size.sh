#!/usr/bin/env bash
# The release image's size against the 200 MB goal, measured the way a user gets it: the Dockerfile's
# runtime stage built by podman (as `guardian:release`) around a host-built release `guardian-all`
# (BIN_DIR, built with --static-swift-stdlib as the Dockerfile's build stage does), staged by
# scripts/stage-binaries.sh for the `prebuilt` stage. Prints the size and the size over its base
# image, and checks that the image runs its programs. Skips in one line where podman cannot build.
#
# usage: scripts/image-size.sh BIN_DIR
set -uo pipefail
bin="${1:?usage: scripts/image-size.sh BIN_DIR}"
cd "$(dirname "$0")/.."
say() { echo "image-size: $*"; }
base=docker.io/library/debian:bookworm-slim goal=200000000
if ! out="$(podman info 2>&1)"; then
  say "SKIPPED: podman is not usable here ($(tail -1 <<<"$out" | cut -c1-160))"
  exit 0
fi
scripts/stage-binaries.sh "$bin" .build/compose-binaries || exit 1
log="$(mktemp)"; trap 'rm -f "$log"' EXIT
podman build -f compose/Dockerfile --build-arg GUARDIAN_BINARIES=prebuilt -t guardian:release . >"$log" 2>&1 \
  || { tail -20 "$log"; say "the image did not build"; exit 1; }
size=$(podman image inspect --format '{{.Size}}' guardian:release)
base_size=$(podman image inspect --format '{{.Size}}' "$base")
mb() { echo "$(( ($1 + 500000) / 1000000 )) MB"; }
# Where nothing can be pulled the base is scripts/compose-stand-ins.sh's stand-in, made as upstream's
# is (merged /usr, slim): within a few MB of upstream's 75 MB.
stand_in="$(podman image inspect --format '{{index .Labels "guardian.stand-in"}}' "$base")"
kind=upstream; [ -n "$stand_in" ] && [ "$stand_in" != "<no value>" ] && kind=stand-in
verdict="under the $(mb $goal) goal"; [ "$size" -lt "$goal" ] || verdict="OVER the $(mb $goal) goal"
say "guardian:release is $(mb "$size"), $(mb $((size - base_size))) over its base $base ($kind, $(mb "$base_size")): $verdict"
podman run --rm guardian:release guardian version >"$log" 2>&1 || { cat "$log"; say "guardian does not run in the image"; exit 1; }
# A service by its name: ingest reads its configuration and refuses a bad one (status 2) before it
# looks for a broker.
podman run --rm -e GUARDIAN_SHARD=bad guardian:release ingest >>"$log" 2>&1; status=$?
[ "$status" -eq 2 ] && grep -q "bad configuration" "$log" || { cat "$log"; say "ingest does not run in the image (status $status)"; exit 1; }
say "the image runs its programs: $(head -1 "$log" | tr -d '\n'); ingest refuses a bad GUARDIAN_SHARD with status 2"

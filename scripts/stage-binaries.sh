#!/usr/bin/env bash
# Copies Guardian's multi-call executable `guardian-all` from a SwiftPM bin folder to OUT/bin
# (stripped), with a link to it under each of the nine programs' names (ingest, guardian…), and the
# Swift runtime libraries it loads to OUT/lib (none when built with --static-swift-stdlib): what
# compose/Dockerfile's runtime stage installs. Used by the Dockerfile's build stage,
# scripts/compose-test.sh (host-built debug) and scripts/image-size.sh (host-built release).
#
# usage: scripts/stage-binaries.sh BIN_DIR OUT
set -euo pipefail
bin="${1:?usage: scripts/stage-binaries.sh BIN_DIR OUT}"
out="${2:?usage: scripts/stage-binaries.sh BIN_DIR OUT}"
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
[ -x "$bin/guardian-all" ] || { echo "stage-binaries: $bin/guardian-all is missing" >&2; exit 1; }
strip -o "$out/bin/guardian-all" "$bin/guardian-all"
for program in ingest geofence timeline predictor command-router notifier console guardian guardian-mcp; do
  ln -s guardian-all "$out/bin/$program"
done
# The Swift runtime's libraries (Foundation, dispatch, the standard library…), found where the
# toolchain keeps them; system libraries come from Debian's packages in the image.
ldd "$out/bin/guardian-all" | awk '$3 ~ /\/swift\/linux\// { print $3 }' | while read -r lib; do
  strip -o "$out/lib/$(basename "$lib")" "$lib"
done
ldd "$out/bin/guardian-all" | grep -q 'not found' && { ldd "$out/bin/guardian-all" | grep 'not found' >&2; echo "stage-binaries: libraries missing" >&2; exit 1; }
du -sh "$out/bin" "$out/lib" | sed 's/^/stage-binaries: /' >&2

#!/usr/bin/env bash
# Copies Guardian's nine executables from a SwiftPM bin folder to OUT/bin (stripped), and the Swift
# runtime libraries they load to OUT/lib, once for all nine: what compose/Dockerfile's runtime stage
# installs. Used by the Dockerfile's build stage and by scripts/compose-test.sh (host-built binaries).
#
# usage: scripts/stage-binaries.sh BIN_DIR OUT
set -euo pipefail
bin="${1:?usage: scripts/stage-binaries.sh BIN_DIR OUT}"
out="${2:?usage: scripts/stage-binaries.sh BIN_DIR OUT}"
rm -rf "$out"
mkdir -p "$out/bin" "$out/lib"
for exe in ingest geofence timeline predictor command-router notifier console guardian guardian-mcp; do
  [ -x "$bin/$exe" ] || { echo "stage-binaries: $bin/$exe is missing" >&2; exit 1; }
  strip -o "$out/bin/$exe" "$bin/$exe"
done
# The Swift runtime's libraries (Foundation, dispatch, the standard library…), found where the
# toolchain keeps them; system libraries come from Debian's packages in the image.
for exe in "$out"/bin/*; do
  ldd "$exe" | awk '$3 ~ /\/swift\/linux\// { print $3 }'
done | sort -u | while read -r lib; do
  strip -o "$out/lib/$(basename "$lib")" "$lib"
done
ldd "$out"/bin/* | grep -q 'not found' && { ldd "$out"/bin/* | grep 'not found' | sort -u >&2; echo "stage-binaries: libraries missing" >&2; exit 1; }
du -sh "$out/bin" "$out/lib" | sed 's/^/stage-binaries: /' >&2

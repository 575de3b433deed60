#!/usr/bin/env bash
# scripts/soak-test.sh N: `make test` N times, each in a new clone of this checkout's HEAD (so each run
# is a first run: no build cache, no leftovers), with a CPU-bound process beside it the whole time.
# Prints each run's result and duration, then "k of N passed"; exits non-zero unless all passed.
# The logs of failed runs are kept (SOAK_LOG_DIR, default /tmp); everything else is removed.
set -uo pipefail
runs="${1:-}"
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 N   (N runs of make test, each from a new clone)" >&2; exit 2; }
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
head="$(git -C "$repo" rev-parse HEAD)" || exit 2
[ -z "$(git -C "$repo" status --porcelain --untracked-files=no)" ] || echo "note: uncommitted changes are not tested, only HEAD ($head)"
logs="${SOAK_LOG_DIR:-/tmp}"
work="$(mktemp -d /tmp/guardian-soak.XXXXXX)"
load_pid=""
test_pid=""

# Stops what this script started: the running `make test` (its own process group: swift, services,
# brokers, the demo) and the load; then removes the clones.
cleanup() {
  if [ -n "$test_pid" ] && kill -0 "$test_pid" 2>/dev/null; then
    kill -TERM -- "-$test_pid" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$test_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$test_pid" 2>/dev/null
    wait "$test_pid" 2>/dev/null
  fi
  if [ -n "$load_pid" ]; then
    kill "$load_pid" 2>/dev/null
    wait "$load_pid" 2>/dev/null
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

format() { printf '%dm%02ds' $(($1 / 60)) $(($1 % 60)); }

yes > /dev/null &
load_pid=$!
echo "soak: $runs run(s) of make test at ${head:0:12}, each from a new clone, beside a CPU-bound process (pid $load_pid)"

passed=0
for run in $(seq 1 "$runs"); do
  clone="$work/run-$run"
  log="$work/run-$run.log"
  started=$SECONDS
  if git clone --quiet --no-checkout "$repo" "$clone" >"$log" 2>&1 && git -C "$clone" checkout --quiet --detach "$head" >>"$log" 2>&1; then
    # Its own session, so that stopping it reaches everything it started.
    setsid make -C "$clone" test >>"$log" 2>&1 &
    test_pid=$!
    wait "$test_pid"
    status=$?
    test_pid=""
  else
    status=1
  fi
  duration=$(format $((SECONDS - started)))
  if [ "$status" -eq 0 ]; then
    passed=$((passed + 1))
    echo "run $run/$runs: passed in $duration"
  else
    kept="$logs/guardian-soak-$(date -u +%Y%m%dT%H%M%SZ)-run$run.log"
    cp "$log" "$kept"
    echo "run $run/$runs: FAILED (exit $status) in $duration; log: $kept"
    grep -E "✘|DEMO FAILED|error:" "$log" | head -n 10 | sed 's/^/    /'
  fi
  rm -rf "$clone"
done

echo "$passed of $runs passed"
[ "$passed" -eq "$runs" ]

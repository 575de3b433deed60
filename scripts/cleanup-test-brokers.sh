#!/usr/bin/env bash
# Safety net after tests and benchmarks: stops any mosquitto the run started under DIR, the TMPDIR it
# ran with (they die with the test process already; this catches the unexpected). Brokers of other
# runs on the same machine, under other directories, are left alone.
dir="${1:?usage: cleanup-test-brokers.sh DIR (the TMPDIR of the run)}"
pkill -KILL -f -- "$dir/guardian-broker-[0-9]+-" 2>/dev/null || true
exit 0

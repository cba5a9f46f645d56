#!/usr/bin/env bash
# Instructions per Session::Run for the run-overhead and per-node workloads (issue 14), counted by
# callgrind on the calling thread: stable to a fraction of a percent on a noisy machine, so later
# changes can be compared without timing noise. Needs valgrind (Debian: apt-get install valgrind).
#
#   tools/bench/callgrind_counts.sh
# prints:  run overhead: N instructions per run
#          per node:     N instructions per node
set -euo pipefail
cd "$(dirname "$0")/../.."
bazel build -c opt //tools/bench:overhead_probe >/dev/null
out=$(mktemp -d)
valgrind --tool=callgrind --separate-threads=yes --callgrind-out-file="$out/cg" \
    bazel-bin/tools/bench/overhead_probe >/dev/null 2>"$out/log"
# Dumps are named cg.<part>-<thread>; thread 01 is the caller, where the executor runs these cheap
# nodes inline. "totals:" is the part's instruction count (Ir).
ir() { grep -l "$1" "$out"/cg.*-01 | xargs grep -h "^totals:" | awk '{print $2}'; }
overhead=$(ir run_overhead_2000_runs)
chain=$(ir add_chain_1000_20_runs)
python3 - "$overhead" "$chain" <<'PY'
import sys
overhead, chain = int(sys.argv[1]) / 2000, int(sys.argv[2]) / 20
print("run overhead: %d instructions per run" % overhead)
print("per node:     %d instructions per node" % ((chain - overhead) / 999))
PY
rm -rf "$out"

#!/usr/bin/env bash
# Instructions per Session::Run for the run-overhead and per-node workloads (issue 14), counted by
# callgrind on the calling thread: stable to a fraction of a percent on a noisy machine, so later
# changes can be compared without timing noise. Needs valgrind (Debian: apt-get install valgrind).
#
#   tools/bench/callgrind_counts.sh [--top N]
# prints:  run overhead:  N instructions per run
#          per node:      N instructions per node
#          per loop node: N instructions per node of a while loop's iteration (every thread)
# and with --top N, the N functions with the most instructions of their own per node of the
# chain (where to look next).
set -euo pipefail
cd "$(dirname "$0")/../.."
bazel build -c opt //tools/bench:overhead_probe >/dev/null
out=$(mktemp -d)
top=0
if [ "${1:-}" = "--top" ]; then top=${2:-25}; fi
# Uncompressed names: each dump part is then readable on its own (compressed ones refer to
# names defined in earlier parts, which callgrind_annotate cannot follow).
valgrind --tool=callgrind --separate-threads=yes --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$out/cg" \
    bazel-bin/tools/bench/overhead_probe >/dev/null 2>"$out/log"
# Dumps are named cg.<part>-<thread>; thread 01 is the caller, where the executor runs these cheap
# nodes inline. "totals:" is the part's instruction count (Ir).
ir() { grep -l "$1" "$out"/cg.*-01 | xargs grep -h "^totals:" | awk '{print $2}'; }
overhead=$(ir run_overhead_2000_runs)
chain=$(ir add_chain_1000_20_runs)
# A loop runs on the inter-op pool's thread: its workloads run in a second process, counted
# without --separate-threads, so each dump holds every thread.
valgrind --tool=callgrind --compress-strings=no --compress-pos=no \
    --callgrind-out-file="$out/loop" bazel-bin/tools/bench/overhead_probe --loop \
    >/dev/null 2>>"$out/log"
ir_all() { grep -l "$1" "$out"/loop.* | xargs grep -h "^totals:" | awk '{print $2}'; }
loop100=$(ir_all while_loop_100_iterations_20_runs)
loop200=$(ir_all while_loop_200_iterations_20_runs)
python3 - "$overhead" "$chain" "$loop100" "$loop200" <<'PY'
import sys
overhead, chain = int(sys.argv[1]) / 2000, int(sys.argv[2]) / 20
loop_node = (int(sys.argv[4]) - int(sys.argv[3])) / 20 / (100 * 21)
print("run overhead:  %d instructions per run" % overhead)
print("per node:      %d instructions per node" % ((chain - overhead) / 999))
print("per loop node: %d instructions per node (while loop of scalar Adds, 21 nodes an "
      "iteration)" % loop_node)
PY
if [ "$top" -gt 0 ]; then
  python3 - "$(grep -l add_chain_1000_20_runs "$out"/cg.*-01)" "$top" <<'PY'
import collections, re, sys
own = collections.Counter()
fn, after_call = None, False
for line in open(sys.argv[1]):
    if line.startswith("fn="):
        fn = line[3:].strip()
    elif line.startswith("calls="):
        after_call = True  # the next cost line is the callee's inclusive cost
    elif line[:1].isdigit() or line[:1] in "+-*":
        if after_call:
            after_call = False
        elif fn is not None:
            own[fn] += int(line.split()[1])
total = sum(own.values())
for name, ir in own.most_common(int(sys.argv[2])):
    print("%6.1f%% %6.0f instr/node  %s" % (100.0 * ir / total, ir / 20000.0,
                                            re.sub(r"\(.*", "", name)[:110]))
PY
fi
rm -rf "$out"

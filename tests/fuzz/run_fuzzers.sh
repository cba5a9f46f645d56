#!/usr/bin/env bash
# The long fuzz run (issue 15): builds every fuzz target with clang + libFuzzer + ASan + UBSan
# (`--config=fuzz`) and runs each for SECONDS (default 300) on a working corpus seeded from
# tests/fuzz/corpus (and, for the GraphDef target, the repo's TensorFlow-written graphs), then
# prints libFuzzer's final stats (executions, exec/s, coverage) per target. Crashes are left as
# crash-* files in the working directory; the script exits non-zero if any target found one.
#
#   tests/fuzz/run_fuzzers.sh [SECONDS] [TARGET...]
#   WORK=/tmp/rill-fuzz tests/fuzz/run_fuzzers.sh 3600 graph_run_fuzzer
#   RUNS=1000000 tests/fuzz/run_fuzzers.sh 86400 graph_run_fuzzer   # stop after a million inputs
#   KEEP=1 tests/fuzz/run_fuzzers.sh 3600 graph_modes_fuzzer   # then merge new coverage into seeds
#   FORK=1 RUNS=1000000 tests/fuzz/run_fuzzers.sh 36000 graph_modes_fuzzer   # a finding does not stop it
# KEEP=1 merges the working corpus into tests/fuzz/corpus/<target> (libFuzzer -merge=1: only
# inputs that add edges, -use_counters=0, which keeps a committed corpus to a few hundred files),
# so the next work period starts where this one stopped.
# FORK=N runs N libFuzzer jobs in child processes with -ignore_crashes=1: each finding is saved
# under artifacts/ and the run goes on (the script still exits non-zero when any was saved).
# Build and fuzzing run at NICE (default 19), so other builds and benchmarks keep the CPUs.
set -uo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-300}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(device_name_fuzzer tensor_proto_fuzzer config_proto_fuzzer checkpoint_fuzzer
           graph_def_fuzzer graph_run_fuzzer graph_modes_fuzzer npy_fuzzer c_api_fuzzer
           saved_model_fuzzer gif_fuzzer)
fi
work=${WORK:-/tmp/rill-fuzz}
# The clang + ASan build of every kernel is long: it gets its own Bazel server (output base), so
# it never holds the lock of the server other builds use, and runs niced.
fuzz_bazel=(bazel --output_base="${FUZZ_OUTPUT_BASE:-$HOME/.cache/bazel-fuzz}")
niceness=${NICE:-19}
nice -n "$niceness" "${fuzz_bazel[@]}" build --config=fuzz $(printf '//tests/fuzz:%s ' "${targets[@]}") || exit 1
bin=$("${fuzz_bazel[@]}" info --config=fuzz bazel-bin 2>/dev/null)/tests/fuzz
status=0
for t in "${targets[@]}"; do
  corpus="$work/$t/corpus"
  mkdir -p "$corpus" "$work/$t/artifacts"
  seeds="tests/fuzz/corpus/${t%_fuzzer}"
  if [ "$t" = graph_def_fuzzer ]; then
    cp -n graph/testdata/tf_written/*.pb graph/testdata/tf_written/*.pbtxt examples/graphs/*.pbtxt "$corpus"/
  else
    cp -n "$seeds"/* "$corpus"/
  fi
  echo "== $t ($seconds s)"
  # -entropic=0: with all of Rill's kernels instrumented, the entropic schedule's feature
  # bookkeeping took half the time (perf); short malloc stacks save ASan another ~10%.
  ASAN_OPTIONS=malloc_context_size=2:detect_leaks=1 nice -n "$niceness" "$bin/$t" "$corpus" \
      -max_total_time="$seconds" ${RUNS:+-runs=$RUNS} ${FORK:+-fork=$FORK -ignore_crashes=1} \
      -entropic=0 -timeout=20 -rss_limit_mb=4096 -malloc_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$work/$t/artifacts/" > "$work/$t/log.txt" 2>&1
  rc=$?
  grep -E "^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|graph_run_fuzzer:|graph_modes_fuzzer )" \
      "$work/$t/log.txt"
  # Fork mode prints no final stats: its last '#N: cov: ... exec/s: ...' line has the totals.
  tail -n 40 "$work/$t/log.txt" | grep -E "cov: [0-9]+" | tail -1
  findings=$(ls "$work/$t/artifacts" | grep -E "^(crash|leak|timeout|oom)-" | wc -l)
  if [ "$findings" -ne 0 ]; then
    echo "$t: $findings finding(s) in $work/$t/artifacts/"
    [ "$rc" -eq 0 ] && rc=1
  fi
  if [ -n "${KEEP:-}" ] && [ "$t" != graph_def_fuzzer ]; then
    "$bin/$t" -merge=1 -use_counters=0 "$seeds" "$corpus" > "$work/$t/merge.txt" 2>&1
    grep -E "MERGE-OUTER: [0-9]+ new files" "$work/$t/merge.txt"
  fi
  if [ $rc -ne 0 ]; then
    echo "$t: FAILED (exit $rc), see $work/$t/log.txt and $work/$t/artifacts/"
    status=1
  fi
done
exit $status

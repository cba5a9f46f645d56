#!/usr/bin/env bash
# CLI golden tests: session_runner's exact stdout (and stderr + exit status for errors) on the seed
# examples. The golden files were written by hand from the formats in the spec (placement lines as
# `name: (Op): device`, values as numpy prints them), not recorded from Rill.
set -u
runner="$1"
cd "$(dirname "$0")/.."   # the runfiles root of the workspace
fail=0
check() {  # check NAME EXPECTED_STATUS STREAM GOLDEN ARGS...
  local name="$1" want_rc="$2" stream="$3" golden="$4"
  shift 4
  local out err rc
  out=$(mktemp) err=$(mktemp)
  "$runner" "$@" >"$out" 2>"$err"
  rc=$?
  if [ "$rc" -ne "$want_rc" ]; then
    echo "FAIL $name: exit status $rc, want $want_rc"; cat "$err"; fail=1; return
  fi
  local got="$out"
  [ "$stream" = stderr ] && got="$err"
  if ! diff -u "$golden" "$got"; then echo "FAIL $name: $stream differs from $golden"; fail=1; return; fi
  echo "ok   $name"
}
check matmul_log 0 stdout tests/golden/matmul_log.stdout \
  --graph=examples/graphs/matmul.pbtxt --log_device_placement --fetch=MatMul
check multi_tower_cpu 0 stdout tests/golden/multi_tower_cpu.stdout \
  --graph=examples/graphs/multi_tower_cpu.pbtxt --config=examples/cpu3.config.pbtxt --fetch=AddN
check four_replicas_cpu 0 stdout tests/golden/four_replicas_cpu.stdout \
  --graph=examples/graphs/four_replicas_cpu.pbtxt --config=examples/cpu4.config.pbtxt --fetch=AddN
check soft_placement_missing_gpu 1 stderr tests/golden/soft_placement_missing_gpu.stderr \
  --graph=examples/graphs/soft_placement.pbtxt --fetch=MatMul
check soft_placement_allowed 0 stdout tests/golden/soft_placement_allowed.stdout \
  --graph=examples/graphs/soft_placement.pbtxt --config=examples/soft_placement.config.pbtxt --fetch=MatMul
# Checkpoints and SavedModels written by TensorFlow (values: TensorFlow's y.npy, printed as numpy
# prints them).
check tf1_checkpoint 0 stdout tests/golden/tf1_checkpoint.stdout \
  --graph=tests/checkpoints/data/tf1_saver/graph.pbtxt \
  --checkpoint=tests/checkpoints/data/tf1_saver/model.ckpt \
  --feed=x=tests/checkpoints/data/tf1_saver/x.npy --fetch=y --fetch=global_step
check keras_saved_model 0 stdout tests/golden/keras_saved_model.stdout \
  --saved_model_dir=tests/checkpoints/data/keras_saved_model \
  --feed=keras_tensor=tests/checkpoints/data/keras_saved_model/x.npy
# The trace is Chrome's Trace Event Format: a JSON object with a traceEvents list, one process per
# device, complete events with ts/dur.
trace=$(mktemp)
"$runner" --graph=examples/graphs/multi_tower_cpu.pbtxt --config=examples/cpu3.config.pbtxt \
  --fetch=AddN --trace="$trace" >/dev/null || { echo "FAIL trace run"; fail=1; }
python3 - "$trace" <<'PY' || fail=1
import json, sys
t = json.load(open(sys.argv[1]))
procs = {e["args"]["name"] for e in t["traceEvents"] if e["ph"] == "M"}
assert len(procs) == 3, procs
ops = {e["args"]["op"] for e in t["traceEvents"] if e["ph"] == "X"}
assert {"MatMul", "AddN", "_Send", "_Recv"} <= ops, ops
assert all("ts" in e and "dur" in e for e in t["traceEvents"] if e["ph"] == "X")
print("ok   trace")
PY
exit $fail

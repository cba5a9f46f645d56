#!/bin/bash
# summarize_graph on examples/graphs/multi_tower_cpu.pbtxt, and on a file that is not a graph.
set -u
BIN=tools/summarize_graph/summarize_graph
fail() { echo "FAIL: $*"; exit 1; }

out=$("$BIN" --in_graph=examples/graphs/multi_tower_cpu.pbtxt) || fail "exit status $? on multi_tower_cpu"
echo "$out"
for line in "nodes: 7" "  Const 4" "  MatMul 2" "  AddN 1" "inputs: 0" "outputs: 1" "  AddN (AddN)" \
    "devices: 3" "  /device:CPU:0 1" "  /device:CPU:1 3" "  /device:CPU:2 3" \
    "constants: 4 Const nodes, 96 bytes" "functions: 0" "unknown ops: none"; do
  grep -qxF -- "$line" <<<"$out" || fail "missing line '$line'"
done

bad="$TEST_TMPDIR/not_a_graph.txt"
echo "this is not a graph" > "$bad"
"$BIN" --in_graph="$bad" >"$TEST_TMPDIR/out" 2>"$TEST_TMPDIR/err"
rc=$?
[[ $rc -eq 1 ]] || fail "exit status $rc for a file that is not a graph, want 1"
[[ ! -s "$TEST_TMPDIR/out" ]] || fail "stdout not empty: $(cat "$TEST_TMPDIR/out")"
err=$(cat "$TEST_TMPDIR/err")
[[ "$err" == "InvalidArgument: $bad is neither a binary nor a text GraphDef"* ]] \
    || fail "stderr: $err"
[[ $(wc -l <"$TEST_TMPDIR/err") -eq 1 ]] || fail "stderr not one line: $err"

"$BIN" --in_graph="$TEST_TMPDIR/missing.pb" 2>"$TEST_TMPDIR/err2" && fail "missing file exited 0"
grep -q "^NotFound: " "$TEST_TMPDIR/err2" || fail "missing file stderr: $(cat "$TEST_TMPDIR/err2")"
echo PASS

#!/usr/bin/env bash
# The every-op sweep (op_sweep.h) over every registered op: no case may crash, abort, hang, run
# out of its address space or break a property. On failure the log names each case; rerun one with
# `op_sweep --ops=OP --out=DIR` and session_runner on DIR's GraphDef.
set -u
out=$("$1" 2>/dev/null)
rc=$?
echo "$out" | grep -vE "^(INTERNAL|DEADLINE_EXCEEDED|UNKNOWN) " | tail -40
if [ $rc -ne 0 ] || ! echo "$out" | grep -q "^failures 0,"; then
  echo "FAILED: op_sweep exit $rc"
  exit 1
fi
# Every registered op took part.
echo "$out" | grep -q "skipped 0, cases" || { echo "FAILED: ops were skipped"; exit 1; }
echo PASSED

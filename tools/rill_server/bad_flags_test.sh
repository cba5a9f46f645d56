#!/bin/bash
# rill_server given bad flag values exits with status 1 before serving, naming the flag on stderr.
set -u
server="$1"
fails=0
expect() {  # expect TEXT FLAGS...
  local want="$1"
  shift
  local err rc
  err=$("$server" "$@" 2>&1 >/dev/null)
  rc=$?
  if [[ $rc -ne 1 || "$err" != *"$want"* ]]; then
    echo "FAIL: rill_server $* -> status $rc, stderr: $err (want status 1 and: $want)"
    fails=1
  fi
}
spec="--cluster_spec=worker|127.0.0.1:1"
expect "rill_server: --inter_op_threads is 100000000; Rill allows at most 1024 threads per pool." \
  "$spec" --job_name=worker --task_id=0 --inter_op_threads=100000000
expect "rill_server: --intra_op_threads is 2000; Rill allows at most 1024 threads per pool." \
  "$spec" --job_name=worker --task_id=0 --intra_op_threads=2000
expect "rill_server: --inter_op_threads is '-5'; give 0 for one thread per core" \
  "$spec" --job_name=worker --task_id=0 --inter_op_threads=-5
expect "rill_server: --task_id is 'x'; give the task's index in its job" \
  "$spec" --job_name=worker --task_id=x
expect "rill_server: --same_host_min_bytes is '1e9'; give a size in bytes" \
  "$spec" --job_name=worker --task_id=0 --same_host_min_bytes=1e9
exit $fails

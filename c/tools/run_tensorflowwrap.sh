#!/bin/bash
# Builds the real-TensorFlow tests of schroedermatthew/TensorFlowWrap (a C++20 header-only
# wrapper over TensorFlow's C API: tensors, graphs, operations, sessions, SavedModels, device
# lists; 5f054f5) unmodified, with the g++ command of its CI's real-tensorflow job, against Rill's
# C API release tarball; runs each on the SavedModel that job writes
# (c/testdata/client_programs/tensorflowwrap/test_savedmodel, from
# c/tools/make_tensorflowwrap_model.py) and compares what it prints with TensorFlow 2.21's.
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_tensorflowwrap.sh /path/to/TensorFlowWrap [WORK_DIR]
#
# The tests print timings and the machine's thread count ("[4000 inferences in 51ms ...]",
# "Total time", "Hardware concurrency"); those are left out of both sides. Prints a line per test
# program; exits 1 if one fails.
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"

rm -rf "${work:?}/run" && mkdir -p "${work:?}/run"
ln -s "$expected_dir/tensorflowwrap/test_savedmodel" "${work:?}/run/test_savedmodel"
tests=(tensor session facade graph operation comprehensive adversarial soak thread_safety)
for t in "${tests[@]}"; do
  g++ -std=c++20 -O2 -Wall -Wextra -Wpedantic -I"$checkout/include" -I"$root/include" \
    "$checkout/tests/test_${t}_tf.cpp" -L"$root/lib" -ltensorflow -Wl,-rpath,"$root/lib" \
    -pthread -o "${work:?}/run/test_${t}_tf" 2> "${work:?}/build_$t.log"
done

# without_timings BINARY: runs it, printing its output without the timings; its exit status.
# shellcheck disable=SC2317  # called by check
without_timings() {
  local rc=0
  "$1" > "${work:?}/raw.out" || rc=$?
  sed -E 's/ ?\[[^]]*\]//g; /^Total time:/d; /^Hardware concurrency:/d' "${work:?}/raw.out"
  return "$rc"
}

for t in "${tests[@]}"; do
  check "test_${t}_tf" "$expected_dir/tensorflowwrap/test_${t}_tf.txt" "${work:?}/run" \
    without_timings "./test_${t}_tf"
done
exit "$client_status"

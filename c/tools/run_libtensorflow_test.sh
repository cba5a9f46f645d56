#!/bin/bash
# Runs TensorFlow's own check of its C library release tarball, tensorflow/tools/lib_package/
# libtensorflow_test.sh with libtensorflow_test.c (the sh_test TensorFlow's release build runs on
# libtensorflow.tar.gz), unmodified, on Rill's tarball: laid out as that test's Bazel workspace
# (tensorflow/tools/lib_package/ holding the two files and the tarball as libtensorflow.tar.gz),
# it unpacks the tarball, compiles the C file with gcc -ltensorflow_framework -ltensorflow (TF_NewStatus,
# TF_SetStatus, TF_GetCode, TF_DeleteStatus) and runs it; the test passes when it exits 0, as it
# does with TensorFlow 2.21's library.
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_libtensorflow_test.sh /path/to/tensorflow [WORK_DIR]
# (a TensorFlow checkout, or any directory holding tensorflow/tools/lib_package/libtensorflow_test.*)
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"
ws="${work:?}/ws"
pkg="$ws/tensorflow/tools/lib_package"
rm -rf "$ws" "${work:?}/test_tmp" && mkdir -p "$pkg" "${work:?}/test_tmp"
cp "$checkout/tensorflow/tools/lib_package/libtensorflow_test.sh" \
  "$checkout/tensorflow/tools/lib_package/libtensorflow_test.c" "$pkg/"
cp "${RILL_TARBALL:-$repo/bazel-bin/c/libtensorflow.tar.gz}" "$pkg/libtensorflow.tar.gz"
rc=0
(cd "$ws" && TEST_TMPDIR="${work:?}/test_tmp" bash tensorflow/tools/lib_package/libtensorflow_test.sh) \
  > "${work:?}/libtensorflow_test.out" 2>&1 || rc=$?
if [[ $rc == 0 ]]; then
  echo "libtensorflow_test: PASS"
else
  echo "libtensorflow_test: FAIL (exit status $rc)"
  tail -3 "${work:?}/libtensorflow_test.out"
  client_status=1
fi
exit "$client_status"

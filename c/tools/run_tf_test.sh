#!/bin/bash
# Builds wedesoft/tf-test (a096f70) unmodified with its own Makefile against Rill's C API release
# tarball (gcc finds the headers and library through CPATH and LIBRARY_PATH) and runs its two C
# API programs:
#   tf-test  builds Placeholder(double) -> Square, runs it, adds the gradient with
#            TF_AddGradients to the graph the session already runs, and runs that; its output
#            is compared with TensorFlow 2.21's (c/testdata/client_programs/tf_test/).
#   ops      writes TF_GetAllOpList() to ops.pb; checked by decoding it as tensorflow.OpList with
#            protoc and the repository's op_def.proto (the Makefile's ops.pbtxt rule, with protoc
#            for protoc-c) and finding the ops tf-test uses (the op sets of Rill and TensorFlow
#            differ, so the lists are not compared).
# parse (needs protobuf-c) and tpl (ClearSilver) are not C API programs' checks here.
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_tf_test.sh /path/to/tf-test [WORK_DIR]
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"

rm -rf "${work:?}/src" && cp -r "$checkout" "${work:?}/src"
CPATH="$root/include" LIBRARY_PATH="$root/lib" make -C "${work:?}/src" tf-test ops \
  > "${work:?}/build.log" 2>&1
export LD_LIBRARY_PATH="$root/lib"
check tf-test "$expected_dir/tf_test/tf-test.txt" "${work:?}/src" ./tf-test

# op_list_has OP...: runs ./ops, decodes ops.pb, prints how many ops it lists; fails when one of
# OP is missing.
op_list_has() {
  ./ops
  protoc tensorflow/core/framework/op_def.proto --decode=tensorflow.OpList < ops.pb > ops.pbtxt
  local op
  for op in "$@"; do grep -qx "  name: \"$op\"" ops.pbtxt || { echo "no $op" >&2; return 1; }; done
  echo "ops.pb decodes: $(grep -c '^op {' ops.pbtxt) ops, with $*"
}
if (cd "${work:?}/src" && op_list_has Placeholder Square Mul Const) > "${work:?}/ops.out" \
  2> "${work:?}/ops.err"; then
  echo "ops: PASS ($(cat "${work:?}/ops.out"))"
else
  echo "ops: FAIL"; tail -3 "${work:?}/ops.err"; client_status=1
fi
exit "$client_status"

#!/bin/bash
# Builds yuriapxlt/tensorflow_c (2628478: a C++ wrapper of TensorFlow's C API, tensorflow_c/api.cc,
# with a googletest suite and two example programs) unmodified against Rill's C API release
# tarball and runs them in the checkout, where they read its TF1 graphs session.pb (Add of two
# placeholders, an `init` NoOp) and model.pb (constants and a ReduceSum of a uint8 image):
#   test     its Bazel cc_test (test.cc + tensorflow_c/api.cc + gtest_main): TF_Version, the
#            serialized ConfigProto of gpu_fraction given to TF_SetConfig, TF_NewTensor with a
#            free() deallocator, TF_GraphGetTensorShape, TF_SessionRun of 5 tests;
#   session  and model, its README's `bazel run //:session` and `bazel run //:model`.
# Its WORKSPACE fetches googletest and wraps /opt/libtensorflow in a cc_library; here g++ compiles
# the same sources against the unpacked tarball and Debian's googletest (libgtest-dev). The outputs
# are compared with TensorFlow 2.21's (c/testdata/client_programs/yuriapxlt/; googletest's
# timings left out with --gtest_print_time=0).
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_yuriapxlt.sh /path/to/tensorflow_c [WORK_DIR]
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"
src="${work:?}/src"
rm -rf "$src" && cp -r "$checkout" "$src"
build() {  # build OUT SOURCE... : g++ as Bazel's cc_binary/cc_test would, against the tarball
  local out=$1
  shift
  (cd "$src" && g++ -std=c++17 -I. -I"$root/include" "$@" tensorflow_c/api.cc -L"$root/lib" \
    -ltensorflow -lgtest_main -lgtest -pthread -o "$out") >> "${work:?}/build.log" 2>&1
}
build test test.cc
build session session.cc
build model model.cc
export LD_LIBRARY_PATH="$root/lib"
check test "$expected_dir/yuriapxlt/test.txt" "$src" ./test --gtest_print_time=0
check session "$expected_dir/yuriapxlt/session.txt" "$src" ./session
check model "$expected_dir/yuriapxlt/model.txt" "$src" ./model
exit "$client_status"

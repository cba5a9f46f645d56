#!/bin/bash
# Builds BART (mrirecon/bart 731bfd3, the Berkeley Advanced Reconstruction Toolbox, C) unmodified
# with its own Makefile and TensorFlow support (make TENSORFLOW=1 TENSORFLOW_BASE=<the unpacked
# tarball>, which links -ltensorflow_framework -ltensorflow) against Rill's C API release tarball,
# and runs its TensorFlow checks (src/nn/tf_wrapper.c: TF_GraphImportGraphDef of a TF1 graph with
# a TF_Buffer deallocator, TF_SetConfig with a serialized ConfigProto, TF_GraphGetTensorShape,
# TF_LoadSessionFromSavedModel, TF_SessionRun forward and gradient passes):
#   test_nn_tf     its unit test (utests/test_nn_tf.pb: forward, adjoint and Jacobian checks);
#   tensorflow1    tests/test-reconet-nnmodl-tensorflow1: tests/network_tf1.py writes a TF1 ResNet
#                  graph (Python TensorFlow), `bart reconet` trains it for 10 epochs through the C
#                  API, and nrmse checks its weights against BART's own network's (the test's
#                  tolerances: the nrmse values themselves are float rounding, 1e-7 to 1e-5);
#   tensorflow2    tests/test-reconet-nnmodl-tensorflow2, the same with a TF2 SavedModel (its
#                  serving StatefulPartitionedCall's outputs and their shapes).
# Each test's exit status and error lines are compared.
# Needs BART's build dependencies (Debian: libfftw3-dev liblapacke-dev libopenblas-dev libpng-dev)
# and python3 with TensorFlow for the tests' model scripts. The outputs are compared with what the
# same build linked with TensorFlow 2.21's library printed (c/testdata/client_programs/bart/).
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_bart.sh /path/to/bart [WORK_DIR]
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"
src="${work:?}/src"
rm -rf "$src" && cp -r "$checkout" "$src"
bart_make() { make TENSORFLOW=1 TENSORFLOW_BASE="$root" "$@"; }
(cd "$src" && bart_make -j"$(nproc)" bart test_nn_tf) > "${work:?}/build.log" 2>&1
# reconet_test NAME: runs tests/test-reconet-nnmodl-NAME; prints its exit status and error lines.
# shellcheck disable=SC2317  # run through check
reconet_test() {
  local rc=0
  bart_make "tests/test-reconet-nnmodl-$1" > "${work:?}/$1.log" 2>&1 || rc=$?
  echo "exit status $rc"
  grep -a -o 'ERROR: .*' "${work:?}/$1.log" | sed 's/\x1b\[[0-9;]*m//g' || true
}
# unit_test: runs utests' test_nn_tf, which writes its summary ("5/ 5 passed.") to stderr.
# shellcheck disable=SC2317  # run through check
unit_test() { ./test_nn_tf 2>&1 | grep -a ' passed\.$'; }
check test_nn_tf "$expected_dir/bart/test_nn_tf.txt" "$src" unit_test
check tensorflow1 "$expected_dir/bart/tensorflow1.txt" "$src" reconet_test tensorflow1
check tensorflow2 "$expected_dir/bart/tensorflow2.txt" "$src" reconet_test tensorflow2
exit "$client_status"

#!/bin/bash
# Builds cppflow 1 (serizba/cppflow at 243ff2f, its last version: Model and Tensor classes over
# c_api.h, TF_TString for TensorFlow >= 2.4) unmodified with the load_model example's CMake,
# which looks for TensorFlow in $HOME/libtensorflow, against Rill's C API release tarball, runs
# it on the example's GraphDef (it reads ../model.pb) and compares its output with TensorFlow
# 2.21's (c/testdata/client_programs/cppflow1/).
#
#   bazel build //c:libtensorflow_tarball
#   git -C /path/to/cppflow checkout 243ff2f
#   c/tools/run_cppflow1.sh /path/to/cppflow [WORK_DIR]
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"

rm -rf "${work:?}/home" "${work:?}/load_model"
mkdir -p "${work:?}/home" "${work:?}/load_model/build"
ln -s "$root" "${work:?}/home/libtensorflow"
ln -s "$checkout/examples/load_model/model.pb" "${work:?}/load_model/model.pb"
HOME="${work:?}/home" cmake -S "$checkout/examples/load_model" -B "${work:?}/load_model/build" \
  > "${work:?}/cmake.log"
cmake --build "${work:?}/load_model/build" > "${work:?}/build.log"
LD_LIBRARY_PATH="$root/lib" check load_model "$expected_dir/cppflow1/load_model.txt" \
  "${work:?}/load_model/build" ./example
exit "$client_status"

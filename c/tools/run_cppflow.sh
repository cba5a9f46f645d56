#!/bin/bash
# Builds serizba/cppflow 2 (the header-only C++ wrapper over TensorFlow's eager C API and
# c_api.h) unmodified with its own CMake against Rill's C API release tarball, runs its examples,
# and compares what they print with what they print on TensorFlow 2.21
# (c/testdata/client_programs/cppflow/).
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_cppflow.sh /path/to/cppflow [WORK_DIR]
#
# Examples run: tensor, eager_op_multithread (32 threads of eager ops), load_model and
# multi_input_output (SavedModels in the checkout), load_frozen_graph (a GraphDef; its own
# CMake, which looks in $HOME/libtensorflow2, and it reads ../model.pb). efficientnet is built,
# not run: its model is written by create_model.py from Keras's downloaded ImageNet weights.
# Prints a line per example; exits 1 if one fails.
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"

rm -rf "${work:?}/build" "${work:?}/load_frozen_graph" "${work:?}/home"
cmake -S "$checkout" -B "${work:?}/build" -DCMAKE_PREFIX_PATH="$root" > "${work:?}/cmake.log"
cmake --build "${work:?}/build" -j2 > "${work:?}/build.log"
mkdir -p "${work:?}/home" "${work:?}/load_frozen_graph/build"
ln -s "$root" "${work:?}/home/libtensorflow2"
ln -s "$checkout/examples/load_frozen_graph/model.pb" "${work:?}/load_frozen_graph/model.pb"
HOME="${work:?}/home" cmake -S "$checkout/examples/load_frozen_graph" \
  -B "${work:?}/load_frozen_graph/build" > "${work:?}/cmake_load_frozen_graph.log"
cmake --build "${work:?}/load_frozen_graph/build" > "${work:?}/build_load_frozen_graph.log"

export LD_LIBRARY_PATH="$root/lib"
expected="$expected_dir/cppflow"
for example in tensor eager_op_multithread load_model multi_input_output; do
  check "$example" "$expected/$example.txt" "${work:?}/build/examples/$example" "./$example"
done
check load_frozen_graph "$expected/load_frozen_graph.txt" "${work:?}/load_frozen_graph/build" \
  ./example
exit "$client_status"

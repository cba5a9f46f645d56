#!/bin/bash
# Builds and tests an unmodified checkout of Neargye/hello_tf_c_api (its CMake, its ctest) against
# Rill's C API release tarball: its include/ and lib/ are laid out as the TensorFlow wheel the
# checkout's CMakeLists.txt looks for, and its download is turned off.
#
#   bazel build //c:libtensorflow_tarball
#   c/tools/run_hello_tf_c_api.sh /path/to/hello_tf_c_api [WORK_DIR]
#
# Prints ctest's summary; exits with ctest's status.
set -euo pipefail
# shellcheck source=c/tools/client_program_lib.sh
source "$(dirname "$0")/client_program_lib.sh"

start_work "$@"
wheel="$work/tensorflow_root/python/tensorflow"
rm -rf "$work/tensorflow_root" "$work/build"
mkdir -p "$wheel"
mv "$root/include" "$root"/lib/* "$wheel"/

cmake -S "$checkout" -B "$work/build" -DTENSORFLOW_ROOT="$work/tensorflow_root" \
  -DHELLO_TF_FETCH_TENSORFLOW=OFF > "$work/cmake.log"
cmake --build "$work/build" -j2 > "$work/build.log"
cd "$work/build"
LD_LIBRARY_PATH="$wheel" ctest --output-on-failure

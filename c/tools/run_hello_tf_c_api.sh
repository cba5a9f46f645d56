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

checkout=$(readlink -f "$1")
work=${2:-$(mktemp -d)}
repo=$(cd "$(dirname "$0")/../.." && pwd)
tarball="$repo/bazel-bin/c/libtensorflow.tar.gz"
[[ -f "$tarball" ]] || { echo "build //c:libtensorflow_tarball first" >&2; exit 2; }

wheel="$work/tensorflow_root/python/tensorflow"
rm -rf "$work/tensorflow_root" "$work/build"
mkdir -p "$wheel"
tar -xzf "$tarball" -C "$wheel"
mv "$wheel"/lib/* "$wheel"/ && rmdir "$wheel/lib"

cmake -S "$checkout" -B "$work/build" -DTENSORFLOW_ROOT="$work/tensorflow_root" \
  -DHELLO_TF_FETCH_TENSORFLOW=OFF > "$work/cmake.log"
cmake --build "$work/build" -j2 > "$work/build.log"
cd "$work/build"
LD_LIBRARY_PATH="$wheel" ctest --output-on-failure

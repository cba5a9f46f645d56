#!/bin/bash
# Builds and tests an unmodified checkout of Neargye/hello_tf_c_api (its CMake, its ctest) against
# Rill's C API: the headers and libtensorflow.so.2 are laid out as the TensorFlow wheel its
# CMakeLists.txt looks for, and its download is turned off.
#
#   bazel build //c:libtensorflow.so.2
#   c/tools/run_hello_tf_c_api.sh /path/to/hello_tf_c_api [WORK_DIR]
#
# Prints ctest's summary; exits with ctest's status.
set -euo pipefail

checkout=$(readlink -f "$1")
work=${2:-$(mktemp -d)}
repo=$(cd "$(dirname "$0")/../.." && pwd)
lib="$repo/bazel-bin/c/libtensorflow.so.2"
[[ -f "$lib" ]] || { echo "build //c:libtensorflow.so.2 first" >&2; exit 2; }

wheel="$work/tensorflow_root/python/tensorflow"
rm -rf "$work/tensorflow_root" "$work/build"
mkdir -p "$wheel/include"
cp -r "$repo/c/include/tensorflow" "$wheel/include/"
cp "$lib" "$wheel/libtensorflow.so.2"
ln -s libtensorflow.so.2 "$wheel/libtensorflow.so"

cmake -S "$checkout" -B "$work/build" -DTENSORFLOW_ROOT="$work/tensorflow_root" \
  -DHELLO_TF_FETCH_TENSORFLOW=OFF > "$work/cmake.log"
cmake --build "$work/build" -j2 > "$work/build.log"
cd "$work/build"
LD_LIBRARY_PATH="$wheel" ctest --output-on-failure

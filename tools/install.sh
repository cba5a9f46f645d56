#!/usr/bin/env bash
# Installs Rill as a package into PREFIX (default /usr/local), for programs built outside Bazel:
#   PREFIX/lib/librill.so                  the C++ API (namespace rill), every op and CPU kernel
#   PREFIX/lib/libtensorflow.so{,.2}       TensorFlow's C API (c/), the same ops and kernels
#   PREFIX/lib/libtensorflow_framework.so{,.2}  empty, for link lines that name it as TensorFlow's
#   PREFIX/include/rill/...                Rill's headers (core/, graph/, session/, ops/,
#                                          kernels/framework/, generated proto/*.pb.h)
#   PREFIX/include/tensorflow/c/*.h        the C API's headers, in TensorFlow's layout
#   PREFIX/lib/pkgconfig/{rill,tensorflow}.pc
#   PREFIX/lib/cmake/Rill/RillConfig.cmake  imported targets Rill::rill and Rill::tensorflow
# Usage, from the repository root (after tools/install_deps.sh):
#   tools/install.sh [PREFIX]
# RILL_COMPILATION_MODE (default opt) is Bazel's -c; tools/check_install.sh uses the test build's
# (fastbuild, -O2 in .bazelrc) to reuse its outputs.
# Then: g++ -std=c++17 prog.cc $(pkg-config --cflags --libs rill), or in CMake
# find_package(Rill) and target_link_libraries(prog Rill::rill) (examples/cmake/).
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(realpath -m "${1:-/usr/local}")
mode=${RILL_COMPILATION_MODE:-opt}
bazel build -c "$mode" //:librill.so //c:libtensorflow.so.2 //c:libtensorflow_framework.so.2 \
  //proto:protos >&2
bin=$(bazel info -c "$mode" bazel-bin 2>/dev/null)
mkdir -p "$prefix/lib/pkgconfig" "$prefix/lib/cmake/Rill" "$prefix/include/rill" \
  "$prefix/include/tensorflow/c"
install -m 0755 "$bin/librill.so" "$prefix/lib/librill.so"
install -m 0755 "$bin/c/libtensorflow.so.2" "$prefix/lib/libtensorflow.so.2"
ln -sf libtensorflow.so.2 "$prefix/lib/libtensorflow.so"
install -m 0755 "$bin/c/libtensorflow_framework.so.2" "$prefix/lib/libtensorflow_framework.so.2"
ln -sf libtensorflow_framework.so.2 "$prefix/lib/libtensorflow_framework.so"
# Headers keep their repository paths ("session/session.h"); tests' headers stay behind.
find core graph session ops kernels/framework -name '*.h' ! -name '*_test*' ! -name 'test_*' \
  ! -path '*/testdata/*' -print0 |
  while IFS= read -r -d '' h; do install -D -m 0644 "$h" "$prefix/include/rill/$h"; done
for h in "$bin"/proto/*.pb.h; do install -D -m 0644 "$h" "$prefix/include/rill/proto/$(basename "$h")"; done
install -m 0644 c/include/tensorflow/c/*.h "$prefix/include/tensorflow/c/"
install -D -m 0644 -t "$prefix/include/tensorflow/c/eager" c/include/tensorflow/c/eager/*.h
# What programs that use Rill's headers link besides librill.so: protobuf and Abseil, whose inline
# code the headers use.
deps_libs="-lprotobuf $(sed -n '/name = "absl"/,/)/p' third_party/system/system.BUILD |
  grep -o '"-l[a-z_0-9]*"' | tr -d '"' | tr '\n' ' ')"
version=$(sed -n 's/.*TF_Version(void) { return "\(.*\)"; }/\1/p' c/status_buffer.cc | head -1)
cat >"$prefix/lib/pkgconfig/rill.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: rill
Description: Rill, a TensorFlow 1.x-style graph and session engine (C++ API)
Version: ${version:-0}
Cflags: -std=c++17 -I\${includedir}/rill
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -lrill $deps_libs
PC
cat >"$prefix/lib/pkgconfig/tensorflow.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: tensorflow
Description: Rill's libtensorflow-compatible C API
Version: ${version:-0}
Cflags: -I\${includedir}
Libs: -L\${libdir} -Wl,-rpath,\${libdir} -ltensorflow
PC
cmake_libs=$(echo "$deps_libs" | sed 's/-l//g; s/ *$//; s/ /;/g')
cat >"$prefix/lib/cmake/Rill/RillConfig.cmake" <<CMAKE
# Rill's CMake package (tools/install.sh): find_package(Rill REQUIRED), then link Rill::rill (the
# C++ API) or Rill::tensorflow (TensorFlow's C API).
get_filename_component(_rill_prefix "\${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
if(NOT TARGET Rill::rill)
  add_library(Rill::rill SHARED IMPORTED)
  set_target_properties(Rill::rill PROPERTIES
    IMPORTED_LOCATION "\${_rill_prefix}/lib/librill.so"
    INTERFACE_INCLUDE_DIRECTORIES "\${_rill_prefix}/include/rill"
    INTERFACE_COMPILE_FEATURES cxx_std_17
    INTERFACE_LINK_LIBRARIES "$cmake_libs")
  add_library(Rill::tensorflow SHARED IMPORTED)
  set_target_properties(Rill::tensorflow PROPERTIES
    IMPORTED_LOCATION "\${_rill_prefix}/lib/libtensorflow.so.2"
    IMPORTED_SONAME "libtensorflow.so.2"
    INTERFACE_INCLUDE_DIRECTORIES "\${_rill_prefix}/include")
  # Rill-only: for libraries of custom ops that TF_LoadLibrary loads (examples/custom_op): Rill's
  # C++ headers, linked with libtensorflow.so.2, whose registries they register into.
  add_library(Rill::custom_op INTERFACE IMPORTED)
  set_target_properties(Rill::custom_op PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "\${_rill_prefix}/include/rill"
    INTERFACE_COMPILE_FEATURES cxx_std_17
    INTERFACE_LINK_LIBRARIES "Rill::tensorflow;$cmake_libs")
endif()
set(Rill_FOUND TRUE)
CMAKE
echo "installed Rill in $prefix"

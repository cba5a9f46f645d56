#!/usr/bin/env bash
# Proof that Rill works as an installed package (issue 27): tools/install.sh into a temporary
# PREFIX, then examples/cmake built with CMake against it and run, and the same C++ and C programs
# built with plain g++/gcc and pkg-config. Prints one "ok"/"FAIL" line per check; exits 1 on any
# failure. Run from the repository root (CI runs it after the tests).
set -uo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
check() {  # check NAME EXPECTED_STDOUT COMMAND...
  local name="$1" want="$2" got
  shift 2
  got=$("$@" 2>&1)
  if [ "$got" = "$want" ]; then echo "ok   $name"; else
    echo "FAIL $name: got"; echo "$got"; echo "want"; echo "$want"; fail=1; fi
}
RILL_COMPILATION_MODE=${RILL_COMPILATION_MODE:-fastbuild} tools/install.sh "$tmp/prefix" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
cxx_want="22.5 0 49.5 0 "
c_want="TF_Version 2.21.0
MatMul 22 28 49 64"
if cmake -S examples/cmake -B "$tmp/build" -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/cmake.log" 2>&1 &&
   cmake --build "$tmp/build" >>"$tmp/cmake.log" 2>&1; then
  check cmake_cxx "$cxx_want" "$tmp/build/hello_rill"
  check cmake_c "$c_want" "$tmp/build/hello_c_api"
  check cmake_custom_op "loaded ops: ZeroOut
ZeroOut 5 0 0" "$tmp/build/load_custom_op" "$tmp/build/libzero_out.so"
else
  echo "FAIL cmake build:"; cat "$tmp/cmake.log"; fail=1
fi
export PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig"
# shellcheck disable=SC2046
if g++ examples/hello_rill.cc -o "$tmp/hello_pc" $(pkg-config --cflags --libs rill) 2>"$tmp/gxx.log"; then
  check pkg_config_cxx "$cxx_want" "$tmp/hello_pc"
else
  echo "FAIL pkg-config g++:"; cat "$tmp/gxx.log"; fail=1
fi
# shellcheck disable=SC2046
if gcc -std=c99 examples/cmake/hello_c_api.c -o "$tmp/hello_c_pc" $(pkg-config --cflags --libs tensorflow) 2>"$tmp/gcc.log"; then
  check pkg_config_c "$c_want" "$tmp/hello_c_pc"
else
  echo "FAIL pkg-config gcc:"; cat "$tmp/gcc.log"; fail=1
fi
# Only Rill's C++ API leaves librill.so, only TF_* leaves libtensorflow.
others=$(nm -DC --defined-only "$tmp/prefix/lib/librill.so" | awk '{$1=$2=""; print}' |
  grep -v "rill::\|descriptor_table_" | head -5)
if [ -z "$others" ]; then echo "ok   librill_exports_only_rill"; else
  echo "FAIL librill exports: $others"; fail=1; fi
exit $fail

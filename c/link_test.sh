#!/bin/bash
# Checks the release tarball (libtensorflow.tar.gz) as a client sees it, outside Bazel:
#  1. TensorFlow's layout: include/tensorflow/c/c_api.h, lib/libtensorflow.so.2,
#     lib/libtensorflow_framework.so.2 (empty) and their lib/*.so symlinks;
#  2. the library exports only TF_* and TFE_* symbols, the Rill-only RILL_* ones and Rill's C++
#     API (for TF_LoadLibrary's op libraries) (nm -D --defined-only), and every function the headers
#     declare;
#  3. a C program compiles against include/ and links with -ltensorflow (gcc -std=c99 -Wall
#     -Werror -pedantic), and runs; linked with -ltensorflow_framework -ltensorflow too (as BART's
#     Makefile links), it runs as well.
set -euo pipefail

tarball=$(readlink -f "$1")
smoke_source=$(readlink -f "$2")
work=${TEST_TMPDIR:-$(mktemp -d)}/release
rm -rf "$work" && mkdir -p "$work"
tar -xzf "$tarball" -C "$work"
for f in include/tensorflow/c/c_api.h include/tensorflow/c/tf_tstring.h \
  include/tensorflow/c/eager/c_api.h lib/libtensorflow.so.2 lib/libtensorflow_framework.so.2; do
  [[ -f "$work/$f" ]] || { echo "FAIL: $f missing from the tarball"; exit 1; }
done
for f in lib/libtensorflow.so lib/libtensorflow_framework.so; do
  [[ -L "$work/$f" ]] || { echo "FAIL: $f is not a symlink"; exit 1; }
done
if nm -D --defined-only "$work/lib/libtensorflow_framework.so.2" | grep -E ' [B-Z] (TF|TFE)_'; then
  echo "FAIL: libtensorflow_framework.so.2 defines C API functions (libtensorflow.so.2 has them)"
  exit 1
fi
lib="$work/lib/libtensorflow.so.2"

# Global symbols (upper-case types) other than the version node itself (type A, VERS_1.0);
# lower-case ones are local (thread-locals keep a .dynsym entry but are not exported).
nm -D --defined-only "$lib" | awk '$2 ~ /^[B-Z]$/ {print $3}' | sed 's/@.*//' | sort -u \
  > "$work/exported.txt"
echo "exported symbols: $(wc -l < "$work/exported.txt")"
c++filt < "$work/exported.txt" | grep -v -e '^TF_' -e '^TFE_' -e '^RILL_' -e '^descriptor_table_' \
  -e '^rill::' -e '^\(typeinfo for\|typeinfo name for\|vtable for\|VTT for\|guard variable for\) rill::' \
  > "$work/others.txt" || true
if [[ -s "$work/others.txt" ]]; then
  head -20 "$work/others.txt"
  echo "FAIL: symbols other than TF_*, RILL_* and Rill's C++ API are exported (listed above)"
  exit 1
fi
echo "soname: $(objdump -p "$lib" | awk '/SONAME/ {print $2}')"

cat "$work"/include/tensorflow/c/*.h "$work"/include/tensorflow/c/eager/*.h | tr '\n' ' ' |
  grep -o 'TF_CAPI_EXPORT[^;(]*(' |
  grep -oE '(TF|TFE|RILL)_[A-Za-z0-9_]*\($' | tr -d '(' | sort -u > "$work/declared.txt"
echo "declared functions: $(wc -l < "$work/declared.txt")"
missing=$(comm -23 "$work/declared.txt" "$work/exported.txt")
if [[ -n "$missing" ]]; then
  echo "FAIL: declared but not exported:"
  echo "$missing"
  exit 1
fi

# A library built with --config=asan needs its runtime first in the client too. Under
# --config=tsan, Rill's TSan support (core/tsan_support.cc) must be in the executable, which a
# shared library cannot give: the client is built, but not run.
sanitize=()
run=1
if nm -D --undefined-only "$lib" | grep __asan_init > /dev/null; then
  sanitize=(-fsanitize=address,undefined)
fi
if nm -D --undefined-only "$lib" | grep __tsan_init > /dev/null; then
  sanitize=(-fsanitize=thread)
  run=0
fi
gcc -std=c99 -Wall -Werror -pedantic "${sanitize[@]}" -I"$work/include" "$smoke_source" \
  -L"$work/lib" -ltensorflow -o "$work/smoke"
gcc -std=c99 -Wall -Werror -pedantic "${sanitize[@]}" -I"$work/include" "$smoke_source" \
  -L"$work/lib" -ltensorflow_framework -ltensorflow -o "$work/smoke_framework"
if [[ $run == 1 ]]; then
  LD_LIBRARY_PATH="$work/lib" "$work/smoke"
  LD_LIBRARY_PATH="$work/lib" "$work/smoke_framework" > /dev/null
else
  echo "built the client; not run under ThreadSanitizer (see above)"
fi
echo "PASS"

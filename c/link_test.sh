#!/bin/bash
# Outside-Bazel checks of libtensorflow.so.2:
#  1. it exports only TF_* symbols (nm -D --defined-only), and every function the headers
#     declare;
#  2. a C program compiles against c/include and links with -ltensorflow (gcc, as a client
#     would), and runs.
set -euo pipefail

lib_dir=$(dirname "$(readlink -f "$1")")  # libtensorflow.so.2
include_dir=$(dirname "$(dirname "$(readlink -f "$2")")")/..  # .../include/tensorflow/c/c_api.h
smoke_source=$(readlink -f "$3")
work=${TEST_TMPDIR:-$(mktemp -d)}

cp "$(readlink -f "$1")" "$work/libtensorflow.so.2"
ln -sf libtensorflow.so.2 "$work/libtensorflow.so"

# Global symbols (upper-case types) other than the version node itself (type A, VERS_1.0);
# lower-case ones are local (thread-locals keep a .dynsym entry but are not exported).
nm -D --defined-only "$work/libtensorflow.so.2" | awk '$2 ~ /^[B-Z]$/ {print $3}' |
  sed 's/@.*//' | sort -u > "$work/exported.txt"
count=$(wc -l < "$work/exported.txt")
echo "exported symbols: $count"
if grep -v '^TF_' "$work/exported.txt"; then
  echo "FAIL: symbols other than TF_* are exported (listed above)"
  exit 1
fi

cat "$include_dir"/tensorflow/c/*.h | tr '\n' ' ' | grep -o 'TF_CAPI_EXPORT[^;(]*(' |
  grep -o 'TF_[A-Za-z0-9_]*($' | tr -d '(' | sort -u > "$work/declared.txt"
echo "declared functions: $(wc -l < "$work/declared.txt")"
missing=$(comm -23 "$work/declared.txt" "$work/exported.txt")
if [[ -n "$missing" ]]; then
  echo "FAIL: declared but not exported:"
  echo "$missing"
  exit 1
fi

# A library built with --config=asan needs its runtime first in the client too.
sanitize=()
if nm -D --undefined-only "$work/libtensorflow.so.2" | grep __asan_init > /dev/null; then
  sanitize=(-fsanitize=address,undefined)
fi
gcc -std=c99 -Wall -Werror -pedantic "${sanitize[@]}" -I"$include_dir" "$smoke_source" \
  -L"$work" -ltensorflow -o "$work/smoke"
LD_LIBRARY_PATH="$work" "$work/smoke"
echo "PASS"
